#!/usr/bin/env bash
# A stopped run loses nothing, and verify, --resume and merge agree on one truth: a check for
# each finding of the adversarial test of issue 74 (each failed before its fix).
. "$(dirname "$0")/lib.sh"
FORGE="$(dirname "$0")/../../scripts/py $(dirname "$0")/forge.py"  # the package needs numpy
TABLES="$(dirname "$0")/../../scripts/end-pair-tables"

# ---- 2. Stopping keeps the work --------------------------------------------------------
# A closed count stopped at several moments (time limits, SIGTERM, SIGINT), each stop keeping
# the step it had reached in a checkpoint the sweep journal records, ends with the count of
# an uninterrupted run.
run count 6x20 --closed --json --progress 0
expect_exit 0
WHOLE=$(json_get closed_cycles)
D="$TMP/stopped"
kept_any=0
stop_once() {  # stop_once HOW : one session of the run in $D, stopped by HOW
  case "$1" in
    limit*) run count 6x20 --closed --run-dir "$D" --progress 0 --time-limit "${1#limit}" ;;
    TERM | INT)
      "$KT" count --run-dir "$D" --resume --progress 0 >"$TMP/out" 2>"$TMP/err" &
      local pid=$!
      sleep 0.7
      kill -"$1" "$pid"
      wait "$pid"
      CODE=$?
      LAST="count --resume, then SIG$1"
      ;;
  esac
}
for how in limit0.4 TERM INT; do
  [ "$how" = limit0.4 ] || [ -d "$D" ] || continue
  stop_once "$how"
  [ "$CODE" -eq 0 ] && break  # a fast machine finished first: nothing left to stop
  expect_exit 3
  expect_out '^kept +0 sweeps finished'
  step=$(sed -n 's/^kept .*sweep 0 at step \([0-9]*\) of 120 in .*checkpoint-0.bin$/\1/p' "$TMP/out")
  if [ -n "$step" ]; then
    kept_any=1
    CHECKS=$((CHECKS + 1))
    grep -q "^checkpoint	0	$step	" "$D/sweeps.tsv" || fail "sweeps.tsv records no checkpoint at step $step"
    run verify "$D"; expect_exit 0; expect_out "checkpoint-0.bin: .*the journal records it; step $step,"
    run count --run-dir "$D" --resume --progress 0 --time-limit 0.01 --json
    expect_err "resuming sweep 0 at step $step from checkpoint-0.bin"
  fi
done
CHECKS=$((CHECKS + 1)); [ "$kept_any" -eq 1 ] || fail "no stop kept a step"
run count --run-dir "$D" --resume --progress 0 --json
expect_exit 0
expect_json closed_cycles "$WHOLE"
CHECKS=$((CHECKS + 1)); [ "$(ls -A "$D")" = "$(printf '.lock\nmanifest.json')" ] || fail "left in $D: $(ls -A "$D")"

# An all-starts count by pinned tails stopped in its shared prefix keeps the prefix, and one
# by units of end pairs keeps the unit it stopped in; both end with the uninterrupted grid.
for grid in tails end-pairs; do
  run count 6x6 --all-starts --method frontier --grid "$grid" --json --progress 0
  expect_exit 0
  cp "$TMP/out" "$TMP/whole-$grid.json"
  D="$TMP/grid-$grid"
  run count 6x6 --all-starts --method frontier --grid "$grid" --run-dir "$D" --progress 0 \
    --time-limit 0.3 --json
  if [ "$CODE" -eq 3 ]; then
    CHECKS=$((CHECKS + 1))
    python3 - "$TMP/out" "$D" <<'PY' || fail "the kept sweep has no checkpoint"
import json, os, sys
j = json.load(open(sys.argv[1]))
k = j["kept"]
assert k is not None, j
assert k["step"] is None or os.path.exists(os.path.join(sys.argv[2], f"checkpoint-{k['sweep']}.bin")), k
PY
  fi
  run count --run-dir "$D" --resume --progress 0 --json
  expect_exit 0
  CHECKS=$((CHECKS + 1))
  python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]));
assert a["tours_by_start"] == b["tours_by_start"] and a["tours"] == b["tours"]' \
    "$TMP/out" "$TMP/whole-$grid.json" || fail "the resumed grid ($grid) differs"
done

# ---- 1. Counts in merge --json are numbers, as in count --json -------------------------
for i in 0 1; do
  run count 3x40 --all-starts --grid end-pairs --shard-index $i --shard-count 2 \
    --run-dir "$TMP/w$i" --progress 0
  expect_exit 0
done
run merge "$TMP/w0" "$TMP/w1" --out "$TMP/wide" --json
expect_exit 0
expect_json tours 177462256507412885856  # past 2^64
CHECKS=$((CHECKS + 1)); grep -q '#exact' "$TMP/out" && fail "an internal prefix in merge --json"
run count --run-dir "$TMP/wide" --resume --json
expect_json tours 177462256507412885856
expect_json count_bits 128  # the counts printed, not the units', set the width

