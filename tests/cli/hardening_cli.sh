#!/usr/bin/env bash
# Regression tests for defects found by the adversarial test of issue 13: each check failed
# before its fix.
. "$(dirname "$0")/lib.sh"
# Edits past the checksums of an enumerator run (forge.py seal), so that the checks behind
# them are what refuses an edit.
FORGE="$(dirname "$0")/../../scripts/py $(dirname "$0")/forge.py"  # the package needs numpy

# 8. Seconds past what a deadline can hold are refused, not honoured as "now".
run count 5x5 --start a1 --time-limit 1e10;  expect_usage_error 'time-limit is at most 36500 days'
run count 5x5 --start a1 --time-limit 9223372036; expect_usage_error 'at most 36500 days'
run count 5x5 --start a1 --progress 1e10;    expect_usage_error 'progress is at most 36500 days'
run find 8 --time-limit 1e10;                expect_usage_error 'at most 36500 days'
# Units on times and exponents or suffixes on counts (issue 12).
run count 5x5 --start a1 --time-limit 2h --progress 15m --json
expect_exit 0; expect_json tours 304; expect_json status complete
run count 6x6 --start a1 --max-tours 1e3 --json
expect_exit 3; expect_json status incomplete
run count 6x6 --start a1 --max-nodes 2K --json
expect_exit 3; expect_json status incomplete
run count 5x5 --start a1 --max-tours 2e19;   expect_usage_error 'too large'
run count 5x5 --start a1 --max-tours 2x;     expect_usage_error "expects a whole number .*not '2x'"
run count 5x5 --start a1 --time-limit 5w;    expect_usage_error "expects seconds"

# 3. verify compares run directories with one another.
run enumerate 5x5 --start a1 --out "$TMP/R"; expect_exit 0
run verify "$TMP/R" "$TMP/R";                expect_exit 4; expect_out 'given twice'
run verify "$TMP/R" "$TMP/../$(basename "$TMP")/R"; expect_exit 4; expect_out 'given twice'
for i in 0 1; do
  run enumerate 5x5 --all-starts --shard-count 2 --shard-index $i --out "$TMP/S$i"; expect_exit 0
done
cp -r "$TMP/S0" "$TMP/S0copy"
run verify "$TMP/S0" "$TMP/S1";              expect_exit 0; expect_out 'OK: 1,728 tours'
run verify "$TMP/S0" "$TMP/S1" "$TMP/S0copy"; expect_exit 4; expect_out 'both hold prefix [0-9]+ of one job'
run count 5x5 --all-starts --run-dir "$TMP/C"; expect_exit 0
run verify "$TMP/C";                         expect_exit 0
expect_out '^verify: OK: count run of 1,728 tours \(0 closed\); no tour files to check; [0-9,]+ of [0-9,]+ prefixes journaled'
run verify "$TMP/C" --json;                  expect_exit 0; expect_json tours 1728; expect_json counted_tours 1728
cp -r "$TMP/C" "$TMP/Ccopy"
run verify "$TMP/C" "$TMP/Ccopy";            expect_exit 4; expect_out 'both hold prefix'

# 7. Counts by last square that wrap 2^64 are refused by verify and --resume.
python3 - "$TMP/C/journal-0.tsv" <<'PY'
import sys
path = sys.argv[1]
lines = open(path).read().split("\n")
for k, line in enumerate(lines):
    if line.startswith("#") or not line:
        continue
    f = line.split("\t")
    nonzero = [i for i in range(6, len(f) - 1) if f[i] != "0"]  # the last field: the check
    if len(nonzero) >= 2:
        f[nonzero[0]] = str(2**64 - 1)
        f[nonzero[1]] = str(int(f[nonzero[1]]) + 1)  # the sum wraps back to the line's tours
        lines[k] = "\t".join(f)
        break
else:
    sys.exit("no line with two last squares")
