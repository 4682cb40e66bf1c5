#!/usr/bin/env bash
# count by the frontier method: spilling past --memory, run directories (the same kind as the
# enumerator's: lock, manifest.json, checkpoints), resume, and every way a damaged or foreign
# directory could have given a wrong count (each refused with one line).
. "$(dirname "$0")/lib.sh"

CYCLES_6x10=239,187,240,144   # closed cycles of 6x10 (OEIS A175881)

# Past its budget a sweep spills to disk and gives the same count; without spill files it
# slices the steps that may not fit (a slice of the generation expanded at a time) and stays in
# memory; in less still, with --spill-dir none it stops.
run count 6x8 --closed --start a1 --method frontier --memory 3M --progress 0
expect_exit 0
expect_out "^cycles +55,488,142 "
expect_out '^disk +[0-9.]+ GiB of classes and successors spilled; up to [0-9]+ ranges a step'
expect_out '^slices +[0-9]+ steps? built a slice of the generation at a time to fit the budget \([0-9]+ setting the current generation aside on disk; [0-9]+ built in ranges after running out\)'
run count 6x8 --closed --start a1 --method frontier --memory 5M --spill-dir none --progress 0 --json
expect_exit 0
expect_json closed_cycles 55488142
expect_json spilled_bytes 0
# Sliced steps, none set aside: without spill files there is nowhere to set it.
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["steps_sliced"]; assert s["steps"] > 0 and s["set_aside"] == 0 and s["given_up"] == 0, s' "$TMP/out" \
  || fail "6x8 closed in 5M without spill files: steps_sliced $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["steps_sliced"])' "$TMP/out")"
# The same by strategy: every one of 6x8's 48 steps at once or sliced, none in ranges.
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["steps_by_strategy"]; assert s["sliced"] > 0 and s["at_once"] + s["sliced"] == 48 and sum(s.values()) == 48, s' "$TMP/out" \
  || fail "6x8 closed in 5M without spill files: steps_by_strategy $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["steps_by_strategy"])' "$TMP/out")"
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["widest_step_bytes"]["partial"] > 0' "$TMP/out" \
  || fail "6x8 closed in 5M without spill files: no sliced step"
# The budget is what the process holds: its anonymous memory stays within the budget plus a
# few MiB of program (spilled parts once kept their vectors' capacity: 0.04 GiB here).
run count 6x10 --closed --method frontier --memory 16M --progress 0 --json
expect_exit 0
expect_json closed_cycles 239187240144
# (Not under ASan: its shadow memory and the quarantine of freed blocks are anonymous
# memory too, some hundreds of MiB of it.)
if ! under_asan; then
  CHECKS=$((CHECKS + 1))
  [ "$(json_get peak_anonymous_bytes)" -le $((16 * 1048576 + 8 * 1048576)) ] \
    || fail "6x10 with --memory 16M held $(json_get peak_anonymous_bytes) bytes of anonymous memory"
fi
# A class takes a few bytes between steps (compact_classes.hpp; 16 before), more during a step.
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; b=json.load(open(sys.argv[1]))["bytes_per_class"]; assert 2 < b["at_rest"] < 6 and b["during_step"] > b["at_rest"], b' "$TMP/out" \
  || fail "6x10 closed: bytes_per_class $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["bytes_per_class"])' "$TMP/out")"
# What held the widest step's bytes: its parts add up to nearly the peak, never more.
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); w=j["widest_step_bytes"]; t=sum(w.values()); assert min(w["current"], w["next"] + w["partial"], w["successors"], w["tables"]) > 0 and 0.9 * j["peak_class_bytes"] <= t <= j["peak_class_bytes"], j' "$TMP/out" \
  || fail "6x10 closed: widest_step_bytes $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["widest_step_bytes"])' "$TMP/out")"
# A complete count projects nothing; a stopped one says what is left, as estimate would.
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["outlook"] is None' "$TMP/out" \
  || fail "6x10 closed: an outlook of a complete count"
run count 7x8 --closed --method frontier --time-limit 1 --progress 0 --json
expect_exit 3
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; o=json.load(open(sys.argv[1]))["outlook"]; assert o["classes_left"] > 0 and o["projected_peak_classes"] > 0, o' "$TMP/out" \
  || fail "7x8 closed stopped: no outlook"
