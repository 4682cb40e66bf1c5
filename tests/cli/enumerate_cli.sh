#!/usr/bin/env bash
# knightstour enumerate + verify: formats, counts, planted faults, resume after kill -9,
# disk full and file size limits.
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
PY="$HERE/../../scripts/py"

# Tours written equal tours counted, for several boards and modes.
for job in "5x5 --all-starts" "3x4 --all-starts" "4x5 --all-starts" "6x6 --start a1 --closed" \
           "5x6 --all-starts --closed" "6x6 --prefix a1,b3" "5x5 --start c3 --algorithm naive"; do
  run count $job --json
  expected=$(json_get tours)
  run enumerate $job --out "$TMP/e-${job// /_}" --json --progress 0
  expect_exit 0
  expect_json tours "$expected"
  expect_json tours_written "$expected"
  run verify "$TMP/e-${job// /_}"
  expect_exit 0
  expect_out "verify: OK: ${expected//?/[0-9,]*}"
done

# npy loads with numpy (memory-mapped), one row per tour, the smallest dtype.
run enumerate 6x6 --start a1 --out "$TMP/a1" --progress 0
expect_exit 0
expect_out '^tours +524,486 '
"$PY" - "$TMP/a1" >"$TMP/py.out" 2>&1 <<'PYEOF'
import sys; sys.path.insert(0, sys.argv[0].rsplit("/", 1)[0])
import glob, numpy as np
files = sorted(glob.glob(sys.argv[1] + "/tours-*.npy"))
arrays = [np.load(f, mmap_mode="r") for f in files]
t = np.concatenate(arrays)
assert t.dtype == np.uint8 and t.shape == (524486, 36), (t.dtype, t.shape)
assert (t[:, 0] == 0).all()
assert (np.sort(t, axis=1) == np.arange(36)).all()
r, c = np.divmod(t.astype(int), 6)
assert (np.abs(np.diff(r, axis=1)) * np.abs(np.diff(c, axis=1)) == 2).all()
assert len(np.unique(t, axis=0)) == 524486
print("numpy ok")
PYEOF
CHECKS=$((CHECKS + 1)); grep -q "numpy ok" "$TMP/py.out" || { LAST="numpy load"; fail "$(cat "$TMP/py.out")"; }

# The same tours in every format, compressed or not.
for fmt in npy text board; do
  for z in none zstd; do
    run enumerate 5x5 --start a1 --format $fmt --compress $z --out "$TMP/f-$fmt-$z" --progress 0 --json
    expect_exit 0
    expect_json tours 304
    run verify "$TMP/f-$fmt-$z"
    expect_exit 0
  done
done
CHECKS=$((CHECKS + 1))
ls "$TMP/f-board-zstd" | grep -q '\.board\.zst$' || { LAST="file names"; fail "no .board.zst file"; }
head -c 200 "$TMP"/f-text-none/tours-*.txt | grep -Eq '^a1 [a-e][1-5] ' || { LAST="text format"; fail "text rows"; }
CHECKS=$((CHECKS + 1)); zstd -dc "$TMP"/f-npy-zstd/tours-*.npy.zst > "$TMP/dec.npy" && \
  "$PY" -c "import numpy as np,sys; a=np.load(sys.argv[1]); assert a.shape[1]==25" "$TMP/dec.npy" || \
  { LAST="zstd npy"; fail "decompressed .npy.zst does not load"; }
# board format: a grid of move numbers, 1 on the start square
CHECKS=$((CHECKS + 1))
awk 'NR==5 { if ($1 != 1) exit 1 } END {}' "$TMP"/f-board-none/tours-*.board || { LAST="board format"; fail "a1 is not move 1"; }

# Loose files: verify checks rows without a run directory.
run verify "$TMP"/f-text-none/tours-*.txt
expect_exit 0
run verify "$TMP"/a1/tours-*.npy --board 6x6 --start a1
expect_exit 0
expect_out '524,486 tours'

# Planted faults are caught: exit 4 (a wrong tour or bookkeeping) or 2 (unreadable input).
plant() {  # plant DIR: copy a1 to DIR
  rm -rf "$1"; cp -r "$TMP/a1" "$1"
}
file0=$(basename "$(ls "$TMP"/a1/tours-*.npy | head -1)")
plant "$TMP/swap"
"$PY" - "$TMP/swap/$file0" <<'PYEOF'
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(128 + 5 * 36 + 10); a = f.read(1); f.seek(128 + 5 * 36 + 11); b = f.read(1)
    f.seek(128 + 5 * 36 + 10); f.write(b); f.write(a)
PYEOF
run verify "$TMP/swap"; expect_exit 4; expect_out "FAILED: $file0 row 5: "

