#!/usr/bin/env bash
# knightstour find: output formats, proofs of impossibility (exit 5), caps (exit 3), bad input.
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
PY="$HERE/../../scripts/py"

run find 8
expect_exit 0
expect_out '^8 \|( +[0-9]+){8}$'
expect_out '^1 \| +1 '
expect_out '^ +a +b +c +d +e +f +g +h$'
expect_err "found an open tour from a1 on 8x8 .*checked"

# The grid is a tour: every number 1..64 once, consecutive numbers a knight move apart.
"$KT" find 8 --start d5 --format text >"$TMP/t.txt" 2>/dev/null
run verify "$TMP/t.txt"; expect_exit 0; expect_out '1 tour in 1 file'
CHECKS=$((CHECKS + 1)); grep -q '^d5 ' "$TMP/t.txt" || { LAST="find --start d5"; fail "does not start on d5"; }

run find 6 --closed --format text --out "$TMP/c.txt"
expect_exit 0; expect_no_out
run verify "$TMP/c.txt" --closed; expect_exit 0

run find 12x7 --start 3,4 --json
expect_exit 0
expect_json outcome found
expect_json start e4
CHECKS=$((CHECKS + 1))
python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["tour"]; assert sorted(t)==list(range(84)) and t[0]==3*7+4' "$TMP/out" \
  || { LAST="find --json"; fail "tour field"; }

# Same seed, same tour; the default seed is 0.
a=$("$KT" find 30x30 --closed --seed 9 --format text 2>/dev/null)
b=$("$KT" find 30x30 --closed --seed 9 --format text 2>/dev/null)
CHECKS=$((CHECKS + 1)); [ "$a" = "$b" ] || { LAST="find --seed"; fail "different tours for one seed"; }
# Seeds vary open tours too (they used to change only closed ones).
n=$(for s in 0 1 2 3; do "$KT" find 8 --seed $s --format text 2>/dev/null; echo; done | sort -u | grep -c .)
CHECKS=$((CHECKS + 1)); [ "$n" -eq 4 ] || { LAST="find 8 --seed 0..3"; fail "$n distinct open tours from 4 seeds"; }

# Big boards, npy with the dtype that fits, checked by verify.
for spec in "100 u1:no" "17x17 u2" "300x300 u4" "1000 u4"; do
  board=${spec%% *}
  run find "$board" --format npy --out "$TMP/big-$board.npy"
  expect_exit 0
  run verify "$TMP/big-$board.npy" --board "$( [[ $board == *x* ]] && echo "$board" || echo "${board}x$board")" --start a1
  expect_exit 0
done
run find 200 --closed --start m77 --format npy --out "$TMP/c200.npy"
expect_exit 0
run verify "$TMP/c200.npy" --board 200x200 --closed --start m77; expect_exit 0
"$PY" - "$TMP" >"$TMP/py.out" 2>&1 <<'PYEOF'
import sys, numpy as np
d = sys.argv[1]
for name, dtype, n in (("big-17x17.npy", np.uint16, 289), ("big-300x300.npy", np.uint32, 90000), ("big-100.npy", np.uint16, 10000)):
    a = np.load(f"{d}/{name}", mmap_mode="r")
    assert a.dtype == dtype and a.shape == (1, n), (name, a.dtype, a.shape)
print("dtypes ok")
PYEOF
CHECKS=$((CHECKS + 1)); grep -q "dtypes ok" "$TMP/py.out" || { LAST="npy dtypes"; fail "$(cat "$TMP/py.out")"; }

# Proofs: exit 5 with the reason on stdout.
run find 4;                 expect_exit 5; expect_out 'no open tour from a1 on 4x4: .*Conrad'
run find 3;                 expect_exit 5
run find 2x2;               expect_exit 5
run find 5 --start b1;      expect_exit 5; expect_out 'majority colour'
run find 7 --closed;        expect_exit 5; expect_out 'odd number of squares'
run find 4x8 --closed;      expect_exit 5; expect_out 'Schwenk'
run find 3x6 --closed;      expect_exit 5; expect_out 'Schwenk'
run find 3x8 --closed;      expect_exit 5
run find 6x1 --closed;      expect_exit 5
run find 4x12 --start c2;   expect_exit 5; expect_out 'inner line'
run find 3x8 --start c2;    expect_exit 5; expect_out 'exhaustive search'
run find 3x4 --start a1;    expect_exit 0

# The textbook method reports its checks; a cap stops it with exit 3.
run find 8 --method backtrack
expect_exit 0; expect_err 'textbook backtracking, move order cw: [0-9,]+ checks'
run find 6 --method backtrack --move-order ccw --closed --format text --out "$TMP/bt.txt"
expect_exit 0
run verify "$TMP/bt.txt" --closed; expect_exit 0
run find 8 --method backtrack --move-order "1:2,2:1,2:-1,1:-2,-1:-2,-2:-1,-2:1,-1:2" --max-nodes 10000
expect_exit 3; expect_err 'stopped after 10,000 checks'
run find 40x40 --start b1 --method backtrack --time-limit 0.3 --max-nodes 100000000000
expect_exit 3

# Bad input: one line, exit 2.
run find;                                    expect_usage_error 'missing BOARD'
run find 0x5;                                expect_usage_error 'zero'
run find 20000x20000;                        expect_usage_error 'more than'
run find 8 --start i1;                       expect_usage_error "off the 8x8 board"
run find 8 --method magic;                   expect_usage_error 'unknown method'
run find 8 --move-order 1:1,2:2;             expect_usage_error 'move-order'
run find 8 --format npy;                     expect_usage_error 'needs --out'
run find 8 --format pdf;                     expect_usage_error 'unknown format'
run find 8 --seed -1;                        expect_usage_error 'seed'
run find 8 --max-nodes 0;                    expect_usage_error 'max-nodes'
run find 8 --out /proc/nope/tour.txt;        expect_exit 1

finish