run count 6x8 --closed --start a1 --method frontier --memory 3M --spill-dir none --progress 0
expect_exit 3
expect_out 'INCOMPLETE: memory budget'
expect_out 'Give more --memory'
run count 6x6 --closed --start a1 --method frontier --memory 1K --progress 0
expect_exit 3
expect_out 'too small for one part of a step even when spilling'
expect_out 'budget 1.00 KiB\)'  # not 0.00 GiB
# A budget past the memory there is gets a warning (it no longer keeps the OOM killer away);
# the count itself is unchanged.
run count 6x6 --start a1 --method frontier --memory 4000T --progress 0
expect_exit 0
expect_out '^tours +524,486 '
expect_err 'warning: --memory 4000.00 TiB is more than the .* available now'
# A sweep projected to outgrow the budget and the spill disk together is told so once, before
# the disk fills (7x8 closed peaks at 10.5 M classes, 168 MB); one that fits is not.
mkdir -p "$TMP/tiny"
if mount -t tmpfs -o size=40M tmpfs "$TMP/tiny" 2>/dev/null; then
  run count 7x8 --closed --start a1 --method frontier --memory 16M --spill-dir "$TMP/tiny" --progress 0
  expect_exit 1
  expect_err 'warning: this sweep is projected to peak at .*more than the memory budget \(16.00 MiB\) and the free disk in .* hold together'
  expect_err 'the disk is full'
  CHECKS=$((CHECKS + 1))
  [ "$(grep -c 'projected to peak' "$TMP/err")" -eq 1 ] || fail "the warning should come once"
  umount "$TMP/tiny"
else
  echo "note: cannot mount a tmpfs here (not root?); the spill-room warning is not checked"
fi
run count 6x8 --closed --start a1 --method frontier --memory 8M --spill-dir "$TMP" --progress 0
expect_exit 0
CHECKS=$((CHECKS + 1))
! grep -q 'projected to peak' "$TMP/err" || fail "a count that fits its disk was warned"
# A count past 1024 bits (long boards reach it in a second) is refused with one line, not
# reported as an internal error.
run count 3x600 --start a1 --method frontier --progress 0
expect_usage_error 'the count passes 1024 bits .*too big to count'
run count 6x8 --closed --start a1 --method frontier --memory 8M --spill-dir "$TMP/missing"
expect_exit 1
expect_err "cannot create a directory in $TMP/missing"
# Where no spill folder can be made in $TMPDIR (not named by the user), a count that fits its
# budget runs all the same, with a warning; one that does not stops at the budget and says why.
TMPDIR="$TMP/missing" run count 6x6 --start a1 --method frontier --progress 0
expect_exit 0
expect_out '^tours +524,486 '
expect_err "warning: cannot create a directory in $TMP/missing: .*the count stops at the budget if it needs more"
TMPDIR="$TMP/missing" run count 6x8 --closed --start a1 --method frontier --memory 3M --progress 0
expect_exit 3
expect_out 'INCOMPLETE: memory budget'
expect_out "Spilling was off \\(cannot create a directory in $TMP/missing"
run count 6x6 --start a1 --method frontier --checkpoint 1; expect_usage_error 'needs --run-dir'
run count 6x6 --start a1 --method frontier --run-dir "$TMP/r" --checkpoint soon; expect_usage_error 'checkpoint'
# A closed count is the same from every square: no start needed.
run count 6x6 --closed --method frontier --progress 0
expect_exit 0
expect_out '^cycles +9,862 '

# Both ways of packing class keys (bit_kernel.hpp) give the known counts, and the JSON says
# which one ran; bmi2 where the CPU lacks BMI2, or a name of no kernel, is one line and exit 2.
for kernel in portable bmi2; do
  export KNIGHTSTOUR_BIT_KERNEL=$kernel
  run count 6x6 --start a1 --method frontier --progress 0 --json
  if [ $kernel = bmi2 ] && ! grep -qw bmi2 /proc/cpuinfo; then
    expect_usage_error 'has no BMI2'
    continue
  fi
  expect_exit 0
  expect_json tours 524486
  expect_json bit_kernel $kernel
  run count 6x8 --closed --method frontier --progress 0 --json
  expect_exit 0
  expect_json closed_cycles 55488142   # OEIS A175881
  expect_json bit_kernel $kernel