plant "$TMP/dup"
"$PY" - "$TMP/dup/$file0" <<'PYEOF'
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(128 + 7 * 36); row = f.read(36); f.seek(128 + 8 * 36); f.write(row)
PYEOF
run verify "$TMP/dup"; expect_exit 4; expect_out "FAILED: .*(same tour|journal says)"

plant "$TMP/trunc"
truncate -s -100 "$TMP/trunc/$file0"
run verify "$TMP/trunc"; expect_exit 2; expect_err "truncated"

plant "$TMP/noline"
sed -i '5d' "$TMP/noline/journal-0.tsv"
run verify "$TMP/noline"; expect_exit 4; expect_out "FAILED: .*not journaled"

plant "$TMP/badline"
sed -i '3s/\t/ X /' "$TMP/noline/journal-0.tsv" "$TMP/badline/journal-0.tsv"
run verify "$TMP/badline"; expect_exit 2; expect_err "journal-0.tsv line 3"

plant "$TMP/badmanifest"
echo '{"format": "knightstour-run", "rows": ' > "$TMP/badmanifest/manifest.json"
# A manifest that does not parse is damage found (exit 4), as one whose checksum fails is.
run verify "$TMP/badmanifest"; expect_exit 4; expect_out "^verify: FAILED: .*manifest"

head -c 4000 /dev/urandom > "$TMP/random.npy"
run verify "$TMP/random.npy" --board 6x6; expect_exit 2; expect_usage_error 'not a .npy file'
run verify "$TMP/nonexistent"; expect_exit 2

# Bad input writes nothing.
run enumerate 6x6 --start a1; expect_usage_error 'needs --out'
run enumerate 6x6 --start z9 --out "$TMP/never"; expect_usage_error 'off the 6x6 board'
CHECKS=$((CHECKS + 1)); [ ! -e "$TMP/never" ] || { LAST="bad input"; fail "created $TMP/never"; }
run enumerate 6x6 --start a1 --out "$TMP/never" --format xml; expect_usage_error 'unknown format'
run enumerate 6x6 --start a1 --out "$TMP/never" --part-size 0; expect_usage_error 'part-size'
run enumerate 6x6 --start a1 --out "$TMP/never" --part-size 5X; expect_usage_error "part-size expects a size such as 16G, 500M or 1000000 bytes, not '5X'"
run enumerate 6x6 --start a1 --out "$TMP/never" --part-size 99999999T; expect_usage_error 'part-size is too large'
# A size suffix in either case; a small part size rolls files over (at prefix boundaries).
run enumerate 5x5 --start a1 --out "$TMP/parts" --format text --part-size 2k --threads 1; expect_exit 0
CHECKS=$((CHECKS + 1)); n=$(ls "$TMP/parts" | grep -c '\.txt$'); [ "$n" -ge 5 ] || { LAST="part-size 2k"; fail "only $n text files"; }
run verify "$TMP/parts"; expect_exit 0
run enumerate 6x6 --start a1 --out "$TMP/a1"; expect_usage_error 'already holds a run'
run enumerate 6x6 --start a1 --out "$TMP/none-such" --resume; expect_usage_error 'none-such does not exist'

# A resume that asks for something else is refused, naming the difference.
run enumerate 6x6 --start a1 --out "$TMP/a1" --resume --split-depth 3; expect_usage_error 'split depth'
run enumerate 6x6 --start a1 --out "$TMP/a1" --resume --closed; expect_usage_error 'closed false vs true'
run enumerate 6x6 --start a1 --out "$TMP/a1" --resume --format text; expect_usage_error 'format npy vs text'
# A finished run resumed prints its counts and leaves its manifest as it was.
cp "$TMP/a1/manifest.json" "$TMP/a1-manifest"
run enumerate 6x6 --start a1 --out "$TMP/a1" --resume; expect_exit 0; expect_out 'tours +524,486'
run enumerate --out "$TMP/a1" --resume;  expect_exit 0; expect_out 'tours +524,486'
CHECKS=$((CHECKS + 1)); cmp -s "$TMP/a1-manifest" "$TMP/a1/manifest.json" || fail "resuming a finished run rewrote its manifest"

# --resume needs nothing but the directory: board, start, closed, shard from the manifest.
run enumerate 6x6 --start b1 --closed --out "$TMP/b1c" --max-tours 100 --shard-count 3 --shard-index 2 --progress 0
expect_exit 3
run enumerate --out "$TMP/b1c" --resume --progress 0 --json
expect_exit 0; expect_json status complete
run count 6x7 --start a1 --run-dir "$TMP/c67" --max-nodes 1M --progress 0; expect_exit 3
run count --run-dir "$TMP/c67" --resume --progress 0 --max-nodes 2M; expect_exit 3
expect_out 'INCOMPLETE'
run count 6x7 --run-dir "$TMP/c67" --resume --progress 0 --max-nodes 2M; expect_exit 3
run count 6x7 --run-dir "$TMP/c67" --resume --all-starts; expect_usage_error 'all-starts'
run count 6x6 --run-dir "$TMP/c67" --resume; expect_usage_error 'board 6x7 vs 6x6'
run count --run-dir "$TMP/none-such" --resume; expect_usage_error 'none-such does not exist'