open(path, "w").write("\n".join(lines))
PY
run verify "$TMP/C";                        expect_exit 2; expect_err 'line [0-9]+: does not check out'
$FORGE seal "$TMP/C"
run verify "$TMP/C";                        expect_exit 2; expect_err 'add up past 2\^64'
run count --run-dir "$TMP/C" --resume 5x5 --all-starts --json; expect_exit 2; expect_err 'add up past 2\^64'

# 6. A journal temp file left by a kill -9 during a rewrite is not a second journal.
cp "$TMP/S0/journal-0.tsv" "$TMP/S0/journal-0.tsv.tmp"
run merge "$TMP/S0" "$TMP/S1" --out "$TMP/M"; expect_exit 0; expect_out 'tours +1,728'
run verify "$TMP/M";                          expect_exit 0

# Small items of issue 12.
run enumerate 5x5 --start a1 --out -;  expect_usage_error '--out needs a directory'
CHECKS=$((CHECKS + 1)); [ ! -e ./- ] || fail "a directory named - was made"
run enumerate 5x5 --start a1 --out "";  expect_usage_error '--out needs a directory'

# prefixes lists work units; it takes no caps and says so, and --help shows each default once.
run prefixes 6x6 --start a1 --max-nodes 5;  expect_usage_error 'max-nodes'
run prefixes --help; expect_exit 0
CHECKS=$((CHECKS + 1)); ! grep -q -- '--max-tours\|--time-limit' "$TMP/out" || fail "prefixes --help lists caps"
run count --help; expect_exit 0
CHECKS=$((CHECKS + 1)); ! grep -q '(default) or' "$TMP/out" || fail "a default said twice"