done
# --total-only: the total over all starts from one unpinned sweep, without the grid: the same
# total as the all-starts job (DESIGN.md); refused with a start and with --closed; a run
# directory of it stops, resumes and verifies; a grid run is not resumed as one.
run count 6x6 --all-starts --total-only --method frontier --progress 0 --json
expect_exit 0
expect_json tours 6637920
expect_json closed_tours 710064   # 9,862 cycles x 2 x 36
expect_json total_only true
expect_json tours_by_start null
expect_json method frontier
expect_json sweeps_planned 2
run count 5x5 --all-starts --total-only --progress 0
expect_exit 0
expect_out '^board +5x5, all starts, directed open tours \(the total only: --total-only\)'
expect_out '^tours +1,728 '
expect_no_grid() { CHECKS=$((CHECKS + 1)); ! grep -q 'tours from each start square' "$TMP/out" || fail "a grid was printed"; }
expect_no_grid
run count 6x6 --start a1 --total-only; expect_usage_error 'total-only goes with --all-starts'
run count 6x6 --total-only; expect_usage_error 'total-only goes with --all-starts'
run count 6x6 --all-starts --closed --total-only; expect_usage_error 'total-only counts open tours'
# --every-length: every length of the row in one job, a line a length in the text and an
# object a length in the JSON (exact integers, the whole board's last); refused with a start,
# for open tours without --total-only, past 9 rows and where a count could pass 1024 bits.
run count 6x8 --closed --every-length --progress 0
expect_exit 0
expect_out '^closed tours of 6 x n over all starts, by length n:'
expect_out '^ +n +directed tours +closed cycles$'
expect_out '^ +6 +710,064 +9,862$'
expect_out '^cycles +55,488,142 '
# Open rows name all three counts, in the table and in the CSV the package reads.
run count 5x8 --all-starts --total-only --every-length --progress 0 --csv "$TMP/row.csv"
expect_exit 0
expect_out '^ +n +directed tours +undirected tours +closed cycles$'
expect_out '^ +8 +36,122,108 +18,061,054 +44,202$'
expect_out '^undirected +18,061,054 undirected tours'
CHECKS=$((CHECKS + 1))
[ "$(head -1 "$TMP/row.csv")" = "rows,length,tours_directed,tours_undirected,closed_cycles" ] &&
  [ "$(sed -n 9p "$TMP/row.csv")" = "5,8,36122108,18061054,44202" ] || fail "row.csv: $(head -c 300 "$TMP/row.csv")"
CHECKS=$((CHECKS + 1))
"$(dirname "$0")/../../scripts/py" -c 'import sys, knightstour as kt; r = kt.Row.from_csv(sys.argv[1]); assert (r.what, r.counts[8]) == ("open", 18061054), r.counts' "$TMP/row.csv" ||
  fail "kt.Row.from_csv does not read count --csv"
run count 5x8 --all-starts --total-only --every-length --progress 0 --json
expect_exit 0
CHECKS=$((CHECKS + 1))
python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["by_length"]
assert [r["length"] for r in rows] == list(range(1, 9)), rows
assert rows[4] == {"length": 5, "tours_directed": 1728, "tours_undirected": 864,
                   "closed_tours_directed": 0, "closed_cycles": 0,
                   "tours": 1728, "closed_tours": 0}, rows[4]  # the last two: names before 0.1
assert rows[5]["closed_cycles"] == 8 and rows[7]["tours_directed"] == 36122108, rows  # A083386 x 2
' "$TMP/out" || fail "5x8 --every-length: by_length $(json_get by_length)"
expect_json sweeps_planned 8   # 2 closed (5x2, 5x4) and 4 open alone, 1 + 1 across the rows
run count 6x8 --closed --json --progress 0
expect_json by_length null
run count 6x8 --closed --start a1 --every-length; expect_usage_error 'every-length counts every start'
run count 6x8 --all-starts --every-length; expect_usage_error 'every-length needs what to count: --closed .*, or --all-starts --total-only'
run count 5x8 --every-length; expect_usage_error 'every-length needs what to count: --closed'
# A row in a run directory: stopped (a time limit) and resumed until complete, each length
# kept as it is counted; the same row as at one go, verify checks it, and a complete run
# prints it again without counting.
run count 6x13 --closed --every-length --progress 0 --json
expect_exit 0
cp "$TMP/out" "$TMP/row-at-once.json"
run count 6x13 --closed --every-length --run-dir "$TMP/row" --checkpoint 0 --time-limit 0.2 \
  --progress 0
expect_exit 3
run status "$TMP/row"  # a row's units are its lengths' counts
expect_out '^run +.*: 6xn closed, all starts, every length n to 13$'
expect_out '^counts +[0-9]+ of 13 finished'
expect_out '^left +[0-9]+ counts?, counted as the sweep across the rows passes their lengths$'
sessions=1 across=0  # sessions, and those that kept the sweep across the rows (sweep 13)
while ! grep -q '"status": "complete"' "$TMP/row/manifest.json" && [ $sessions -lt 60 ]; do
  grep -Eq '^kept .*sweep 13 at step [0-9]+ of 78 in .*checkpoint-13.bin$' "$TMP/out" &&
    across=$((across + 1))
  run count --run-dir "$TMP/row" --resume --checkpoint 0 --time-limit 0.2 --progress 0
  sessions=$((sessions + 1))
