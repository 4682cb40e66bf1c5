#!/usr/bin/env bash
# knightstour count: printed counts, JSON, grids, caps, signals.
. "$(dirname "$0")/lib.sh"

run count 5x5 --start a1
expect_exit 0
expect_out '^tours +304 '
expect_out '^status +complete'

run count 6x6 --start a1
expect_exit 0
expect_out '^tours +524,486 '
expect_out '^closed +19,724 of them are closed.*9,862 closed cycles'
expect_out '^nodes +[0-9,]+ searched'
expect_out '^threads +[0-9]+;'
expect_out '^time +[0-9.]+ s'

# Essentially different tours (symmetry_classes checks every board against kt.canonical).
run count 5x5 --all-starts --up-to-symmetry
expect_exit 0
expect_out '^symmetry +216 tours up to the board.s 8 symmetries'
expect_out '^ +112 also up to reversal.*; 64 tours are their own image read backwards'
expect_out '^ +0 closed cycles up to the board.s 8 symmetries'
run count 6x6 --closed --up-to-symmetry
expect_exit 0
expect_out '^symmetry +9,862 tours up to the 2 symmetries of the board keeping a1 in place'
expect_out '^ +1,245 closed cycles up to'
run count 6x7 --start a1 --up-to-symmetry --time-limit 0.2 --progress 0
expect_exit 3
expect_out '^symmetry +not counted: classes need every tour, and the run stopped early'
run count 6x6 --start 0,0 --closed
expect_exit 0
expect_out '^tours +19,724 '
expect_out '^cycles +9,862 closed cycles'

run count 6x6 --prefix a1,b3
expect_exit 0
expect_out '^tours +262,243 '

run count 6x6 --start a1 --json
expect_exit 0
expect_json tours 524486
expect_json closed_tours 19724
expect_json closed_cycles 9862
expect_json status complete
expect_json lower_bound false

run count 5x5 --all-starts
expect_exit 0
expect_out '^tours +1,728 '
expect_out '^5 \| 304 +0 +56 +0 +304$'
expect_out '^3 \|  56 +0 +64 +0 +56$'
expect_out '^1 \| 304 +0 +56 +0 +304$'
expect_out '^ +a +b +c +d +e$'

run count 6x6 --all-starts --json
expect_exit 0
expect_json tours 6637920
expect_json closed_cycles 9862

run count 3x4 --all-starts --json
expect_json tours 16
run count 4x5 --all-starts --json
expect_json tours 164
run count 3x10 --all-starts --closed --json
expect_json closed_cycles 16
run count 5x6 --all-starts --closed --json
expect_json closed_cycles 8
run count 5x5 --start b1
expect_exit 0
expect_out '^tours +0 '

# Same totals for any threads and split depth.
for t in 1 2 3; do
  for d in 0 3 7; do
    run count 6x6 --start a1 --threads $t --split-depth $d --json
    expect_json tours 524486
    expect_json split_depth $d
  done
done
# The default thread count is the CPUs this process may use (as Slurm or taskset set them).
unset SLURM_CPUS_PER_TASK
if command -v taskset >/dev/null; then
  "$KT" count 5x5 --start a1 --json >"$TMP/out" 2>"$TMP/err"; CODE=$?; LAST="count (all CPUs)"
  expect_json threads "$(nproc)"
  taskset -c 0 "$KT" count 5x5 --start a1 --json >"$TMP/out" 2>"$TMP/err"; CODE=$?
  LAST="taskset -c 0 knightstour count"; expect_exit 0; expect_json threads 1
fi
# Under Slurm without task affinity the mask is the whole node: --cpus-per-task decides.
SLURM_CPUS_PER_TASK=1 "$KT" count 5x5 --start a1 --json >"$TMP/out" 2>"$TMP/err"; CODE=$?
LAST="SLURM_CPUS_PER_TASK=1 knightstour count"; expect_exit 0; expect_json threads 1
SLURM_CPUS_PER_TASK=999 "$KT" count 5x5 --start a1 --json >"$TMP/out" 2>"$TMP/err"; CODE=$?
LAST="SLURM_CPUS_PER_TASK=999 knightstour count"; expect_exit 0; expect_json threads "$(nproc)"
SLURM_CPUS_PER_TASK=1 "$KT" count 5x5 --start a1 --threads 2 --json >"$TMP/out" 2>"$TMP/err"; CODE=$?
LAST="SLURM_CPUS_PER_TASK=1 knightstour count --threads 2"; expect_exit 0; expect_json threads 2
run count 5x5 --start a1 --algorithm naive --json
expect_json tours 304

