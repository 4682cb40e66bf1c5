#!/usr/bin/env bash
# scripts/slurm/submit on a real one-node Slurm cluster (scripts/slurm-local) cannot lose a
# result: a root of another job is refused before anything is submitted, a merge replaces
# merged/ only once it verifies, the job's own --progress wins, one shard and one shard a
# unit work (of end pairs, and residue units), and a shard stopped early says to submit
# again. Root only (skipped, 77, else).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/slurm_lib.sh"
SUBMIT="$ROOT/scripts/slurm/submit"
submit() {  # submit ARGS... : scripts/slurm/submit, its ids added to ours on success
  "$SUBMIT" "$@" >"$TMP/out" 2>"$TMP/err"
  CODE=$?
  LAST="submit $*"
  [[ $CODE -eq 0 ]] && ours="$ours $(job_ids)"
}
ours=""

# One shard a unit (3x4 has 13), the job's own --progress (the script's own would make it
# "given twice"), and one shard of a frontier count that is not by units at all.
submit --shards units --cpus 1 "$TMP/units" count 3x4 --all-starts --progress 30
expect_exit 0
expect_out '^array job [0-9]+ \(13 shards of'
submit --shards 1 --cpus 1 "$TMP/one" count 5x6 --all-starts --method frontier
expect_exit 0
submit --shards units "$TMP/nounits" count 5x6 --closed
expect_exit 2
expect_err '^submit: --shards units: a frontier count is shared out only when it counts open tours over all starts'
# One shard a residue unit: 5x30 closed's 6 (5 primes and a spare), merged into the exact row.
submit --shards residues --cpus 1 "$TMP/residues" count 5x30 --closed --every-length
expect_exit 0
expect_out '^array job [0-9]+ \(6 shards \(residue units\) of'
submit --shards residues "$TMP/nores" enumerate 5x5 --start a1
expect_exit 2
expect_err '^submit: --shards residues is for a count by the frontier method'
# Shards stopped early by a cap: each log says what to do next.
submit --shards 2 --cpus 1 "$TMP/capped" count 6x6 --all-starts --method dfs --max-nodes 100000
expect_exit 0
wait_for_ours
run count --run-dir "$TMP/units/merged" --resume --json --progress 0
expect_exit 0
expect_json tours 16  # DESIGN.md: 3x4 over all starts
run count --run-dir "$TMP/one/merged" --resume --json --progress 0
expect_exit 0
expect_json tours 37568
run count --run-dir "$TMP/residues/merged" --resume --json --progress 0
expect_exit 0
expect_json closed_cycles 202407848349722353779265745190616  # results/rows/5-closed.csv
CHECKS=$((CHECKS + 1))
grep -q "Next: submit the same job again" "$TMP"/capped/knightstour-*_0.out ||
  { LAST="capped shard log"; fail "$(tail -3 "$TMP"/capped/knightstour-*_0.out)"; }

# A root holding another job's shards, or shards of another count, is refused at once: its
# shards and its merge stay as they were.
before=$(ls -R "$TMP/units" | md5sum)
submit --shards 2 --cpus 1 "$TMP/units" count 3x4 --all-starts
expect_exit 2
expect_err 'holds the shards of another job \(shards 13: knightstour count 3x4 --all-starts\)'
submit --shards units --cpus 1 "$TMP/units" count 4x5 --all-starts
expect_exit 2
CHECKS=$((CHECKS + 1)); [[ "$(ls -R "$TMP/units" | md5sum)" == "$before" ]] || fail "the root changed"
# (A root made before job files: the shards' own manifests say their count.)
rm "$TMP/units/job"
submit --shards 2 --cpus 1 "$TMP/units" count 3x4 --all-starts
expect_exit 2
expect_err 'holds shards of 13 shards, not 2'
# The same job again, with other session options, goes on (here: merges again).
submit --shards units --cpus 1 "$TMP/units" count 3x4 --all-starts --threads 1
expect_exit 0
wait_for_ours

# A merge that fails leaves the merge of earlier as it was.
good=$(md5sum <"$TMP/one/merged/manifest.json")
sed -i 's/"board": "5x6"/"board": "6x5"/' "$TMP/one/shard-0/manifest.json"
submit --shards 1 --cpus 1 "$TMP/one" count 5x6 --all-starts --method frontier
wait_for_ours
CHECKS=$((CHECKS + 1))
[[ "$(md5sum <"$TMP/one/merged/manifest.json")" == "$good" ]] || { LAST="failed merge"; fail "merged/ changed"; }
run verify "$TMP/one/merged"
expect_exit 0

finish