# 5. merge checks every input as verify does and writes nothing from a damaged one.
run enumerate 5x5 --start a1 --out "$TMP/M0"; expect_exit 0
damage() {  # damage NAME PYTHON-STATEMENTS : a copy of M0 as $TMP/NAME, changed by the code
  rm -rf "$TMP/$1"; cp -r "$TMP/M0" "$TMP/$1"
  ( cd "$TMP/$1" && python3 -c "
import json, os
def manifest(f):
    m = json.load(open('manifest.json')); f(m); json.dump(m, open('manifest.json', 'w'))
def journal(f):
    lines = open('journal-0.tsv').read().split('\n')
    head, body = lines[0], [l.split('\t') for l in lines[1:] if l]
    body = f(body)
    open('journal-0.tsv', 'w').write('\n'.join([head] + ['\t'.join(l) for l in body]) + '\n')
def npy_row(name, row, new):
    data = bytearray(open(name, 'rb').read())
    data[128 + 25 * row:128 + 25 * row + 25] = new
    open(name, 'wb').write(data)
$2" )
  $FORGE seal "$TMP/$1"  # past the checksums: the checks behind them refuse it
}
expect_merge_refused() {  # expect_merge_refused NAME REGEX
  rm -rf "$TMP/$1.out"
  LAST="knightstour merge $1"
  timeout $((60 * SLOWDOWN)) "$KT" merge "$TMP/$1" --out "$TMP/$1.out" >"$TMP/out" 2>"$TMP/err"; CODE=$?
  expect_usage_error "cannot merge .*$2"
  CHECKS=$((CHECKS + 1)); [ ! -e "$TMP/$1.out" ] || fail "merge wrote $1.out"
}
damage plan_size "manifest(lambda m: m['totals'].update(prefixes_in_plan=-1))"
expect_merge_refused plan_size ''
damage depth "manifest(lambda m: m.update(split_depth=m['split_depth'] - 1))"
expect_merge_refused depth 'the plan has 282 prefixes, it has 230'
damage prefix "manifest(lambda m: m.update(prefix=['b1']))"
expect_merge_refused prefix 'the plan has 282 prefixes'
damage format "manifest(lambda m: m.update(tour_format='text'))"
expect_merge_refused format 'tours-0-0.npy: not a txt file'
damage squares "journal(lambda b: [l[:1] + [l[1].replace('a1,', 'e5,', 1)] + l[2:] for l in b])"
expect_merge_refused squares 'squares .* differ'
damage no_file "journal(lambda b: [l[:6] + ['-'] + l[7:] if int(l[2]) > 0 else l for l in b])"
expect_merge_refused no_file 'has tours but names no file'
damage off_board "npy_row('tours-0-0.npy', 0, bytes([200]) * 25)"
expect_merge_refused off_board ''
damage illegal "npy_row('tours-0-0.npy', 0, bytes(range(25)))"
expect_merge_refused illegal 'row 0'
damage twice "d = open('tours-0-0.npy', 'rb').read(); npy_row('tours-0-0.npy', 1, d[128:153])"
expect_merge_refused twice 'same tour|journal says'
# With --skip-tour-check the bookkeeping is still checked, the tours not.
rm -rf "$TMP/twice.out"
run merge "$TMP/no_file" --out "$TMP/no_file.out" --skip-tour-check
expect_usage_error 'has tours but names no file'
run merge "$TMP/M0" --out "$TMP/M0.out" --skip-tour-check; expect_exit 0; expect_out 'tours +304'
run merge "$TMP/M0" --out "$TMP/M0.full"; expect_exit 0; expect_out 'tours +304'
run verify "$TMP/M0.full"; expect_exit 0

# 4. One .npy reader for everything: a header edited to <u2 is refused by resume's and
# merge's file check as by verify; a file numpy re-saved as <u2 is kept by all three.
damage u2_header "d = open('tours-0-0.npy', 'rb').read(); open('tours-0-0.npy', 'wb').write(d.replace(b'|u1', b'<u2', 1))"
expect_merge_refused u2_header ''
damage u2_resaved "
import struct
for name in sorted(os.listdir('.')):
    if not name.endswith('.npy'): continue
    d = open(name, 'rb').read()
    hl = struct.unpack('<H', d[8:10])[0]
    rows = (len(d) - 10 - hl) // 25
    body = b''.join(bytes([b, 0]) for b in d[10 + hl:])
    dic = \"{'descr': '<u2', 'fortran_order': False, 'shape': (%d, 25), }\" % rows
    dic += ' ' * (118 - len(dic) - 1) + '\n'
    open(name, 'wb').write(d[:8] + struct.pack('<H', len(dic)) + dic.encode() + body)"
run verify "$TMP/u2_resaved";                 expect_exit 0; expect_out 'OK: 304 tours'
run merge "$TMP/u2_resaved" --out "$TMP/u2_resaved.out"; expect_exit 0; expect_out 'tours +304'
run enumerate --out "$TMP/u2_resaved" --resume; expect_exit 0
CHECKS=$((CHECKS + 1)); grep -q '<u2' "$TMP/u2_resaved/tours-0-0.npy" || fail "resume replaced the re-saved file"
run verify "$TMP/u2_resaved";                 expect_exit 0; expect_out 'OK: 304 tours'

# 10. A FIFO where a tour file belongs blocks nothing: verify, merge and resume refuse it (a
# finished run whose file is not what its journal says is not resumed).
damage fifo "os.remove('tours-0-0.npy'); os.mkfifo('tours-0-0.npy')"
LAST="verify fifo"; timeout $((30 * SLOWDOWN)) "$KT" verify "$TMP/fifo" >"$TMP/out" 2>"$TMP/err"; CODE=$?
expect_exit 2; expect_err 'not a regular file'
expect_merge_refused fifo 'not a regular file|holds other tours'
LAST="resume fifo"; timeout $((30 * SLOWDOWN)) "$KT" enumerate --out "$TMP/fifo" --resume >"$TMP/out" 2>"$TMP/err"; CODE=$?
expect_usage_error 'tours-0-0.npy: holds other tours than its journal lines say'
damage fifo_manifest "os.remove('manifest.json'); os.mkfifo('manifest.json')"
LAST="verify fifo manifest"; timeout $((30 * SLOWDOWN)) "$KT" verify "$TMP/fifo_manifest" >"$TMP/out" 2>"$TMP/err"; CODE=$?
expect_exit 2; expect_err 'not a regular file'

# 1. A thread that cannot be created is one line and exit 1, never an abort; the run
# directory stays resumable.
# (Not under ASan or TSan: their runtimes reserve terabytes of address space at start-up.)
limits="34000 38000 42000 46000"
if under_asan || [ -n "${TSAN_OPTIONS:-}" ]; then limits=""; fi
for limit in $limits; do
  rm -rf "$TMP/V"
  LAST="enumerate under ulimit -v $limit"
  bash -c "ulimit -v $limit; exec \"$KT\" enumerate 6x6 --start a1 --out \"$TMP/V\"" >"$TMP/out" 2>"$TMP/err"
  CODE=$?
  CHECKS=$((CHECKS + 1)); [ "$CODE" -le 1 ] || fail "exit $CODE under ulimit -v $limit"
  CHECKS=$((CHECKS + 1)); [ "$(wc -l <"$TMP/err")" -le 1 ] || fail "more than one line on stderr"
  if [ -e "$TMP/V/manifest.json" ]; then
    run enumerate --out "$TMP/V" --resume;      expect_exit 0
    run verify "$TMP/V";                         expect_exit 0; expect_out 'OK: 524,486 tours'
  fi
done
if [ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null; then
  # A per-user process limit binds only a user other than root.
  mkdir -p "$TMP/nobody"; cp "$KT" "$TMP/nobody/kt"; chmod 755 "$TMP" "$TMP/nobody" "$TMP/nobody/kt"
  for cmd in "count 6x6 --start a1" "count 6x6 --start a1 --method frontier" "estimate 7x7 --start a1"; do
    LAST="$cmd --threads 64 under ulimit -u 20"
    runuser -u nobody -- bash -c "ulimit -u 20; exec $TMP/nobody/kt $cmd --threads 64" >"$TMP/out" 2>"$TMP/err"
    CODE=$?
    expect_exit 1; expect_err '^knightstour: cannot start 64 threads: .*lower --threads'
  done
fi

# 9. A plan too large to hold is refused up front, from the command line or a manifest.
LAST="count 7x9 deep"; timeout $((60 * SLOWDOWN)) "$KT" count 7x9 --all-starts --split-depth 12 >"$TMP/out" 2>"$TMP/err"; CODE=$?
expect_usage_error 'split depth 12 gives more than 10,000,000 prefixes'
damage deep_manifest "manifest(lambda m: m.update(board='7x9', rows=7, cols=9, split_depth=40))"
LAST="verify deep manifest"; timeout $((60 * SLOWDOWN)) "$KT" verify "$TMP/deep_manifest" >"$TMP/out" 2>"$TMP/err"; CODE=$?
expect_exit 2; expect_err 'more than 10,000,000 prefixes'

# 11. Resume trusts a finished file by the rows and size its journal lines recorded, without
# reading it again (only verify, reading every tour, finds bytes flipped in a file of the
# right size); a file that differs from them, or a lost line, is refused as verify refuses
# it; journal v1 lines (no rows or size) of a run of format 3 are still read, their files
# checked by counting rows.
run enumerate 6x6 --start a1 --format text --compress zstd --part-size 200K --out "$TMP/Z"; expect_exit 0
CHECKS=$((CHECKS + 1)); [ "$(ls "$TMP/Z" | grep -c 'tours-.*zst$')" -ge 3 ] || fail "expected several part files"
cp -r "$TMP/Z" "$TMP/Zflip"
python3 - "$TMP/Zflip" <<'PY'
import os, sys
path = os.path.join(sys.argv[1], 'tours-0-1.txt.zst')
data = bytearray(open(path, 'rb').read())
data[len(data) // 2] ^= 0xFF  # same size, different bytes: only reading it would tell
open(path, 'wb').write(data)
PY
run enumerate --out "$TMP/Zflip" --resume;    expect_exit 0; expect_out 'complete'
CHECKS=$((CHECKS + 1)); cmp -s "$TMP/Zflip/tours-0-1.txt.zst" "$TMP/Z/tours-0-1.txt.zst" && fail "resume re-read and redid the file"
run verify "$TMP/Zflip";                      expect_exit 2; expect_err 'corrupt zstd|row'
cp -r "$TMP/Z" "$TMP/Zcut"
truncate -s -1 "$TMP/Zcut/tours-0-1.txt.zst"
run enumerate --out "$TMP/Zcut" --resume;     expect_usage_error 'tours-0-1.txt.zst: holds other tours'
run verify "$TMP/Zcut";                       expect_exit 2; expect_err "tours-0-1.txt.zst"
cp -r "$TMP/Z" "$TMP/Zrows"
python3 - "$TMP/Zrows/journal-0.tsv" <<'PY'
import sys
lines = open(sys.argv[1]).read().split('\n')
lost = next(i for i, l in enumerate(lines) if '\ttours-0-1.txt.zst\t' in l and l.split('\t')[2] != '0')
del lines[lost]  # a lost line: the other lines of its file no longer add up to its rows
open(sys.argv[1], 'w').write('\n'.join(lines))
PY
$FORGE seal "$TMP/Zrows"
run enumerate --out "$TMP/Zrows" --resume;    expect_usage_error 'holds other tours than its journal lines say'
run verify "$TMP/Zrows";                      expect_exit 4
cp -r "$TMP/Z" "$TMP/Zv1"
python3 - "$TMP/Zv1" <<'PY'
import json, os, sys
journal, manifest = os.path.join(sys.argv[1], 'journal-0.tsv'), os.path.join(sys.argv[1], 'manifest.json')
lines = open(journal).read().split('\n')
lines = ['# knightstour journal v1 (enumerate): id\tsquares\ttours\tclosed\tnodes\tseconds\tfile'] + \
        ['\t'.join(l.split('\t')[:7]) for l in lines[1:]]
open(journal, 'w').write('\n'.join(lines))
m = json.load(open(manifest))
m['format_version'] = 3
del m['checksum']
json.dump(m, open(manifest, 'w'))
PY
run enumerate --out "$TMP/Zv1" --resume;      expect_exit 0; expect_out 'complete'
CHECKS=$((CHECKS + 1)); cmp -s "$TMP/Zv1/tours-0-1.txt.zst" "$TMP/Z/tours-0-1.txt.zst" || fail "a v1 journal's file was redone"
run verify "$TMP/Zv1";                        expect_exit 0; expect_out 'OK: 524,486 tours'
expect_out 'note: a run of manifest format 1 to 3: its manifest and journal lines carry no checksums'

# 12. Small items: bad paths are bad input (exit 2) with one line; merge never suggests
# --resume; estimate reports what it had at SIGINT; its header fits a prefix.
mkdir -p "$TMP/plain"
run verify "$TMP/plain";                      expect_usage_error 'not a run directory \(no manifest.json\)'
ln -s "$TMP/loop1" "$TMP/loop2"; ln -s "$TMP/loop2" "$TMP/loop1"
run verify "$TMP/loop1";                      expect_usage_error 'Too many levels of symbolic links'
run enumerate 5x5 --start a1 --out /dev/null; expect_usage_error 'cannot use /dev/null as a run directory'
run count 5x5 --start a1 --run-dir "";        expect_usage_error 'run directory name is empty'
run merge "$TMP/M0" --out "$TMP/M0";          expect_usage_error 'choose another --out'
CHECKS=$((CHECKS + 1)); ! grep -q -- '--resume' "$TMP/err" || fail "merge suggests --resume"
LAST="estimate interrupted"
timeout --preserve-status -s INT $((2 * SLOWDOWN)) "$KT" estimate 8x8 --start a1 --walks 5e9 >"$TMP/out" 2>"$TMP/err"; CODE=$?
expect_exit 3; expect_out '^tours +~'; expect_out 'interrupted by a signal after [0-9,]+ of 5,000,000,000 walks'
run estimate 8 --prefix a1,c2,e1,g2 --walks 1e5 --calibrate 0
expect_exit 0; expect_out 'prefix a1,c2,e1,g2,'; expect_out 'all searched'
CHECKS=$((CHECKS + 1)); ! grep -q 'start a1\|mirror images' "$TMP/out" || fail "estimate header speaks of a start or mirror images"

# 12. find --out on a full disk: one line, exit 1, no empty .tmp left (needs a tmpfs: root).
mkdir -p "$TMP/full"
if mount -t tmpfs -o size=16k tmpfs "$TMP/full" 2>/dev/null; then
  dd if=/dev/zero of="$TMP/full/filler" bs=4k count=100 2>/dev/null
  run find 60 --out "$TMP/full/t.txt" --format text
  expect_exit 1; expect_err 'No space left on device'
  CHECKS=$((CHECKS + 1)); [ -z "$(ls "$TMP/full" | grep -v filler)" ] || fail "left $(ls "$TMP/full")"
  umount "$TMP/full"
fi

# Issue 12: JSON and manifests say what made them; stop_reason is a token beside its sentence.
run count 6x6 --start a1 --max-tours 1e3 --json --run-dir "$TMP/prov"
expect_exit 3; expect_json stop_reason max_tours; expect_json stop_reason_text 'tour cap (--max-tours) reached'
expect_json command_line "knightstour count 6x6 --start a1 --max-tours 1e3 --json --run-dir $TMP/prov"
CHECKS=$((CHECKS + 1))
python3 - "$TMP/out" "$TMP/prov/manifest.json" <<'PY' || fail "provenance fields missing"
import json, sys
out, manifest = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for key in ("version", "git_commit", "command_line", "host", "cpu_model"):
    assert out[key], key
for key in ("git_commit", "command_line", "host", "cpu_model"):
    assert manifest[key] == out[key], key
assert manifest["stop_reason"] == "max_tours"
PY
run count --run-dir "$TMP/prov" --resume --json; expect_exit 0; expect_json stop_reason null

# Issue 11: manifests and summaries report the nodes searched and CPU-seconds, summed over
# shards by merge; a Slurm job id is recorded.
for i in 0 1; do
  SLURM_JOB_ID=77 SLURM_ARRAY_JOB_ID=70 SLURM_ARRAY_TASK_ID=$i run count 6x6 --all-starts --shard-count 2 --shard-index $i --run-dir "$TMP/cost$i"
  expect_exit 0; expect_out 'CPU-seconds'
done
run merge "$TMP/cost0" "$TMP/cost1" --out "$TMP/costM" --json; expect_exit 0
CHECKS=$((CHECKS + 1))
python3 - "$TMP" <<'PY' || fail "merged cost is not the sum of the shards'"
import json, sys
d = sys.argv[1]
shards = [json.load(open(f"{d}/cost{i}/manifest.json")) for i in (0, 1)]
merged = json.load(open(f"{d}/costM/manifest.json"))
out = json.load(open(f"{d}/out"))
assert [s["slurm_job"] for s in shards] == ["70_0", "70_1"], [s["slurm_job"] for s in shards]
total = sum(s["timings"]["nodes_searched"] for s in shards)
assert total > 0 and merged["timings"]["nodes_searched"] == total == out["nodes_searched"]
assert abs(merged["timings"]["cpu_seconds"] - sum(s["timings"]["cpu_seconds"] for s in shards)) < 1e-6
assert out["cpu_seconds"] > 0
PY

finish