# Caps: exit 3 and counts marked as lower bounds, never as the total.
run count 7x7 --start a1 --max-nodes 2000000
expect_exit 3
expect_out 'INCOMPLETE: node cap'
expect_out 'LOWER BOUND'
expect_out '^tours +>= '
run count 7x7 --start a1 --max-nodes 2000000 --json
expect_exit 3
expect_json status incomplete
expect_json lower_bound true
expect_json closed_cycles null
run count 7x7 --start a1 --method dfs --time-limit 0.3
expect_exit 3
expect_out 'time limit'

# Shards add up to the whole.
total=0
for i in 0 1 2; do
  run count 6x6 --start a1 --split-depth 6 --shard-index $i --shard-count 3 --json
  expect_exit 0
  total=$((total + $(json_get tours)))
done
CHECKS=$((CHECKS + 1)); [ "$total" -eq 524486 ] || { LAST="shards"; fail "shards sum to $total"; }

# SIGINT and SIGTERM stop a long run within a fraction of a second, exit 3, lower bounds.
for sig in INT TERM; do
  "$KT" count 7x7 --start a1 --method dfs --progress 0 >"$TMP/out" 2>"$TMP/err" &
  pid=$!
  sleep 0.5
  kill -s $sig $pid
  t0=$(date +%s%N)
  wait $pid
  CODE=$?
  LAST="count 7x7 interrupted by SIG$sig"
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  expect_exit 3
  expect_out 'interrupted by a signal'
  CHECKS=$((CHECKS + 1)); [ $ms -lt $((1000 * SLOWDOWN)) ] || fail "took $ms ms to stop"
done

# Progress lines go to stderr.
run count 7x7 --start a1 --method dfs --time-limit 1.2 --progress 0.5
expect_err 'info: prefixes [0-9,]+/[0-9,]+, (~[0-9]+\.[0-9]% of ~.* nodes|past the estimated ~.* nodes|total not estimated yet), tours .* \(mirror images included\), .* nodes/s, elapsed .*ETA (~|unknown)'
SPDLOG_LEVEL=warn run count 7x7 --start a1 --method dfs --time-limit 1.2 --progress 0.5
CHECKS=$((CHECKS + 1)); ! grep -q "info:" "$TMP/err" || fail "SPDLOG_LEVEL=warn should hide progress"

# estimate: a sampled size; deterministic for a seed, near the exact values.
run estimate 6x6 --all-starts --walks 400000 --calibrate 0 --json
expect_exit 0
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert abs(j["tours"]-6637920) < 4*j["tours_error"]+1 and j["tours_error"] < 0.15*j["tours"], j' "$TMP/out" \
  || { LAST="estimate"; fail "estimate far from 6,637,920"; }
first=$(cat "$TMP/out")
run estimate 6x6 --all-starts --walks 400000 --calibrate 0 --json
CHECKS=$((CHECKS + 1)); [ "$first" = "$(cat "$TMP/out")" ] || { LAST="estimate seed"; fail "not deterministic"; }
run estimate 7x7 --start a1 --walks 200000 --calibrate 0.3
expect_exit 0
expect_out '^tours +~[0-9.]+e\+10'
expect_out '^time +~'
run estimate 5x5 --start a1
expect_out 'exact +the whole count ran during calibration: 304 tours'
run estimate 5x5 --start a1 --walks 0; expect_usage_error 'walks'
# Every shard's cost: the shards' nodes add up to about the whole job's.
run estimate 6x6 --all-starts --shard-count 4 --cores-per-shard 8 --walks 400000 --calibrate 0.3
expect_exit 0
expect_out '^shards +4 x 8 cores: ~'
expect_out '^wall +~'
expect_out '^cost +~[0-9.e+-]+ core-hours'
CHECKS=$((CHECKS + 1))
python3 - "$TMP/out" <<'PYEOF' || { LAST="estimate shards"; fail "the shards' nodes do not add up to the job's"; }
import re, sys
text = open(sys.argv[1]).read()
whole = float(re.search(r"^nodes +~([0-9.e+,]+)", text, re.M).group(1).replace(",", ""))
mean = float(re.search(r"^shards +4 x 8 cores: ~([0-9.e+,]+) nodes", text, re.M).group(1).replace(",", ""))
assert 0.75 < 4 * mean / whole < 1.25, (whole, mean)
PYEOF
run estimate 6x6 --all-starts --cores-per-shard 8; expect_usage_error 'shard-count'
run estimate 6x6 --all-starts --shard-count 4 --shard-index 1 --cores-per-shard 8; expect_usage_error 'no --shard-index'