done
CHECKS=$((CHECKS + 1)); [ $across -ge 2 ] || fail "6x13: $across of $sessions sessions kept sweep 13"
run count --run-dir "$TMP/row" --resume --progress 0 --json
expect_exit 0
CHECKS=$((CHECKS + 1))
python3 -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["by_length"] == b["by_length"], (a["by_length"], b["by_length"])
assert b["by_length"][12]["closed_cycles"] == 61989683445413228, b["by_length"][12]  # A175881
' "$TMP/row-at-once.json" "$TMP/out" || fail "6x13 resumed $sessions times: $(json_get by_length)"
run verify "$TMP/row"; expect_exit 0
expect_out 'counts follow from the finished sweeps: 9,670,390,617,484,463,568 tours'
# --no-mirror-fold: the same row from classes kept apart from their mirror images (more of
# them), the check run for a new term; refused with a run directory and by the enumerator.
run count 6x13 --closed --every-length --no-mirror-fold --progress 0 --json
expect_exit 0
expect_json mirror_fold false
CHECKS=$((CHECKS + 1))
python3 -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["mirror_fold"] and not b["mirror_fold"], (a["mirror_fold"], b["mirror_fold"])
assert a["by_length"] == b["by_length"], (a["by_length"], b["by_length"])
assert b["classes_expanded"] > 1.4 * a["classes_expanded"], (a["classes_expanded"], b["classes_expanded"])
' "$TMP/row-at-once.json" "$TMP/out" || fail "6x13 unfolded: $(json_get classes_expanded)"
run count 6x13 --closed --every-length --no-mirror-fold --run-dir "$TMP/unfolded"
expect_usage_error 'no-mirror-fold is a check run: it keeps no run directory'
run count 6x6 --start a1 --closed --no-mirror-fold --method dfs
expect_usage_error 'no-mirror-fold applies to the frontier method only'
run count 10x8 --closed --every-length; expect_usage_error "every-length sweeps across the board's 10 rows: at most 9"
run count 8x90 --closed --every-length; expect_usage_error 'every-length 8x90: its counts may need up to 1226 bits .* 8x94.*past the 1024 bits'
# The method is the one the count with the grid gets (so the total alone never costs more):
# the enumerator below 40 squares (6x6: 3.6 times faster than the frontier's one sweep here),
# the frontier method from 40 on; the enumerator prints the total of its count.
for board in 5x5 6x6 5x8; do
  run count $board --all-starts --progress 0 --json
  grid_method=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["method"])' "$TMP/out")
  run count $board --all-starts --total-only --progress 0 --json
  expect_exit 0
  expect_json method "$grid_method"
  expect_json total_only true
  expect_json tours_by_start null
done
run count 6x6 --all-starts --total-only --method dfs --progress 0 --json
expect_exit 0
expect_json method dfs
expect_json tours 6637920
expect_json closed_cycles 9862
expect_json tours_by_start null
run count 6x6 --all-starts --total-only --method dfs --progress 0
expect_out '^board +6x6, all starts, directed open tours \(the total only: --total-only\)'
expect_no_grid
run count 5x8 --all-starts --total-only --shard-count 2 --shard-index 0
expect_usage_error 'total-only with --shard-count: .*leave out --total-only'
D="$TMP/total"
run count 6x7 --all-starts --total-only --run-dir "$D" --checkpoint 0 --time-limit 0.5 --threads 1 --progress 0
expect_exit 3
expect_out 'INCOMPLETE: time limit'
run count --run-dir "$D" --resume --progress 0 --json
expect_exit 0
expect_json tours 779938932   # 6x7 all starts, the enumerator's total
expect_json total_only true
run verify "$D"
expect_exit 0
expect_out 'counts follow from the finished sweeps: 779,938,932 tours'
D="$TMP/grid"
run count 6x7 --all-starts --method frontier --run-dir "$D" --checkpoint 0 --time-limit 0.3 --threads 1 --progress 0
expect_exit 3
run count --run-dir "$D" --resume --total-only
expect_usage_error 'total only vs tours from each square'

