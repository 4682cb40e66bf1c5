#!/usr/bin/env bash
# The library names an option by its request field ("$resume"); the CLI spells it as its flag
# on every path a library message takes to the user: an error, a log line, verify's findings
# (both methods) and status's problem. No field word may reach the user.
. "$(dirname "$0")/lib.sh"

# spelled: neither output holds a field word ($ before a lower-case word).
spelled() {
  CHECKS=$((CHECKS + 1))
  ! grep -Eq '\$[a-z_]+' "$TMP/out" "$TMP/err" || fail "a field word reached the user"
}

# An error (base/shard.hpp's check).
run count 5x5 --shard-index 3 --shard-count 2
expect_usage_error '^knightstour: --shard-index 3 must be less than --shard-count 2$'; spelled

# A log line (count/'s warning of a budget past the memory there is).
run count 5x5 --closed --method frontier --memory 4000T
expect_exit 0; expect_err 'warning: --memory 4000.00 TiB is more than the'; spelled

# verify and status of an enumerator's run whose journal's last line is torn (run/verify.cpp).
run count 5x5 --start a1 --method dfs --run-dir "$TMP/dfs"; expect_exit 0
printf '99\ta1,b3' >>"$TMP/dfs/journal-0.tsv"
run verify "$TMP/dfs"
expect_exit 4; expect_out 'the last line is torn \(an interrupted session; --resume repairs it\)'
spelled
run verify "$TMP/dfs" --json
expect_exit 4; expect_out '"problem": ?".*--resume repairs it'; spelled
run status "$TMP/dfs"
expect_out '^status +DAMAGED: .*--resume repairs it'; spelled

# verify of a frontier run holding a leftover spill folder (frontier_run/verify_frontier.cpp).
run count 5x5 --closed --method frontier --run-dir "$TMP/fr"; expect_exit 0
mkdir "$TMP/fr/spill"
run verify "$TMP/fr"
expect_exit 0; expect_out '^checked: left by an interrupted session, removed on --resume: spill$'
spelled

# A run directory already used (run/run_directory.hpp's advice).
run count 5x5 --closed --method frontier --run-dir "$TMP/fr"
expect_usage_error 'already holds a run: add --resume to continue it'; spelled

finish