# estimate with the method count would choose: the frontier method's is a short count, then
# projected; --walks are the enumerator's.
run estimate 6x7 --closed --progress 0
expect_exit 0
expect_out '^method +frontier \(faster for closed'
expect_out 'exact +the whole count ran during calibration: 2,135,276 tours, 1,067,638 closed cycles'
run estimate 7x10 --closed --calibrate 1 --progress 0 --json
expect_exit 0
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["method"]=="frontier" and not j["exact"] and j["classes_left"]>1e7 and j["seconds"]>1 and j["peak_classes"]>1e6 and j["seconds_per_class"]>0 and j["calibrated_in_two_parts"] is False and j["stopped_at_memory_budget"] is False, j' "$TMP/out" \
  || { LAST="estimate 7x10"; fail "no projection"; }
# An open job runs its closed sweep first (7x8's takes seconds): a calibration that ends in it
# calibrates the open sweeps alone as well, and the projection adds the two parts, so it
# is at least as long as both calibrations.
run estimate 7x8 --start a1 --calibrate 0.5 --progress 0 --json
expect_exit 0
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["calibrated_in_two_parts"] is True and not j["exact"] and j["classes_expanded"]>0 and j["seconds"]>=1.0 and j["peak_classes"]>0, j' "$TMP/out" \
  || { LAST="estimate 7x8 a1"; fail "not projected in two parts"; }
run estimate 7x8 --start a1 --calibrate 0.5 --progress 0
expect_out '^method +frontier .*estimated from a 0.5 s count in each of two parts'
expect_out '^parts +the calibration ended in the closed sweep, which an open job runs first'
expect_out '^time +~'
# A grid the count would take by the pass back over one sweep: the estimate says so (its
# kept generations are not in the projection); a grid by pinned tails gets no such line.
run estimate 5x30 --all-starts --calibrate 0.5 --progress 0
expect_out '^grid +by a pass back over the unpinned sweep'
expect_out '^ +ranks, which this projection does not cover\): docs/frontier.md'
# Its classes: the sweep's and the pass's, which covers the sweep from the middle column on (it
# was projected as a whole sweep: 41.6 M against 33.4 M). The projection is close once the
# calibration has seen a third of the classes (early in the sweep, on a busy machine, it
# said 22 M), so the calibration is moved until it has, and has not run the whole count. Not
# under ASan, whose calibration sees too little of the sweep.
if ! under_asan; then
  run count 5x30 --all-starts --method frontier --progress 0 --json
  counted=$(json_get classes_expanded)
  calibrate=$(python3 -c "print(round($(json_get seconds) * 0.5, 2))")
  verdict=""
  for try in 1 2 3 4 5 6 7 8; do
    run estimate 5x30 --all-starts --calibrate "$calibrate" --progress 0 --json
    verdict=$(python3 -c '
import json, sys
j = json.load(open(sys.argv[1])); counted = int(sys.argv[2])
r = (j["classes_expanded"] + j["classes_left"]) / counted
print("after" if j["exact"] else "early" if j["classes_expanded"] < counted / 3
      else "close" if 0.9 < r < 1.1 else "%.2f of the classes counted" % r)' "$TMP/out" "$counted")
    case "$verdict" in
      early) calibrate=$(python3 -c "print(round($calibrate * 1.5, 2))") ;;
      after) calibrate=$(python3 -c "print(round($calibrate * 0.8, 2))") ;;
      *) break ;;
    esac
  done
  CHECKS=$((CHECKS + 1))
  [ "$verdict" = close ] || { LAST="estimate 5x30 --all-starts"; fail "classes projected: $verdict ($counted counted)"; }
