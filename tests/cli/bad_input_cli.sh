#!/usr/bin/env bash
# Bad input: exit 2, one clear line on stderr, nothing on stdout.
. "$(dirname "$0")/lib.sh"

run count 9x8 --start a1 --method dfs;  expect_usage_error 'at most 64'
run count 65x1 --start a1 --method dfs; expect_usage_error 'at most 64'
run enumerate 9x8 --start a1 --out "$TMP/never"; expect_usage_error 'at most 64'
run count 10x10 --start a1;        expect_usage_error 'too big to count: the enumerator counts at most 64 squares and the frontier method'
run count 9x7 --start a1 --method frontier --split-depth 3; expect_usage_error 'no meaning for --method frontier'
run count 6x6 --start a1 --split-depth 3 --memory 1G; expect_usage_error 'needs the enumerator .* and --memory the frontier method'
run count 9x9 --start a1 --prefix a1,b3; expect_usage_error 'at most 64'
run count 10x10 --start a1 --method frontier; expect_usage_error 'shorter side is at most 9'
run count 5x5 --start a1 --method bfs;  expect_usage_error '--method expects auto, dfs or frontier'
for opt in "--memory 2G" "--spill-dir /tmp" "--checkpoint 1 --run-dir $TMP/never"; do
  run count 5x5 --start a1 --method dfs $opt; expect_usage_error 'applies to the frontier method only'
done
CHECKS=$((CHECKS + 1)); [ ! -e "$TMP/never" ] || fail "a refused count left $TMP/never behind"
for opt in "--prefix a1,b3" "--split-depth 3" "--max-nodes 5" "--max-tours 5" \
           "--no-symmetry" "--algorithm naive"; do
  run count 5x5 --start a1 --method frontier $opt; expect_usage_error "no meaning for --method frontier"
done
# The frontier method shares out open counts over all starts only (units of end pairs).
run count 5x5 --start a1 --method frontier --shard-index 0 --shard-count 2
expect_usage_error "shared out only when it counts open tours over all starts"
# Counts up to symmetry: the enumerator, one session, a start or all starts.
run count 5x5 --start a1 --up-to-symmetry --method frontier; expect_usage_error '--up-to-symmetry has no meaning for --method frontier'
run count 8x10 --start a1 --up-to-symmetry; expect_usage_error '--up-to-symmetry needs the enumerator, which counts at most 64 squares'
run count 5x5 --start a1 --up-to-symmetry --run-dir "$TMP/sym"; expect_usage_error 'keeps nothing in a run directory; leave out --run-dir'
CHECKS=$((CHECKS + 1)); [ ! -e "$TMP/sym" ] || fail "a refused count created $TMP/sym"
run count 5x5 --prefix a1,b3 --up-to-symmetry; expect_usage_error 'give --start instead of --prefix'
run count 5x5 --all-starts --up-to-symmetry --shard-index 0 --shard-count 2; expect_usage_error 'leave out --shard-count'
run enumerate 5x5 --start a1 --up-to-symmetry --out "$TMP/x"; expect_usage_error 'up-to-symmetry.* does not exist'
run count 5x5 --all-starts --method frontier --memory 2X; expect_usage_error '--memory expects a size'
run count 5x5 --all-starts --method frontier --memory 0;  expect_usage_error '--memory expects a size'
run count 5x5 --method frontier;   expect_usage_error 'give a start square'
run count 10x10 --all-starts --run-dir "$TMP/refused"; expect_usage_error 'too big'
CHECKS=$((CHECKS + 1)); [ ! -e "$TMP/refused" ] || fail "a refused count created $TMP/refused"
run count 9x7 --all-starts --method frontier --run-dir "$TMP/refused2" --start a9; expect_usage_error ''
CHECKS=$((CHECKS + 1)); [ ! -e "$TMP/refused2" ] || fail "a refused count created $TMP/refused2"
run count 0x5 --start a1;          expect_usage_error 'zero'
# A mistyped option names the one meant; an unknown one points to --help.
run count 6x6 --strat a1;          expect_usage_error "Option .strat. does not exist \\(did you mean --start\\?\\)"
run count 6x6 --start a1 --all-start; expect_usage_error 'did you mean --all-starts\?'
run enumerate 6x6 --start a1 --ot "$TMP/x"; expect_usage_error 'did you mean --out\?'
run count 6x6 --bogus;             expect_usage_error 'does not exist \(see knightstour count --help\)'
run count 5x0 --start a1;          expect_usage_error 'zero'
run count 5y5 --start a1;          expect_usage_error 'malformed board'
run count x --start a1;            expect_usage_error 'malformed board'
run count 5x5 --start f1;          expect_usage_error "'f1' is off the 5x5 board"
run count 5x5 --start a9;          expect_usage_error "'a9' is off the 5x5 board"
run count 5x5 --start 5,0;         expect_usage_error "'5,0' is off the 5x5 board"
run count 5x5 --start a0;          expect_usage_error 'off the board'
run count 5x5 --start 1a;          expect_usage_error 'malformed start square'
run count 5x5 --start -1,0;        expect_usage_error ''
run count 5x5 --prefix a1,c3;      expect_usage_error 'not a knight move'
run count 5x5 --prefix a1,b3,a1;   expect_usage_error 'twice'
run count 5x5 --prefix a1,,b3;     expect_usage_error 'malformed prefix'
run count 5x5 --start b3 --prefix a1,b3; expect_usage_error 'begin with the --start'
run count 5x5 --all-starts --start a1;   expect_usage_error 'cannot be combined'
run count 5x5;                     expect_usage_error 'give a start square'
run count --start a1;              expect_usage_error 'missing BOARD'
run count 5x5 --start a1 extra;    expect_usage_error "unexpected argument 'extra'"
run count 5x5 --start a1 --bogus;  expect_usage_error 'bogus'
run count 5x5 --start;             expect_usage_error 'start'
run frobnicate 5x5;                expect_usage_error "unknown command 'frobnicate'"
run;                               expect_exit 2
for opt in threads split-depth max-nodes max-tours shard-index shard-count; do
  run count 5x5 --start a1 --$opt -1;   expect_usage_error "--$opt"
  run count 5x5 --start a1 --$opt abc;  expect_usage_error "--$opt"
  run count 5x5 --start a1 --$opt 1.5;  expect_usage_error "--$opt"