# The grid of a long board comes from one unpinned sweep and a pass back over it; with a run
# directory, from pinned tails (which resume): the same grid, and the total OEIS A079137(12)
# gives (36,486,328 undirected paths of 4x12). KNIGHTSTOUR_GRID forces either way; the pass
# is refused on a run directory, as is a value it does not know.
run count 4x12 --all-starts --method frontier --progress 0 --json
expect_exit 0
expect_json tours 72972656
expect_json grid_method "backward pass"
expect_json sweeps 3
cp "$TMP/out" "$TMP/pass.json"
run count 4x12 --all-starts --method frontier --run-dir "$TMP/tails" --progress 0 --json
expect_exit 0
expect_json grid_method "pinned tails"
expect_err 'with a run directory the tours from each square come from 12 pinned sweeps .*, which checkpoint; without one this board would take the faster pass back'
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); sys.exit(a["tours_by_start"]!=b["tours_by_start"])' \
  "$TMP/pass.json" "$TMP/out" || fail "the pass and the tails gave different grids"
KNIGHTSTOUR_GRID=tails run count 4x12 --all-starts --method frontier --progress 0 --json
expect_json grid_method "pinned tails"
run count 4x12 --all-starts --method frontier --progress 0
expect_out '^threads +[0-9]+; 3 sweeps \(the last a pass back over the one before: the tours from each square\)'
# Stopped, at any sweep, a job going by the pass says so, and that a run directory would
# take pinned tails, which checkpoint, where the pass does not.
run count 5x40 --all-starts --method frontier --time-limit 0.05 --progress 0
expect_exit 3
expect_out 'one pinned sweep per class of start squares, which checkpoint; the pass back does not'
run count 5x40 --all-starts --method frontier --time-limit 0.05 --progress 0 --json
expect_json grid_method "backward pass"
KNIGHTSTOUR_GRID=pass run count 4x12 --all-starts --method frontier --run-dir "$TMP/pass-dir"
expect_usage_error 'the backward pass keeps its generations in memory only'
KNIGHTSTOUR_GRID=both run count 4x12 --all-starts --method frontier
expect_usage_error "KNIGHTSTOUR_GRID expects auto, tails, pass or end-pairs, not 'both'"
# When the unpinned sweep's quarter of the budget cannot hold a generation, which goes to
# spill files, the pass is given up for the tails: the same grid, and the line says why.
# (8M: in 16M the pass fits since tight steps combine their successors, combiner.md.)
run count 5x8 --all-starts --method frontier --progress 0 --json
expect_json grid_method "backward pass"
cp "$TMP/out" "$TMP/pass.json"
KNIGHTSTOUR_GRID=pass run count 5x8 --all-starts --method frontier --memory 8M --spill-dir "$TMP" --progress 0 --json
expect_exit 0
expect_json grid_method "pinned tails"
expect_err "the unpinned sweep's generations went to spill files"
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); sys.exit(a["tours_by_start"]!=b["tours_by_start"])' \
  "$TMP/pass.json" "$TMP/out" || fail "the pass and the tails after spilling gave different grids"

export KNIGHTSTOUR_BIT_KERNEL=sse
run count 6x6 --start a1 --method frontier; expect_usage_error "KNIGHTSTOUR_BIT_KERNEL='sse': expected portable or bmi2"
unset KNIGHTSTOUR_BIT_KERNEL

# Nine wide: 9x9 open and 9x10 closed run (no one can finish them here) with a run directory
# and a checkpoint, and stop cleanly at the time limit without a count; 9x9 closed is 0 at once
# (an odd number of squares has no closed tour).
# 3 s, not 1: under a loaded ctest -j2 a second did not always reach the first whole step.
run count 9x9 --start a1 --run-dir "$TMP/nine" --checkpoint 0 --time-limit 3 --progress 0
expect_exit 3
expect_out 'INCOMPLETE: time limit'
expect_out 'sweep 9 squares wide'
CHECKS=$((CHECKS + 1)); ls "$TMP/nine"/checkpoint-*.bin >/dev/null 2>&1 || fail "9x9 left no checkpoint: $(ls "$TMP/nine")"
run count 9x10 --closed --time-limit 1 --progress 0
expect_exit 3
expect_out 'INCOMPLETE: time limit'
run count 9x9 --closed --progress 0
expect_exit 0
expect_out '^cycles +0 '

# A run directory: stopped by its time limit after checkpoints, then resumed to the count.
D="$TMP/run"
run count 6x10 --closed --start a1 --method frontier --run-dir "$D" --checkpoint 0 \
  --time-limit 0.3 --threads 1 --progress 0
expect_exit 3
expect_out "^run dir +$D"
CHECKS=$((CHECKS + 1)); [ -s "$D/checkpoint-0.bin" ] && [ -s "$D/manifest.json" ] \
  || fail "no checkpoint or manifest in $D: $(ls "$D")"
