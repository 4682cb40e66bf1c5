#!/usr/bin/env bash
# Readers of run directories (issue 92): status of a folder of shards sums only a set merge
# would take; a damaged run is one line and a non-zero exit; no crash, no partial count called
# complete, nothing left by a refused command; one clear line for each bad input below. (The
# table of tamperings against every reader: tampered_runs.py.)
. "$(dirname "$0")/lib.sh"
FORGE="$(dirname "$0")/../../scripts/py $(dirname "$0")/forge.py"  # the package needs numpy

# A folder of the enumerator's shards: one given twice, one missing, one of another job.
J="$TMP/job"
for i in 0 1 2; do
  run count 6x6 --all-starts --method dfs --shard-index $i --shard-count 3 --run-dir "$J/shard-$i" \
    --progress 0
  expect_exit 0
done
run status "$J"
expect_exit 0; expect_out '^tours +6,637,920 \(summed over the shards\)'
D="$TMP/doubled"; mkdir "$D"
cp -r "$J/shard-0" "$D/a"; cp -r "$J/shard-0" "$D/b"; cp -r "$J/shard-1" "$D/c"
run status "$D"
expect_exit 4
expect_out '^problem +a and b both hold shard 0'
expect_out '^problem +1 shard of 3 not found here \(2\)'
expect_out '^prefixes +18,672 of 28,008 finished over 2 of 3 shards'
CHECKS=$((CHECKS + 1)); ! grep -q '^tours\|^next' "$TMP/out" || fail "a total or a merge for a set merge refuses"
run status "$D" --json
expect_exit 4
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert len(j["problems"]) == 2, j["problems"]' "$TMP/out" ||
  fail "JSON problems"
O="$TMP/other"; mkdir "$O"
cp -r "$J/shard-0" "$O/"; cp -r "$J/shard-1" "$O/"; cp -r "$J/shard-2" "$O/"
run count 5x5 --start a1 --run-dir "$O/stray" --progress 0
run status "$O"
expect_exit 4; expect_out '^problem +.* another job than'
CHECKS=$((CHECKS + 1)); ! grep -q '^tours' "$TMP/out" || fail "unrelated runs summed"

# Frontier shards by units of end pairs: the same.
F="$TMP/units"
for i in 0 1; do
  run count 5x6 --all-starts --grid end-pairs --shard-index $i --shard-count 2 --run-dir "$F/shard-$i" \
    --progress 0
done
cp -r "$F/shard-0" "$F/again"
run status "$F"
expect_exit 4; expect_out '^problem +(again and shard-0|shard-0 and again) both hold shard 0'

# A damaged run: one line says what is wrong, and status exits 2.
cp -r "$J/shard-1" "$TMP/damaged"
sed -i '$d' "$TMP/damaged/journal-1.tsv"
run status "$TMP/damaged"
expect_exit 2
expect_out '^status +DAMAGED: the manifest says complete but prefix [0-9]+ .* is not journaled'
CHECKS=$((CHECKS + 1)); [ "$(grep -c . "$TMP/out")" -eq 2 ] || fail "more than the run and its damage"

# A finished run whose journal lacks prefixes (the manifest made to agree): refused by
# --resume of either command, never a crash, and nothing left behind.
run count 6x6 --start a1 --method dfs --run-dir "$TMP/short" --progress 0
sed -i '$d' "$TMP/short/journal-0.tsv"
sed -i 's/"prefixes_done": 428/"prefixes_done": 427/' "$TMP/short/manifest.json"
$FORGE seal "$TMP/short"
run count --run-dir "$TMP/short" --resume
expect_usage_error 'says complete but prefix [0-9]+ .* is not journaled'
run enumerate 5x5 --start a1 --out "$TMP/eshort" --progress 0
python3 - "$TMP/eshort" <<'PY'
import json, os, sys
d = sys.argv[1]
path = os.path.join(d, "journal-0.tsv")
lines = open(path).read().split("\n")
zero = next(i for i in range(len(lines) - 1, 0, -1) if lines[i] and lines[i].split("\t")[2] == "0")
del lines[zero]  # a prefix without tours: no file's rows change
open(path, "w").write("\n".join(lines))
m = json.load(open(os.path.join(d, "manifest.json")))
m["totals"]["prefixes_done"] -= 1
json.dump(m, open(os.path.join(d, "manifest.json"), "w"))
PY
$FORGE seal "$TMP/eshort"
run enumerate --out "$TMP/eshort" --resume
expect_usage_error 'says complete but prefix [0-9]+ .* is not journaled'
CHECKS=$((CHECKS + 1)); ! ls "$TMP/eshort" | grep -q '\.tmp$' || fail "a .tmp left behind"

# A shard count needs its shard; a refused command creates nothing.
run count 5x5 --all-starts --shard-count 2
expect_usage_error '--shard-count goes with --shard-index'
run enumerate 5x5 --all-starts --shard-count 2 --out "$TMP/e2"
expect_usage_error '--shard-count goes with --shard-index'
CHECKS=$((CHECKS + 1)); [ ! -e "$TMP/e2" ] || fail "a refused enumerate created $TMP/e2"
run count 6x6 --all-starts --method frontier --grid pass --run-dir "$TMP/pass"
expect_usage_error 'the backward pass keeps its generations in memory only'
CHECKS=$((CHECKS + 1)); [ ! -e "$TMP/pass" ] || fail "a refused count created $TMP/pass"
mkdir "$TMP/made"
run count 6x6 --all-starts --method frontier --grid pass --run-dir "$TMP/made"
CHECKS=$((CHECKS + 1)); [ -z "$(ls -A "$TMP/made")" ] || fail "a refused count left files in $TMP/made"
run count 6x6 --all-starts --method frontier --run-dir "$TMP/pass" --progress 0
expect_exit 0; expect_out '^tours +6,637,920'