# ---- 3. merge is atomic: built beside its place, renamed there whole --------------------
mkdir -p "$TMP/again.tmp" && echo junk >"$TMP/again.tmp/manifest.json"  # a killed merge's
run merge "$TMP/w0" "$TMP/w1" --out "$TMP/again"
expect_exit 0
expect_out '^merged +2 shards of a frontier count'
CHECKS=$((CHECKS + 1)); [ ! -e "$TMP/again.tmp" ] || fail "the killed merge's folder is left"
run verify "$TMP/again"; expect_exit 0
run merge "$TMP/w0" "$TMP/w1" --out "$TMP/again"
expect_usage_error 'already holds a run: merge writes a new run directory: choose another --out'

# ---- 8. One square: shard 0 holds its tour, no other shard -----------------------------
for i in 0 1; do
  run count 1x1 --all-starts --grid end-pairs --shard-index $i --shard-count 2 \
    --run-dir "$TMP/one$i" --json --progress 0
  expect_json tours $((1 - i))
done
run merge "$TMP/one0" "$TMP/one1" --out "$TMP/one" --json
expect_json tours 1

# ---- 7. verify, --resume and merge refuse the same things ------------------------------
# refused DIR REGEX : verify (exit 4), count --resume (exit 2) and merge with the other shard
# (exit 2) all refuse DIR, saying REGEX.
refused() {
  run verify "$1"; expect_exit 4; expect_out "$2"
  run count --run-dir "$1" --resume --progress 0; expect_usage_error "$2"
  if [ -n "${3:-}" ]; then
    run merge "$1" "$3" --out "$TMP/never"; expect_usage_error "$2"
  fi
}
fresh() {  # fresh NAME : shard 0 of 2 of 6x6 by end pairs, stopped after a few of its units
  rm -rf "$TMP/$1"
  run count 6x6 --all-starts --grid end-pairs --shard-index 0 --shard-count 2 --run-dir "$TMP/$1" \
    --progress 0 --time-limit 0.1
}
run count 6x6 --all-starts --grid end-pairs --shard-index 1 --shard-count 2 --run-dir "$TMP/p1" \
  --progress 0
fresh p0
$FORGE manifest "$TMP/p0" frontier.sweeps_planned=70 'frontier.finished=[{"sweep": 68, "count": "0"}]'
refused "$TMP/p0" 'plans 70 sweeps, and 6x6 open, all starts by end pairs has 45' "$TMP/p1"
fresh p0
$FORGE manifest "$TMP/p0" 'frontier.finished=[{"sweep": 1, "count": "12"}]'
refused "$TMP/p0" "finishes sweep 1, which is not in the shard's deal" "$TMP/p1"
fresh p0
$FORGE finished "$TMP/p0" 3 12
refused "$TMP/p0" "sweeps.tsv: finishes sweep 3, which is not in the run's plan or the shard's deal" "$TMP/p1"
fresh p0
sed -i 's/"board": "6x6"/"board": "9x9"/' "$TMP/p0/manifest.json"
refused "$TMP/p0" 'board "9x9" is not its rows x cols \(6x6\)' "$TMP/p1"
fresh p0
mkdir "$TMP/p0/rank-2"
refused "$TMP/p0" 'rank-2: is not a file a frontier run of one process holds' "$TMP/p1"
# Checkpoints: odd names, a sweep outside the plan, and forged headers (checksums fixed).
D="$TMP/cp"
run count 6x20 --closed --run-dir "$D" --progress 0 --time-limit 0.5
CHECKS=$((CHECKS + 1)); [ -s "$D/checkpoint-0.bin" ] || fail "no checkpoint to forge with"
cp "$D/checkpoint-0.bin" "$TMP/good.bin"
for name in checkpoint-00.bin checkpoint--1.bin checkpoint-0a.bin; do
  mv "$D/checkpoint-0.bin" "$D/$name"
  refused "$D" "$name: is not a file a frontier run of one process holds"
  mv "$D/$name" "$D/checkpoint-0.bin"
done
cp "$TMP/good.bin" "$D/checkpoint-5.bin"
refused "$D" "checkpoint-5.bin: is a checkpoint of sweep 5, which is not in the run's plan"
rm "$D/checkpoint-5.bin"
$FORGE step "$D/checkpoint-0.bin" 1
refused "$D" "checkpoint-0.bin: is a checkpoint that no line of sweeps.tsv records"
cp "$TMP/good.bin" "$D/checkpoint-0.bin"
run verify "$D"; expect_exit 0
# A checkpoint of another sweep, its sweep word changed to its new name's: all starts by tails.
D="$TMP/tails"
run count 6x6 --all-starts --method frontier --grid tails --run-dir "$D" --progress 0 --checkpoint 0 \
  --time-limit 0.6