# Caps stop with exit 3; the files then hold only whole prefixes and verify accepts them.
run enumerate 6x6 --all-starts --out "$TMP/cap" --max-tours 100000 --checkpoint 0.01 --progress 0
expect_exit 3
expect_out 'INCOMPLETE: tour cap'
run verify "$TMP/cap"; expect_exit 0; expect_out 'note: the run is incomplete'
run enumerate 6x6 --all-starts --out "$TMP/cap" --resume --progress 0 --json
expect_exit 0; expect_json tours 6637920

# kill -9 at random moments, 20 times, then resume: the same tours as an uninterrupted run.
run enumerate 6x6 --all-starts --no-symmetry --out "$TMP/ref" --progress 0
expect_exit 0
killrun() {  # killrun DIR FORMAT-ARGS...
  local dir=$1; shift
  local kills=0
  for i in $(seq 1 20); do
    local resume=""
    [ -e "$dir/manifest.json" ] && resume=--resume
    "$KT" enumerate 6x6 --all-starts --no-symmetry --out "$dir" $resume --checkpoint 0.02 --part-size 2M \
      --progress 0 "$@" >/dev/null 2>"$TMP/kill.err" &
    local pid=$!
    sleep "0.$(printf '%02d' $((RANDOM % 30 + 2)))"
    kill -9 $pid 2>/dev/null && kills=$((kills + 1))
    wait $pid 2>/dev/null
  done
  echo "$kills kills" >&2
  run enumerate 6x6 --all-starts --no-symmetry --out "$dir" --resume --progress 0 --json "$@"
  expect_exit 0
  expect_json tours 6637920
  run verify "$dir"
  expect_exit 0
}
killrun "$TMP/killed"
CHECKS=$((CHECKS + 1))
"$PY" "$HERE/compare_runs.py" "$TMP/ref" "$TMP/killed" >"$TMP/cmp.out" 2>&1 || { LAST="kill -9 loop"; fail "$(cat "$TMP/cmp.out")"; }
killrun "$TMP/killed-zstd" --compress zstd

# count --run-dir journals per-prefix counts and resumes after kill -9 as well.
for i in $(seq 1 10); do
  resume=""; [ -e "$TMP/cnt/manifest.json" ] && resume=--resume
  "$KT" count 6x6 --all-starts --no-symmetry --run-dir "$TMP/cnt" $resume --progress 0 >/dev/null 2>&1 &
  pid=$!; sleep "0.$(printf '%02d' $((RANDOM % 25 + 2)))"; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
done
run count 6x6 --all-starts --no-symmetry --run-dir "$TMP/cnt" --resume --json --progress 0
expect_exit 0
expect_json tours 6637920
expect_json tours_by_start "$("$KT" count 6x6 --all-starts --json | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["tours_by_start"]))')"
run verify "$TMP/cnt"; expect_exit 0

# A file size limit (RLIMIT_FSIZE) and a full disk: exit 1 with one clear line; what was
# committed stays valid and the run resumes to the full set.
(ulimit -f 4096; "$KT" enumerate 6x6 --start a1 --out "$TMP/fsize" --part-size 1M --progress 0 >"$TMP/out" 2>"$TMP/err")
CODE=$?; LAST="enumerate under ulimit -f"
expect_exit 1
expect_err 'file size limit'
run verify "$TMP/fsize"; expect_exit 0
run enumerate 6x6 --start a1 --out "$TMP/fsize" --resume --progress 0 --json
expect_exit 0; expect_json tours 524486
run verify "$TMP/fsize"; expect_exit 0

mkdir -p "$TMP/small"
if mount -t tmpfs -o size=6M tmpfs "$TMP/small" 2>/dev/null; then
  run enumerate 6x6 --start a1 --out "$TMP/small/run" --part-size 1M --progress 0
  expect_exit 1
  expect_err 'disk is full'
  CHECKS=$((CHECKS + 1)); [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "stderr should be one line"
  run verify "$TMP/small/run"; expect_exit 0
  mount -o remount,size=64M "$TMP/small"
  run enumerate 6x6 --start a1 --out "$TMP/small/run" --resume --progress 0 --json
  expect_exit 0; expect_json tours 524486
  run verify "$TMP/small/run"; expect_exit 0
  umount "$TMP/small"
else
  echo "note: cannot mount a tmpfs here (not root?); the disk-full case ran only as a file size limit"
fi

# A directory that cannot be created: exit 1.
run enumerate 5x5 --start a1 --out /proc/knightstour-cannot-write --progress 0
expect_exit 1
expect_err 'cannot create run directory'

finish