# Paths: one line that says what is wrong with them.
for cmd in "status $TMP/nowhere" "count --run-dir $TMP/nowhere --resume" \
           "enumerate --out $TMP/nowhere --resume" "merge $TMP/nowhere --out $TMP/m"; do
  run $cmd
  expect_usage_error "$TMP/nowhere does not exist"
done
run verify "$TMP/nowhere"; expect_usage_error 'does not exist'
cp -r "$J/shard-0" "$TMP/fifo"; rm "$TMP/fifo/manifest.json"; mkfifo "$TMP/fifo/manifest.json"
for cmd in "status $TMP/fifo" "count --run-dir $TMP/fifo --resume" "merge $TMP/fifo --out $TMP/m"; do
  LAST="$cmd"; timeout $((30 * SLOWDOWN)) "$KT" $cmd >"$TMP/out" 2>"$TMP/err"; CODE=$?
  expect_usage_error 'manifest.json is not a regular file'
done
if [ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null; then
  # Root reads any directory: an unreadable one is seen by another user.
  mkdir -p "$TMP/locked"; cp -r "$J/shard-0" "$TMP/locked/run"; chmod 711 "$TMP"; chmod 700 "$TMP/locked/run"
  for cmd in status verify; do
    LAST="$cmd as nobody"
    runuser -u nobody -- "$KT" $cmd "$TMP/locked/run" >"$TMP/out" 2>"$TMP/err"; CODE=$?
    expect_usage_error "cannot read $TMP/locked/run: Permission denied|$TMP/locked/run.*Permission denied"
  done
  # A file verify cannot read, in a run or given alone: exit 2 as a directory, not 1.
  cp -r "$J/shard-0" "$TMP/locked/files"; chmod -R a+rX "$TMP/locked"; chmod 600 "$TMP/locked/files/journal-0.tsv"
  for target in "$TMP/locked/files" "$TMP/locked/files/journal-0.tsv"; do
    LAST="verify $target as nobody"
    runuser -u nobody -- "$KT" verify "$target" >"$TMP/out" 2>"$TMP/err"; CODE=$?
    expect_usage_error "cannot read $TMP/locked/files/journal-0.tsv: Permission denied"
  done
fi

# Numbers: a negative one is not an option; a side past the limit says the limit.
run count -5x5 --start a1;        expect_usage_error "'-5x5' is not an option"
run count 9x99999999999 --closed; expect_usage_error 'each side must be at most 100000'
run count 5x5 --start a1 --closed=true;  expect_usage_error '--closed is a switch and takes no value'
run count 5x5 --start a1 --closed=false; expect_usage_error '--closed is a switch and takes no value'
mkdir -p "$TMP/ranks"; echo '{"ranks": 5000000000, "run_id": "0123456789abcdef"}' >"$TMP/ranks/ranks.json"
run status "$TMP/ranks"; expect_exit 2; expect_out 'ranks.json is damaged'
for v in abc 0 -3; do
  LAST="SLURM_CPUS_PER_TASK=$v count"
  SLURM_CPUS_PER_TASK=$v "$KT" count 5x5 --start a1 --progress 0 >"$TMP/out" 2>"$TMP/err"; CODE=$?
  expect_exit 0
  expect_err "SLURM_CPUS_PER_TASK='$v' is not a number of CPUs \(1 or more\): ignored"
done

# A run being counted: status gives no mean of CPU not yet recorded, verify does not call its
# spill left over.
L="$TMP/live"
"$KT" count 6x40 --closed --run-dir "$L" --checkpoint 0 --progress 0 --threads 1 --memory 1M \
  >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do [ -s "$L/sweeps.tsv" ] && [ -d "$L/spill" ] && break; sleep 0.05; done
run status "$L"
expect_exit 0
CHECKS=$((CHECKS + 1)); ! grep -q 'about 0.0 CPU-seconds' "$TMP/out" || fail "a mean of nothing"
run verify "$L"
if [ -d "$L/spill" ]; then
  expect_out "being written by the running process $pid"
  CHECKS=$((CHECKS + 1)); ! grep -q 'left by an interrupted session' "$TMP/out" || fail "called left over"
fi
kill -INT "$pid"; wait "$pid"

# Rows of one or two rows have no tour of any length: answered at once.
LAST="count 2x3000 every length"
timeout $((10 * SLOWDOWN)) "$KT" count 2x3000 --all-starts --total-only --every-length --json \
  --progress 0 >"$TMP/out" 2>"$TMP/err"; CODE=$?
expect_exit 0; expect_json tours 0; expect_json status complete
LAST="count 1x5000 every length"
timeout $((10 * SLOWDOWN)) "$KT" count 1x5000 --closed --every-length --json --progress 0 \
  >"$TMP/out" 2>"$TMP/err"; CODE=$?
expect_exit 0; expect_json closed_cycles 0
run count 1x3 --all-starts --total-only --every-length --json --progress 0
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["by_length"]; assert [x["tours"] for x in r] == [1, 0, 0], r' "$TMP/out" ||
  fail "1x1 holds its one tour"

echo "$CHECKS checks, $FAILURES failures"
[ "$FAILURES" -eq 0 ]
