#!/usr/bin/env bash
# Regression tests for defects found by the adversarial test of issue 13: each check failed
# before its fix.
. "$(dirname "$0")/lib.sh"

# 8. Seconds past what a deadline can hold are refused, not honoured as "now".
run count 5x5 --start a1 --time-limit 1e10;  expect_usage_error 'time-limit is at most 36500 days'
run count 5x5 --start a1 --time-limit 9223372036; expect_usage_error 'at most 36500 days'
run count 5x5 --start a1 --progress 1e10;    expect_usage_error 'progress is at most 36500 days'
run find 8 --time-limit 1e10;                expect_usage_error 'at most 36500 days'
# Units on times and exponents or suffixes on counts (issue 12).
run count 5x5 --start a1 --time-limit 2h --progress 15m --json
expect_exit 0; expect_json tours 304; expect_json status complete
run count 6x6 --start a1 --max-tours 1e3 --json
expect_exit 3; expect_json status incomplete
run count 6x6 --start a1 --max-nodes 2K --json
expect_exit 3; expect_json status incomplete
run count 5x5 --start a1 --max-tours 2e19;   expect_usage_error 'too large'
run count 5x5 --start a1 --max-tours 2x;     expect_usage_error "expects a whole number .*not '2x'"
run count 5x5 --start a1 --time-limit 5w;    expect_usage_error "expects seconds"

# 3. verify compares run directories with one another.
run enumerate 5x5 --start a1 --out "$TMP/R"; expect_exit 0
run verify "$TMP/R" "$TMP/R";                expect_exit 4; expect_out 'given twice'
run verify "$TMP/R" "$TMP/../$(basename "$TMP")/R"; expect_exit 4; expect_out 'given twice'
for i in 0 1; do
  run enumerate 5x5 --all-starts --shard-count 2 --shard-index $i --out "$TMP/S$i"; expect_exit 0
done
cp -r "$TMP/S0" "$TMP/S0copy"
run verify "$TMP/S0" "$TMP/S1";              expect_exit 0; expect_out 'OK: 1,728 tours'
run verify "$TMP/S0" "$TMP/S1" "$TMP/S0copy"; expect_exit 4; expect_out 'both hold prefix [0-9]+ of one job'
run count 5x5 --all-starts --run-dir "$TMP/C"; expect_exit 0
run verify "$TMP/C";                         expect_exit 0
expect_out '^verify: OK: count run of 1,728 tours \(0 closed\); no tour files to check; [0-9,]+ of [0-9,]+ prefixes journaled'
run verify "$TMP/C" --json;                  expect_exit 0; expect_json tours 1728; expect_json counted_tours 1728
cp -r "$TMP/C" "$TMP/Ccopy"
run verify "$TMP/C" "$TMP/Ccopy";            expect_exit 4; expect_out 'both hold prefix'

# 7. Counts by last square that wrap 2^64 are refused by verify and --resume.
python3 - "$TMP/C/journal-0.tsv" <<'PY'
import sys
path = sys.argv[1]
lines = open(path).read().split("\n")
for k, line in enumerate(lines):
    if line.startswith("#") or not line:
        continue
    f = line.split("\t")
    nonzero = [i for i in range(6, len(f)) if f[i] != "0"]
    if len(nonzero) >= 2:
        f[nonzero[0]] = str(2**64 - 1)
        f[nonzero[1]] = str(int(f[nonzero[1]]) + 1)  # the sum wraps back to the line's tours
        lines[k] = "\t".join(f)
        break
else:
    sys.exit("no line with two last squares")
open(path, "w").write("\n".join(lines))
PY
run verify "$TMP/C";                        expect_exit 2; expect_err 'add up past 2\^64'
run count --run-dir "$TMP/C" --resume 5x5 --all-starts --json; expect_exit 2; expect_err 'add up past 2\^64'

# 6. A journal temp file left by a kill -9 during a rewrite is not a second journal.
cp "$TMP/S0/journal-0.tsv" "$TMP/S0/journal-0.tsv.tmp"
run merge "$TMP/S0" "$TMP/S1" --out "$TMP/M"; expect_exit 0; expect_out 'tours +1,728'
run verify "$TMP/M";                          expect_exit 0

# Small items of issue 12.
run enumerate 5x5 --start a1 --out -;  expect_usage_error '--out needs a directory'
CHECKS=$((CHECKS + 1)); [ ! -e ./- ] || fail "a directory named - was made"
run enumerate 5x5 --start a1 --out "";  expect_usage_error '--out needs a directory'

# prefixes lists work units; it takes no caps and says so, and --help shows each default once.
run prefixes 6x6 --start a1 --max-nodes 5;  expect_usage_error 'max-nodes'
run prefixes --help; expect_exit 0
CHECKS=$((CHECKS + 1)); ! grep -q -- '--max-tours\|--time-limit' "$TMP/out" || fail "prefixes --help lists caps"
run count --help; expect_exit 0
CHECKS=$((CHECKS + 1)); ! grep -q '(default) or' "$TMP/out" || fail "a default said twice"

finish
