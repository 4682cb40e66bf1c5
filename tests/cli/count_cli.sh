#!/usr/bin/env bash
# knightstour count: printed counts, JSON, grids, caps, signals.
. "$(dirname "$0")/lib.sh"

# --csv: the count's most detailed table, named by the three counts (docs/formats.md).
run count 5x5 --all-starts --method dfs --csv "$TMP/starts.csv"
expect_exit 0
CHECKS=$((CHECKS + 1))
[ "$(head -1 "$TMP/starts.csv")" = "square,rank,file,tours_directed,closed_tours_directed" ] &&
  grep -qx 'c3,3,c,64,0' "$TMP/starts.csv" && [ "$(wc -l <"$TMP/starts.csv")" = 26 ] ||
  fail "starts.csv: $(head -c 200 "$TMP/starts.csv")"
run count 5x5 --all-starts --grid end-pairs --csv "$TMP/pairs.csv"
expect_exit 0
CHECKS=$((CHECKS + 1))
python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == 625 and sum(int(r["tours_directed"]) for r in rows) == 1728, len(rows)
assert open(sys.argv[1], "rb").read().count(b"\r") == 0, "CRLF"' "$TMP/pairs.csv" || fail "pairs.csv"
run count 6x6 --start a1 --csv "$TMP/one.csv"
CHECKS=$((CHECKS + 1))
[ "$(cat "$TMP/one.csv")" = "$(printf 'board,start,end,tours_directed,tours_undirected,closed_tours_directed,closed_cycles\n6x6,a1,,524486,,19724,9862')" ] ||
  fail "one.csv: $(cat "$TMP/one.csv")"
run count 6x6 --start a1 --max-nodes 1000 --csv "$TMP/stopped.csv"
expect_exit 3; expect_err 'csv .*stopped.csv not written: the count did not complete'
CHECKS=$((CHECKS + 1)); [ ! -e "$TMP/stopped.csv" ] || fail "a stopped count wrote its CSV"
run count 6x6 --start a1 --csv "$TMP/nowhere/x.csv"; expect_usage_error 'no such directory'

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
expect_json tours_directed 524486
expect_json closed_tours_directed 19724
expect_json closed_cycles 9862
expect_json tours 524486        # the names before 0.1 named the three counts
expect_json closed_tours 19724
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
  limit=$(awk -v s="$SLOWDOWN" -v b="$(busy)" 'BEGIN { printf "%d", 1000 * s * b }')
  CHECKS=$((CHECKS + 1)); [ $ms -lt "$limit" ] || fail "took $ms ms to stop (limit $limit ms)"
done

# Progress lines go to stderr.
run count 7x7 --start a1 --method dfs --time-limit 1.2 --progress 0.5
expect_err 'info: prefixes [0-9,]+/[0-9,]+, (~[0-9]+\.[0-9]% of ~.* nodes|past the estimated ~.* nodes|total not estimated yet), tours .* \(mirror images included\), .* nodes/s, elapsed .*ETA (~|unknown)'
SPDLOG_LEVEL=warn run count 7x7 --start a1 --method dfs --time-limit 1.2 --progress 0.5
CHECKS=$((CHECKS + 1)); ! grep -q "info:" "$TMP/err" || fail "SPDLOG_LEVEL=warn should hide progress"

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