CHECKS=$((CHECKS + 1)); grep -q '"method": "frontier"' "$D/manifest.json" || fail "manifest names no method"
# Options the run does not take, or that ask for another count, are refused with one line.
run count --run-dir "$D" --resume --method bogus; expect_usage_error 'expects auto, dfs or frontier'
run count --run-dir "$D" --resume --method dfs; expect_usage_error 'counted by the frontier method'
run count 6x10 --run-dir "$D" --resume --start b1; expect_usage_error 'another count .*start'
run count 6x9 --closed --start a1 --run-dir "$D" --resume; expect_usage_error 'another count .*board 6x9'
run count --run-dir "$D" --resume --all-starts; expect_usage_error 'another count .*all starts'
run count --run-dir "$D" --resume --split-depth 3; expect_usage_error 'no meaning for the frontier'
run count --run-dir "$D" --resume --progress 0
expect_exit 0
expect_out "^cycles +$CYCLES_6x10 "
expect_err 'resuming sweep 0 at step [0-9]+'
CHECKS=$((CHECKS + 1)); [ -z "$(ls "$D" | grep -v manifest.json)" ] || fail "files left in a finished run: $(ls "$D")"
# The resumed session kept the run's --checkpoint 0 (not the 10-minute default).
CHECKS=$((CHECKS + 1)); grep -Eq '"checkpoint_seconds": 0(\.0)?,' "$D/manifest.json" \
  || fail "resume did not keep --checkpoint: $(grep checkpoint_seconds "$D/manifest.json")"
run count --run-dir "$D" --resume --progress 0     # finished: the count again, no work
expect_exit 0
expect_out "^cycles +$CYCLES_6x10 "
CHECKS=$((CHECKS + 1)); ! grep -q resuming "$TMP/err" || fail "a finished run resumed a sweep"
run count 6x10 --closed --start a1 --method frontier --run-dir "$D"; expect_usage_error 'already holds a run'
run count 6x6 --start a1 --method frontier --run-dir "$TMP/none" --resume; expect_usage_error 'none does not exist'
# Directories of the two methods are not mixed.
run count 5x5 --start a1 --method dfs --run-dir "$D"; expect_usage_error 'already holds a run'
run enumerate 5x5 --start a1 --out "$D"; expect_usage_error 'already holds a run'
run enumerate 5x5 --start a1 --out "$D" --resume; expect_usage_error 'count by the frontier method'

# A checkpoint whose data or header (its step, its sweep, its job) was changed is refused.
# The boards take seconds (7x8 closed ~45 s, 6x10 ~4 s on one thread here), far past the time
# limits: 6x7 closed, used before, finished inside its 0.5 s once the engine got faster, and
# the damage then went to a file that no longer existed.
stopped() {  # stopped DIR ARGS...: a frontier run stopped after some checkpoints
  local dir=$1; shift
  LAST="count $* --method frontier (to be stopped)"
  "$KT" count "$@" --method frontier --run-dir "$dir" --checkpoint 0 --threads 1 --progress 0 \
    >/dev/null 2>&1
  local code=$?
  CHECKS=$((CHECKS + 1))
  [ "$code" -eq 3 ] && [ -s "$dir/checkpoint-0.bin" ] \
    || fail "it did not stop with a checkpoint (exit $code): $(ls "$dir")"
}
flip() { python3 -c 'import sys; p=sys.argv[1]; b=bytearray(open(p,"rb").read()); b[int(sys.argv[2])]^=int(sys.argv[3]); open(p,"wb").write(b)' "$@"; }
for at in "200 90" "16 1" "48 1" "40 4" "56 2"; do   # data; cols; step; sweep; limbs
  D="$TMP/damaged-${at% *}"
  stopped "$D" 7x8 --closed --start a1 --time-limit 0.5
  flip "$D/checkpoint-0.bin" $at
  run count --run-dir "$D" --resume --progress 0
  expect_exit 2
  expect_err 'checkpoint .* is damaged'
  expect_no_out
done
# A checkpoint of another job, copied in, is refused (it names its job).
stopped "$TMP/a" 7x8 --closed --start a1 --time-limit 0.5
stopped "$TMP/b" 6x10 --closed --start a1 --time-limit 0.05
cp "$TMP/a/checkpoint-0.bin" "$TMP/b/checkpoint-0.bin"
run count --run-dir "$TMP/b" --resume --progress 0
expect_exit 2
expect_err 'belongs to another job \(7x8 closed, start a1, not 6x10 closed, start a1\)'
# A dangling link where the checkpoint was is refused, not taken for "no checkpoint".
rm "$TMP/b/checkpoint-0.bin"; ln -s "$TMP/b/gone.bin" "$TMP/b/checkpoint-0.bin"
run count --run-dir "$TMP/b" --resume --progress 0
expect_exit 2
expect_err 'not a regular file'

