#!/usr/bin/env bash
# A frontier count in shards: units of end pairs dealt to shards, each shard's run directory
# a journal of finished units, merge combining them (and refusing a missing, doubled or
# foreign shard), verify and resume; the merged counts are the unsharded count's.
source "$(dirname "$0")/lib.sh"

# The whole count, by pinned tails and by end pairs: the same grid.
run count 5x6 --all-starts --method frontier --json
expect_exit 0
WHOLE_TOURS=$(json_get tours)
WHOLE_GRID=$(json_get tours_by_start)
run count 5x6 --all-starts --method frontier --grid end-pairs --json
expect_exit 0
expect_json tours "$WHOLE_TOURS"
expect_json tours_by_start "$WHOLE_GRID"
expect_json grid_method "end pairs"
expect_json sweeps 66
# The start x end table: a1's row sums to a1's tours; a1 to b3 is a closed tour's last square.
CHECKS=$((CHECKS + 1))
python3 - "$TMP/out" <<'PY' || fail "the start x end table does not add up"
import json, sys
j = json.load(open(sys.argv[1]))
t = j["tours_by_start_end"]
assert len(t) == 30 and all(len(row) == 30 for row in t)
assert [sum(int(c) for c in row) for row in t] == [int(c) for c in j["tours_by_start"]]
assert all(t[s][t_] == t[t_][s] for s in range(30) for t_ in range(30))  # reversal
assert all(t[s][s] == 0 for s in range(30))
PY

# Three shards (method auto: an open all-starts job of 40+ squares is the frontier's).
run count 5x8 --all-starts --json
expect_json method frontier
WHOLE_TOURS=$(json_get tours)
WHOLE_GRID=$(json_get tours_by_start)
for i in 0 1 2; do
  run count 5x8 --all-starts --shard-index $i --shard-count 3 --run-dir "$TMP/s$i" --json
  expect_exit 0
  expect_json method frontier
  expect_json shard "{\"count\": 3, \"index\": $i}"
  expect_json closed_cycles null
done
run verify "$TMP/s1"; expect_exit 0; expect_out "a shard's share"
# A stopped shard resumes its units where it stopped; its shard options may be given again.
# A finished one prints its counts and leaves its manifest (a committed record) as it was.
cp "$TMP/s2/manifest.json" "$TMP/s2-manifest"
run count 5x8 --all-starts --shard-index 2 --shard-count 3 --run-dir "$TMP/s2" --resume --json
expect_exit 0
expect_json status complete
CHECKS=$((CHECKS + 1)); cmp -s "$TMP/s2-manifest" "$TMP/s2/manifest.json" || fail "reading a finished shard rewrote its manifest"
run count 5x8 --all-starts --shard-index 1 --shard-count 3 --run-dir "$TMP/s2" --resume
expect_usage_error 'shard 1 of 3 vs 2 of 3'

run merge "$TMP/s0" "$TMP/s1" --out "$TMP/m"; expect_usage_error 'shard 2 of 3 is missing'
run merge "$TMP/s0" "$TMP/s1" "$TMP/s1" "$TMP/s2" --out "$TMP/m"; expect_usage_error 'shard 1 is given twice'
run count 6x7 --all-starts --method frontier --shard-index 2 --shard-count 3 --run-dir "$TMP/f2" \
  --time-limit 0.01 --progress 0
run merge "$TMP/s0" "$TMP/s1" "$TMP/f2" --out "$TMP/m"; expect_usage_error 'shard of another count'
run count 5x8 --all-starts --method frontier --run-dir "$TMP/whole"
run merge "$TMP/s0" "$TMP/whole" --out "$TMP/m"; expect_usage_error 'not a shard of one'
CHECKS=$((CHECKS + 1)); [ ! -e "$TMP/m" ] || fail "a refused merge left $TMP/m"

