# Helpers of the tests on a real one-node Slurm cluster (slurm_cli.sh, slurm_submit_cli.sh).
# Source it after lib.sh: it skips (77) without root, starts the cluster (scripts/slurm-local),
# stops it on exit, and waits for the jobs of the test (`ours`), never for others.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if [[ $(id -u) -ne 0 ]]; then
  echo "skipped: needs root to start a local Slurm cluster"
  exit 77
fi
export KNIGHTSTOUR=$KT
"$ROOT/scripts/slurm-local" start >"$TMP/start.log" 2>&1
CODE=$?; LAST="slurm-local start"; expect_exit 0
[[ $CODE -eq 0 ]] || { cat "$TMP/start.log"; finish; exit 1; }
trap '"$ROOT/scripts/slurm-local" stop; rm -rf "$TMP"' EXIT

# The array job's and the merge job's ids, from submit's output in $TMP/out.
job_ids() { sed -E 's/^array job ([0-9]+).*merge job ([0-9]+).*/\1 \2/' "$TMP/out"; }
queued() { squeue -h -o '%i %T %r' | grep -E "^($(echo $ours | tr ' ' '|'))(_| )"; }
# Waits for this test's jobs only (a cluster may hold others); a job left pending fails, and
# the shards' logs say why.
wait_for_ours() {
  for _ in $(seq 1 300); do
    [[ -z "$(queued)" ]] && break
    sleep 1
  done
  LAST="squeue"; CHECKS=$((CHECKS + 1))
  if [[ -n "$(queued)" ]]; then
    fail "jobs still queued: $(queued)"
    scancel $ours
    tail -n 5 "$TMP"/*/knightstour-*.out 2>/dev/null
  fi
}