done
run count 5x5 --start a1 --threads 0;                     expect_usage_error '--threads'
run count 5x5 --start a1 --max-nodes 0;                   expect_usage_error '--max-nodes'
run count 5x5 --start a1 --max-nodes 99999999999999999999; expect_usage_error '--max-nodes'
run count 5x5 --start a1 --time-limit -3;                 expect_usage_error '--time-limit'
run count 5x5 --start a1 --time-limit soon;               expect_usage_error '--time-limit'
run count 5x5 --start a1 --progress -1;                   expect_usage_error '--progress'
run count 5x5 --start a1 --split-depth 25;                expect_usage_error '--split-depth'
run count 5x5 --prefix a1,b3,c5 --split-depth 1;          expect_usage_error 'shorter than the prefix'
run count 5x5 --start a1 --shard-index 3 --shard-count 3; expect_usage_error 'shard'
run count 5x5 --start a1 --shard-count 0;                 expect_usage_error 'shard-count'
run count 5x5 --start a1 --algorithm magic;               expect_usage_error 'unknown algorithm'
run count 5x5 --start a1 --log-level loud;                expect_usage_error 'log-level'
run prefixes 5x5 --start z1 --split-depth 2;              expect_usage_error 'off the 5x5 board'

# An option given twice, an option's value that is the next option, half a shard.
run count 5x5 --start a1 --start c3;                      expect_usage_error '^knightstour: --start is given twice'
run count 5x5 --start a1 --run-dir --json;                expect_usage_error "--run-dir needs a value, not the option '--json'"
CHECKS=$((CHECKS + 1)); [ ! -e ./--json ] || fail "a directory named --json was made"
run count 5x5 --start a1 --shard-index 1;                 expect_usage_error '--shard-index goes with --shard-count'
run count 6x-6 --start a1;                                expect_usage_error "board '6x-6' has a negative side"
# verify: a --board that disagrees with the run, and a manifest that does not parse (a
# problem found, exit 4, as one whose checksum fails is).
run count 5x5 --start a1 --run-dir "$TMP/five" --progress 0
run verify "$TMP/five" --board 6x6;                       expect_usage_error "--board 6x6 does not match the run in .* \(5x5\)"
run verify "$TMP/five" --board 5x5;                       expect_exit 0
cp -r "$TMP/five" "$TMP/torn" && echo '{"format": "knightstour-run", ' >"$TMP/torn/manifest.json"
run verify "$TMP/torn";                                   expect_exit 4; expect_out '^verify: FAILED: .*manifest'
# show: a picture it cannot write prints nothing.
run enumerate 5x5 --start a1 --out "$TMP/tours5" --progress 0
run show "$TMP/tours5" --svg "$TMP/no/such/dir/x.svg";    expect_usage_error '--svg .*no such directory'

# --help is not an error.
run count --help; expect_exit 0; expect_out 'Usage'
run --help; expect_exit 0; expect_out 'count'

finish