fi
# A calibration that ends in the pass counts the classes the pass expanded so far and projects
# the largest generation the sweep held (it said ~0: the pass makes none). The calibration is
# moved until it ends in the pass, starting from 0.75 of the count's own time (the pass is its
# second half); the sweep before the pass is --total-only's.
run count 6x7 --all-starts --method frontier --progress 0 --json
calibrate=$(python3 -c "print(round($(json_get seconds) * 0.75, 2))")
peak=$(json_get peak_classes)
run count 6x7 --all-starts --total-only --method frontier --progress 0 --json
swept=$(json_get classes_expanded)
verdict=""
for try in 1 2 3 4 5 6 7 8; do
  run estimate 6x7 --all-starts --calibrate "$calibrate" --progress 0 --json
  verdict=$(python3 -c '
import json, sys
j = json.load(open(sys.argv[1])); swept, peak = int(sys.argv[2]), int(sys.argv[3])
if j["exact"]: print("after")
elif j["classes_expanded"] <= swept: print("before")
elif j["peak_classes"] < peak: print("largest generation below the one held: %s" % j["peak_classes"])
else: print("in the pass")' "$TMP/out" "$swept" "$peak")
  case "$verdict" in
    before) calibrate=$(python3 -c "print(round($calibrate * 1.25, 2))") ;;
    after) calibrate=$(python3 -c "print(round($calibrate * 0.8, 2))") ;;
    *) break ;;
  esac
done
CHECKS=$((CHECKS + 1))
[ "$verdict" = "in the pass" ] || { LAST="estimate 6x7 --all-starts"; fail "calibrated inside the pass: $verdict"; }
run estimate 7x7 --all-starts --calibrate 0.3 --progress 0
expect_out '^time +~'
# The plan count would run (frontier_plan.hpp).
expect_out '^budget +[0-9.]+ [KMGT]iB for the classes'
expect_out '^sweeps +7 by pinned tails or 3 by a pass back over one sweep'  # 6 classes of start squares
CHECKS=$((CHECKS + 1))
! grep -q '^grid' "$TMP/out" || { LAST="estimate 7x7 --all-starts"; fail "a grid line for pinned tails"; }
# Past count's memory budget, the estimate says what spilling would need, and only then (two
# runs project alike only roughly: a projection near the budget is not checked).
run estimate 8x8 --closed --calibrate 1 --progress 0 --json
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["memory_budget"]>0 and j["past_memory_budget"]==(j["peak_class_bytes"]>j["memory_budget"]), j' "$TMP/out" \
  || { LAST="estimate memory"; fail "past_memory_budget disagrees with the figures"; }
past=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); r=j["peak_class_bytes"]/j["memory_budget"]; print("yes" if r>2 else "no" if r<0.5 else "near")' "$TMP/out")
run estimate 8x8 --closed --calibrate 1 --progress 0
if [ "$past" = yes ]; then
  expect_out '^memory +past count.s default budget of [0-9.]+ GiB'
elif [ "$past" = no ]; then
  CHECKS=$((CHECKS + 1))
  ! grep -Eq '^memory +past' "$TMP/out" || { LAST="estimate memory"; fail "a memory line within the budget"; }
fi
# The calibration stops at the budget instead of spilling: an estimate writes nothing to disk,
# so a $TMPDIR it cannot write to is no matter (a spilling calibration failed there). The
# budget stops it within 0.1 s in a release build; the long --calibrate leaves a Debug build
# under load the time to reach it (with 100M and 2 s, `scripts/test dev` failed here).
TMPDIR="$TMP/no-such-dir" run estimate 7x10 --closed --calibrate 20 --memory 30M --progress 0 --json
expect_exit 0
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["stopped_at_memory_budget"] is True and j["memory_budget"]==30*2**20 and j["past_memory_budget"] is True and j["classes_left"]>1e7 and j["peak_classes"]>1e6, j' "$TMP/out" \
  || { LAST="estimate --memory"; fail "not stopped at the budget, or no projection"; }
TMPDIR="$TMP/no-such-dir" run estimate 7x10 --closed --calibrate 20 --memory 30M --progress 0
expect_exit 0
expect_out '^stopped +the calibration reached the memory budget of 0.0293 GiB after [0-9.]+ s'
expect_out '^memory +past the budget of 0.0293 GiB \(--memory\): the count would spill'
CHECKS=$((CHECKS + 1))
[ ! -e "$TMP/no-such-dir" ] || { LAST="estimate --memory"; fail "the estimate made \$TMPDIR"; }
run estimate 7x10 --closed --calibrate 1 --memory 1K --progress 0
expect_exit 0
expect_out '^projected +nothing: the budget stopped the calibration before it expanded a class \(give more --memory\)'
expect_out 'memory budget of 1.00 KiB after'  # not 9.54e-07 GiB
run estimate 7x7 --start a1 --method dfs --memory 1G; expect_usage_error '--memory'
run estimate 7x10 --closed --calibrate 1 --progress 0
expect_out '^projected +~[0-9.e+]+ classes still to expand; the largest generation ~'
expect_out '^time +~'
run estimate 7x7 --start a1 --walks 1000 --calibrate 0
expect_exit 0
expect_out '^method +dfs \(--walks needs the enumerator\)'
run estimate 7x7 --start a1 --method frontier --walks 1000; expect_usage_error '--walks applies to the enumerator'
run estimate 7x10 --closed --walks 1000; expect_usage_error 'counts at most 64'
run estimate 6x6 --start a1 --method frontier --calibrate 0; expect_usage_error 'calibrate must be above 0'
run estimate 6x6 --all-starts --total-only --calibrate 30 --progress 0
expect_exit 0
expect_out '^board +6x6, all starts, directed open tours \(the total only: --total-only\)'
expect_out '^method +frontier \(--total-only needs the frontier method\)'
expect_out 'exact +the whole count ran during calibration: 6,637,920 tours'
run estimate 10x10 --start a1; expect_usage_error 'too big to count'