run merge "$TMP/s0" "$TMP/s1" "$TMP/s2" --out "$TMP/m" --json
expect_exit 0
expect_json tours "$WHOLE_TOURS"
expect_json status complete
run verify "$TMP/m"; expect_exit 0
run count --run-dir "$TMP/m" --resume --json
expect_exit 0
expect_json tours "$WHOLE_TOURS"
expect_json tours_by_start "$WHOLE_GRID"
expect_json closed_cycles 44202
# The merged manifest says where its counts came from: every shard's directory, in order.
CHECKS=$((CHECKS + 1))
python3 - "$TMP/m/manifest.json" "$TMP" <<'EOF' || fail "the merged manifest does not list its inputs"
import json, os, sys
m, tmp = json.load(open(sys.argv[1])), os.path.realpath(sys.argv[2])
got = [(os.path.realpath(i["dir"]), i["shard_index"]) for i in m["inputs"]]
assert got == [(f"{tmp}/s{k}", k) for k in range(3)], got
EOF

# A count stopped part way resumes on a fresh machine from its journal alone: the manifest,
# whose finished units are not counted again.
run count 6x7 --all-starts --grid end-pairs --run-dir "$TMP/part" --time-limit 2 --progress 0 --json
expect_exit 3
DONE=$(json_get sweeps_finished)
CHECKS=$((CHECKS + 1)); [ "$DONE" -gt 0 ] && [ "$DONE" -lt 123 ] || fail "$DONE of 123 units finished"
mkdir "$TMP/fresh"; cp "$TMP/part/manifest.json" "$TMP/fresh/"
run count --run-dir "$TMP/fresh" --resume --json --progress 0
expect_exit 0
expect_json sweeps_resumed "$DONE"
expect_json tours "$("$KT" count 6x7 --all-starts --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["tours"])')"

# A shard's journal changed by hand is refused by merge, not summed.
sed -i 's/"count": "\([0-9]\)/"count": "9\1/' "$TMP/s0/manifest.json"
run merge "$TMP/s0" "$TMP/s1" "$TMP/s2" --out "$TMP/m2"; expect_usage_error "s0/manifest.json .*checksum"

# One square has no pair of ends, so no units: its run directory still reads back, verifies
# and merges, and counts the one tour.
run count 1x1 --all-starts --grid end-pairs --shard-index 0 --shard-count 1 --run-dir "$TMP/one"
expect_exit 0
run verify "$TMP/one"; expect_exit 0
run merge "$TMP/one" --out "$TMP/one-merged" --json; expect_exit 0; expect_json tours 1

# A unit sized before it runs: estimate --end counts its one sweep for a while (here all of it).
run estimate 5x6 --start a1 --end b3 --calibrate 2
expect_exit 0
expect_out '^board +5x6, start a1, directed open tours ending on b3'
expect_out '^exact +the whole count ran during calibration: 8 tours'
run estimate 5x6 --start a1 --end b3 --method dfs; expect_usage_error '--end is sized by the frontier'
# A shard's estimate stopped inside its first unit: units run no closed sweep, so it is not
# calibrated again without one (that was refused as a usage error).
run estimate 8x8 --all-starts --method frontier --shard-count 2 --calibrate 0.5
expect_exit 0
expect_out '^sweeps +136 units of end pairs; shard 0 of 2 counts 68'
expect_out '^projected '

# Refusals: shards of what is not split into units; --grid where there is no grid.
run count 5x8 --start a1 --method frontier --shard-index 0 --shard-count 2
expect_usage_error 'open tours over all starts'
run count 5x8 --all-starts --closed --method frontier --shard-index 0 --shard-count 2
expect_usage_error 'open tours over all starts'
run count 5x8 --all-starts --method frontier --grid tails --shard-index 0 --shard-count 2
expect_usage_error 'give --grid end-pairs'
run count 5x8 --start a1 --grid end-pairs; expect_usage_error '--grid'
run count 5x8 --all-starts --grid rows; expect_usage_error "auto, tails, pass or end-pairs"
run count 5x8 --all-starts --run-dir "$TMP/whole" --resume --grid end-pairs
expect_usage_error 'end-pairs vs another grid'
finish