for f in "$D"/checkpoint-*.bin; do
  from=$(basename "$f" .bin); from=${from#checkpoint-}
  to=$(( (from + 1) % 7 ))
  [ -e "$D/checkpoint-$to.bin" ] && continue
  grep -q "^finished	$to	" "$D/sweeps.tsv" 2>/dev/null && continue
  mv "$f" "$D/checkpoint-$to.bin"
  $FORGE sweep "$D/checkpoint-$to.bin" "$to"
  refused "$D" "checkpoint-$to.bin: is a checkpoint that no line of sweeps.tsv records"
  break
done
# A checkpoint the journal does not record (of another run of the same job, say).
D="$TMP/cp"
mv "$D/sweeps.tsv" "$TMP/sweeps.tsv"
refused "$D" "checkpoint-0.bin: is a checkpoint that no line of sweeps.tsv records"
mv "$TMP/sweeps.tsv" "$D/sweeps.tsv"
run count --run-dir "$D" --resume --progress 0 --json
expect_exit 0
expect_json closed_cycles "$WHOLE"

# ---- Reading a finished run writes nothing --------------------------------------------
rm -f "$D/.lock"
before=$(cd "$D" && ls -A && md5sum manifest.json)
run count --run-dir "$D" --resume --progress 0
expect_exit 0
CHECKS=$((CHECKS + 1))
[ "$(cd "$D" && ls -A && md5sum manifest.json)" = "$before" ] || fail "reading a finished run wrote to it"

# ---- 5. A switch takes no value --------------------------------------------------------
for opt in closed=false closed=0 json=false all-starts=false total-only=false \
  up-to-symmetry=false; do
  run count 6x6 --start a1 "--$opt"
  expect_usage_error "--${opt%%=*} is a switch and takes no value"
done
run count 5x5 --start a1 --run-dir "$TMP/r5" --resume=false
expect_usage_error '--resume is a switch and takes no value'
run count 5x5 --start a1 --closed=true --json  # as =false is: a switch takes no value
expect_usage_error '--closed is a switch and takes no value' 

# ---- 6. Budgets ------------------------------------------------------------------------
SLURM_MEM_PER_NODE=3 run count 6x7 --closed --progress 0
expect_usage_error 'SLURM_MEM_PER_NODE leaves no memory for the classes'
SLURM_MEM_PER_NODE=lots run count 6x7 --closed --progress 0 --json
expect_exit 0
expect_err "SLURM_MEM_PER_NODE='lots' is not a size in megabytes"
SLURM_MEM_PER_CPU=-5 run count 6x7 --closed --progress 0 --json
expect_exit 0
expect_err "SLURM_MEM_PER_CPU='-5' is not a size in megabytes"
# Under an address-space limit the default budget leaves room for the threads (it died "out
# of memory" in 3 of 12 runs).
if ! under_asan; then
  for k in $(seq 10); do
    ( ulimit -v 115000; "$KT" count 6x10 --closed --progress 0 >"$TMP/out" 2>"$TMP/err" )
    CODE=$?
    LAST="count 6x10 --closed under ulimit -v 115000 (run $k)"
    expect_exit 0
  done
fi

# ---- 4. end-pair-tables refuses before it runs or writes -------------------------------
fresh p0
before=$(ls -A "$TMP/p0")
"$TABLES" "$TMP/p0" --out "$TMP/tables" --bin "$KT" >"$TMP/out" 2>"$TMP/err"; CODE=$?
LAST="end-pair-tables (an unfinished shard)"
expect_exit 1
expect_err "is shard 0 of 2: merge every shard first"
run merge "$TMP/p0" "$TMP/p1" --out "$TMP/part"
expect_exit 3
before=$(ls -A "$TMP/part" && md5sum "$TMP/part/manifest.json")
"$TABLES" "$TMP/part" --out "$TMP/tables" --bin "$KT" >"$TMP/out" 2>"$TMP/err"; CODE=$?
LAST="end-pair-tables (an incomplete merge)"
expect_exit 1
expect_err 'incomplete: [0-9]+ of its 45 units are not counted'
CHECKS=$((CHECKS + 1))
[ "$(ls -A "$TMP/part" && md5sum "$TMP/part/manifest.json")" = "$before" ] || fail "it wrote into its input"
CHECKS=$((CHECKS + 1)); [ ! -e "$TMP/tables" ] || fail "it wrote tables of an incomplete run"
for args in "--bin $TMP/nowhere" "--out $TMP/wide/inside" "--out $TMP/wide/manifest.json"; do
  "$TABLES" "$TMP/wide" --out "$TMP/t2" --bin "$KT" $args >"$TMP/out" 2>"$TMP/err"; CODE=$?
  LAST="end-pair-tables $args"
  expect_exit 1
  CHECKS=$((CHECKS + 1)); [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "not one line"
done

# ---- 9. Messages -----------------------------------------------------------------------
KNIGHTSTOUR_GRID=tails run count 6x6 --all-starts --shard-index 0 --shard-count 2 --method frontier
expect_usage_error 'unset KNIGHTSTOUR_GRID or set it to end-pairs'
run count 5x5 --start a1 --end e5 --max-tours 10
expect_usage_error '--max-tours caps the tours found to any end'
run count 6x7 --closed --spill-dir ''
expect_usage_error '--spill-dir needs a folder'
run count --run-dir "$TMP/wide" --resume --closed
expect_usage_error "resume it as it is with: knightstour count --run-dir $TMP/wide --resume"

finish