# The frontier method: the same numbers, any length, exact past 64 bits.
run count 6x6 --start a1 --method frontier --progress 0
expect_exit 0
expect_out '^method +frontier'
expect_out '^tours +524,486 '
expect_out '^closed +19,724 of them are closed.*9,862 closed cycles'
run count 5x5 --all-starts --method frontier --json
expect_exit 0
expect_json tours 1728
expect_json method frontier
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["tours_by_start"][0]==304 and j["tours_by_start"][12]==64 and j["tours_by_start"][1]==0, j' "$TMP/out" \
  || { LAST="frontier grid"; fail "5x5 grid wrong"; }
run count 3x30 --start a1 --closed --progress 0          # 90 squares: frontier by itself
expect_exit 0
expect_out '^method +frontier'
run count 6x15 --start a1 --closed --json --progress 0   # A175881: cycles past 2^64, exact in JSON
expect_exit 0
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["closed_cycles"]==255967892553030600920 and j["tours"]==2*255967892553030600920, j' "$TMP/out" \
  || { LAST="6x15 closed"; fail "6x15 closed cycles wrong or inexact"; }
run count 8x8 --start a1 --closed --method frontier --time-limit 1 --progress 0
expect_exit 3
expect_out '^status +INCOMPLETE: time limit'
CHECKS=$((CHECKS + 1)); ! grep -Eq '^tours' "$TMP/out" || fail "a stopped frontier run printed a count"
run count 8x8 --start a1 --closed --method frontier --memory 64M --spill-dir none --progress 0
expect_exit 3
expect_out 'INCOMPLETE: memory budget'

# --version names the version, the git commit, the compiler and the build type.
run --version; expect_exit 0; expect_out '^knightstour [0-9]+\.[0-9]+\.[0-9]+ \(git [0-9a-f]{12}|unknown'
expect_out 'build\)$'

# A tour cap says how many tours were found, not only the lower bound of finished prefixes.
run count 6x6 --start a1 --max-tours 1000 --progress 0
expect_exit 3
expect_out '^found +[0-9,]+ tours this session before the cap stopped it'
run count 6x6 --start a1 --max-tours 1000 --progress 0 --json
expect_exit 3
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["tours_found"] >= 1000 and j["stop_reason"] == "max_tours", j' "$TMP/out" \
  || { LAST="tours_found"; fail "tours_found missing or below the cap"; }
# On a terminal progress is one line redrawn in place (led by a bar when it all fits); in a
# pipe, log lines.
if command -v script >/dev/null; then
  LAST="progress on a terminal"
  script -qec "'$KT' count 6x7 --start a1 --method dfs --progress 0.1" "$TMP/tty.log" >/dev/null 2>&1
  CHECKS=$((CHECKS + 1)); grep -aq $'\r\\(\\[[#.]*\\] \\)\\?prefixes [0-9,]*/' "$TMP/tty.log" || fail "no redrawn line: $(head -c 300 "$TMP/tty.log")"
  CHECKS=$((CHECKS + 1)); ! grep -aq 'info: prefixes' "$TMP/tty.log" || fail "log lines on a terminal"
  CHECKS=$((CHECKS + 1)); grep -aq '^tours  *57,968,982' "$TMP/tty.log" || fail "no summary after the bar"
fi
run count 6x7 --start a1 --method dfs --progress 0.1
CHECKS=$((CHECKS + 1)); grep -q 'info: prefixes' "$TMP/err" || { LAST="progress in a pipe"; fail "no log lines in a pipe"; }
finish