# The manifest of a frontier run is under a checksum: an edit that would change the answer
# (start, board, all starts, a doubled finished sweep) is refused.
D="$TMP/finished"
run count 6x6 --start a1 --method frontier --run-dir "$D" --progress 0
expect_exit 0
cp "$D/manifest.json" "$TMP/good.json"
edit() { python3 - "$D/manifest.json" "$1" <<'PY'
import json, sys
p, what = sys.argv[1], sys.argv[2]
m = json.load(open(p))
if what == "start": m["prefix"] = ["b1"]
if what == "rows": m["rows"] = 100
if what == "rows-float": m["rows"] = 1e30
if what == "all": m["all_starts"], m["prefix"] = True, []
if what == "double": m["frontier"]["finished"].append(m["frontier"]["finished"][0])
if what == "count": m["frontier"]["counts"]["tours"] = "524487"
json.dump(m, open(p, "w"), indent=2)
PY
}
for what in start rows rows-float all double count; do
  cp "$TMP/good.json" "$D/manifest.json"; edit "$what"
  run count --run-dir "$D" --resume --progress 0
  LAST="$LAST (manifest edit: $what)"
  expect_exit 2; expect_no_out; expect_err 'manifest'
done
cp "$TMP/good.json" "$D/manifest.json"
run count --run-dir "$D" --resume --progress 0
expect_exit 0
expect_out '^tours +524,486 '

# Two processes on one directory: the second is refused at once, the first finishes right.
D="$TMP/locked"
"$KT" count 6x8 --closed --start a1 --method frontier --run-dir "$D" --threads 1 --progress 0 \
  >"$TMP/first" 2>&1 &
pid=$!
for _ in $(seq 1 200); do [ -s "$D/manifest.json" ] && break; sleep 0.02; done
run count --run-dir "$D" --resume --progress 0;  expect_usage_error 'in use by another knightstour process'
run count 6x8 --closed --start a1 --method frontier --run-dir "$D"; expect_usage_error 'in use'
wait "$pid"; CODE=$?; LAST="the first of two processes"
expect_exit 0
CHECKS=$((CHECKS + 1)); grep -Eq '^cycles +55,488,142 ' "$TMP/first" || fail "first run: $(cat "$TMP/first")"

# A failed checkpoint (the file size limit here, as on a full disk) leaves no temp file.
D="$TMP/full"
( trap '' XFSZ; ulimit -f 512; "$KT" count 6x8 --closed --start a1 --method frontier --run-dir "$D" \
    --checkpoint 0 --threads 1 --progress 0 >"$TMP/out" 2>"$TMP/err" ); CODE=$?
LAST="checkpoint past ulimit -f"
expect_exit 1
CHECKS=$((CHECKS + 1)); [ -z "$(ls "$D" | grep '\.tmp$')" ] || fail "a failed checkpoint left $(ls "$D")"

# kill -9 while spilling: the next session clears what the killed one spilled, and a finished
# run holds nothing but its manifest.
D="$TMP/spilled"
"$KT" count 6x8 --closed --start a1 --method frontier --memory 8M --run-dir "$D" --checkpoint 0 \
  --threads 1 --progress 0 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 400); do [ -n "$(ls "$D/spill" 2>/dev/null)" ] && break; sleep 0.01; done
kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
run count --run-dir "$D" --resume --progress 0
expect_exit 0
expect_out "^cycles +55,488,142 "
CHECKS=$((CHECKS + 1)); [ "$(ls -A "$D")" = "$(printf '.lock\nmanifest.json')" ] || fail "left in $D: $(ls -A "$D")"

# kill -9 in the middle of an all-starts job: the finished sweeps are kept, the shared prefix
# keeps its own checkpoint while the pinned sweeps run, and the grid is the grid of an
# uninterrupted run.
run count 6x6 --all-starts --method frontier --json --progress 0
expect_exit 0
cp "$TMP/out" "$TMP/whole.json"
D="$TMP/killed"
"$KT" count 6x6 --all-starts --method frontier --run-dir "$D" --checkpoint 0 --threads 1 \
  --progress 0 >/dev/null 2>&1 &
