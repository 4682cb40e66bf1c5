#!/usr/bin/env bash
# The frontier method over MPI ranks: mpirun -np 1, 2 and 3 give the counts of one process
# (and of OEIS), stop together, merge as shards, and refuse what they cannot do with one line.
# Run directories over ranks are mpi_runs_cli.sh's.
# Usage: mpi_cli.sh path/to/knightstour path/to/mpirun
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/mpi_lib.sh"

# Known values (OEIS A001230, A165134 from a1 via the enumerator, A175881) on 2 and 3 ranks.
for n in 2 3; do
  mpi $n count 6x6 --closed
  expect_exit 0
  expect_out '^cycles +9,862 closed cycles'
  expect_out "^ranks +$n MPI processes"
  mpi $n count 6x6 --start a1 --method frontier
  expect_exit 0
  expect_out '^tours +524,486 '
done
mpi 3 count 6x15 --closed --json   # cycles past 2^64: 128-bit counts summed across ranks
expect_exit 0
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["closed_cycles"]==255967892553030600920 and j["count_bits"]==128, j' "$TMP/out" \
  || fail "6x15 closed cycles wrong over 3 ranks"

# One process's counts, field by field: one start, all starts (the shared prefix forks the
# pinned sweeps on every rank), closed, and a run that spills on every rank.
same_json 1 count 5x6 --all-starts --method frontier
same_json 2 count 5x6 --all-starts --method frontier
same_json 3 count 5x7 --all-starts --method frontier
same_json 2 count 6x6 --all-starts --total-only --method frontier
same_json 2 count 5x8 --start c2 --method frontier
same_json 3 count 6x8 --closed
# 2M: since a tight step combines its successors and makes its parts smaller
# (results/frontier/combiner.md), each rank's steps fit one pass in 3M.
same_json 2 count 6x7 --closed --memory 2M
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["max_passes"] > 1 and j["spilled_bytes"] > 0, j' "$TMP/out" \
  || fail "the 6x7 run over 2 ranks did not spill"

# Only rank 0 prints: one result.
mpi 2 count 6x6 --closed
CHECKS=$((CHECKS + 1))
[ "$(grep -c '^board ' "$TMP/out")" -eq 1 ] || fail "the result was printed more than once"

# A time limit stops every rank: exit 3, no count.
mpi 2 count 8x8 --closed --time-limit 1
expect_exit 3
expect_out 'INCOMPLETE: time limit'
CHECKS=$((CHECKS + 1)); ! grep -Eq '^tours' "$TMP/out" || fail "a stopped run printed a count"
# The budget stops every rank when nothing may spill.
mpi 2 count 8x8 --closed --memory 32M --spill-dir none
expect_exit 3
expect_out 'INCOMPLETE: memory budget'

# A shard of units counted over ranks merges like one process's: merge takes the directory
# of its ranks' shares, and the merged manifest lists every input. 5x6 over all starts has
# 37,568 directed open tours (the enumerator's count).
mpi 2 count 5x6 --all-starts --method frontier --shard-index 0 --shard-count 2 --run-dir "$TMP/pair0"
expect_exit 0
run count 5x6 --all-starts --method frontier --shard-index 1 --shard-count 2 --run-dir "$TMP/pair1" --progress 0
expect_exit 0
run merge "$TMP/pair0/rank-1" "$TMP/pair1" --out "$TMP/pairs-share"
expect_usage_error "rank-1 holds MPI rank 1's share of a count over 2 ranks, not a count"
run merge "$TMP/pair0" "$TMP/pair1" --out "$TMP/pairs"
expect_exit 0
expect_out '^tours +37,568$'
run count --run-dir "$TMP/pairs" --resume --progress 0 --json
expect_exit 0
expect_json tours 37568
CHECKS=$((CHECKS + 1))
python3 - "$TMP/pairs/manifest.json" "$TMP" <<'EOF' || fail "the merged manifest does not list its two inputs"
import json, os, sys
m, tmp = json.load(open(sys.argv[1])), os.path.realpath(sys.argv[2])
got = sorted((os.path.realpath(i["dir"]), i["shard_index"]) for i in m["inputs"])
assert got == [(tmp + "/pair0", 0), (tmp + "/pair1", 1)], got
EOF

# What does not run over ranks is refused.
mpi 2 count 6x6 --start a1 --method dfs
refused 'the enumerator does not run over MPI ranks'
mpi 2 enumerate 5x5 --start a1 --out "$TMP/tours"
refused 'only count runs over MPI ranks'
# Refused before a run directory is made for the ranks, which stays away.
mpi 2 count 5x6 --closed --every-length --run-dir "$TMP/row"
refused 'every-length runs in one process for now, not over MPI ranks'
mpi 2 count 5x6 --closed --residue-unit 0 --run-dir "$TMP/residue"
refused 'a count modulo a prime runs in one process for now, not over MPI ranks'
CHECKS=$((CHECKS + 1))
[[ ! -e "$TMP/row" && ! -e "$TMP/residue" ]] || fail "a refused count left its run directory"
# One rank is a plain process.
mpi 1 count 6x6 --closed --method frontier
expect_exit 0
expect_out '^cycles +9,862 closed cycles'
CHECKS=$((CHECKS + 1)); ! grep -q '^ranks' "$TMP/out" || fail "one rank printed a ranks line"

finish