pid=$!
# (A finished sweep is a line of the sweep journal until the session ends.)
for _ in $(seq 1 400); do
  if grep -q "^finished	2	" "$D/sweeps.tsv" 2>/dev/null; then break; fi
  sleep 0.02
done
kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
LAST="kill -9 mid-sweep"
CHECKS=$((CHECKS + 1)); grep -q "^finished	2	" "$D/sweeps.tsv" || fail "killed before sweep 3 finished: $(cat "$D/sweeps.tsv")"
CHECKS=$((CHECKS + 1)); [ -s "$D/checkpoint-7.bin" ] || fail "the shared prefix's checkpoint is gone: $(ls "$D")"
run count --run-dir "$D" --resume --json --progress 0
expect_exit 0
CHECKS=$((CHECKS + 1))
python3 - "$TMP/whole.json" "$TMP/out" <<'PY' || { LAST="resumed grid"; fail "resumed grid differs"; }
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["tours_by_start"] == b["tours_by_start"] and a["tours"] == b["tours"] == 6637920, (a, b)
assert b["sweeps_resumed"] >= 3, b
PY
CHECKS=$((CHECKS + 1)); [ -z "$(ls "$D" | grep -v manifest.json)" ] || fail "files left in a finished run: $(ls "$D")"

# Open tours between two squares (--end): both methods give the enumerator's count; from a
# corner to one of its two knight moves they are the closed cycles (every cycle uses both of
# the corner's edges), counted by one sweep with both ends pinned.
for method in dfs frontier; do
  run count 6x6 --start a1 --end b1 --method $method --json --progress 0
  expect_exit 0
  expect_json tours 46666
  expect_json end b1
  expect_json closed_tours 0
  expect_json closed_cycles null
done
run count 6x8 --start a1 --end c2 --progress 0   # 48 squares: the frontier method
expect_exit 0
expect_out '^board +6x8, start a1, end c2, directed open tours'
expect_out '^method +frontier'
expect_out '^tours +55,488,142 '   # A193055: the closed cycles of 6x8
expect_out '^closed +55,488,142 of them are closed'
expect_out '^threads +[0-9]+; 1 sweep$'
run count 6x6 --end b1;                         expect_usage_error 'end goes with --start'
run count 6x6 --all-starts --end b1;            expect_usage_error 'end goes with --start'
run count 6x6 --start a1 --end a1;              expect_usage_error 'another square than --start'
run count 6x6 --start a1 --end g1;              expect_usage_error 'end square'
run count 6x6 --start a1 --end b1 --closed;     expect_usage_error 'leave out --closed'
run count 6x6 --start a1 --end b1 --run-dir "$TMP/between"; expect_usage_error 'leave out --run-dir'

# Set-up is linear in the board's length and stoppable: boards a side of 1 or 2 wide (no tour,
# said so) count in well under 2 s at the longest length, and a time limit or SIGTERM stops
# a nine-wide board's set-up within a second. (Timed: not under sanitizers.)
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
if ! under_asan && [ "$SLOWDOWN" -eq 1 ]; then
  for job in "2x100000 --closed" "1x100000 --start a1"; do
    start=$(now)
    run count $job --progress 0
    took=$(since "$start")
    expect_exit 0
    expect_out '^tours +0 '
    expect_err "a side of 1 or 2 has no knight's tour .*known without a sweep"
    CHECKS=$((CHECKS + 1)); below "$took" 2 || fail "took $took s, not under 2 s"
  done
  start=$(now)
  run count 9x100000 --closed --time-limit 0.2 --progress 0
  took=$(since "$start")
  expect_exit 3
  CHECKS=$((CHECKS + 1)); below "$took" "$(awk -v b="$(busy)" 'BEGIN { print 1.2 * b }')" ||
    fail "a 0.2 s limit stopped it after $took s (load $(busy) per CPU)"
  "$KT" count 9x100000 --closed --progress 0 >"$TMP/out" 2>"$TMP/err" &
  pid=$!
  sleep 0.2
  start=$(now)
  kill -TERM "$pid"
  wait "$pid"
  CODE=$?
  took=$(since "$start")
  LAST="count 9x100000 --closed, SIGTERM 0.2 s in"
  expect_exit 3
  CHECKS=$((CHECKS + 1)); below "$took" "$(busy)" || fail "SIGTERM took $took s to stop it (load $(busy) per CPU)"
fi

# A frontier run directory of format 1 (frontier.json) is refused with one line that says why.
mkdir -p "$TMP/old"; echo '{"format": 1, "method": "frontier"}' >"$TMP/old/frontier.json"
run count --run-dir "$TMP/old" --resume; expect_usage_error 'format 1'
finish
