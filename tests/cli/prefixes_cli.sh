#!/usr/bin/env bash
# knightstour prefixes: the work units, in canonical order.
. "$(dirname "$0")/lib.sh"

run prefixes 6x6 --start a1 --split-depth 1
expect_exit 0
expect_out '^# 6x6, open tours, split depth 1, prefix rules pruned-v1: 2 prefixes'
expect_out '^0	a1,c2$'
expect_out '^1	a1,b3$'

run prefixes 6x6 --start a1 --split-depth 4
expect_exit 0
n=$(grep -vc '^#' "$TMP/out")
CHECKS=$((CHECKS + 1)); [ "$n" -gt 50 ] || fail "only $n prefixes"
# ids are 0..n-1 in order
CHECKS=$((CHECKS + 1))
grep -v '^#' "$TMP/out" | awk -F'\t' '$1 != NR-1 { bad=1 } END { exit bad }' || fail "ids not 0..n-1"
# every listed prefix starts with a1 and has 5 squares
CHECKS=$((CHECKS + 1))
grep -v '^#' "$TMP/out" | awk -F'\t' '{ n=split($2, s, ","); if (n != 5 || s[1] != "a1") bad=1 } END { exit bad }' || fail "bad prefix rows"

# Counting each listed prefix separately adds up to the whole.
run prefixes 6x6 --start a1 --split-depth 3
sum=0
while IFS=$'\t' read -r id squares; do
  out=$("$KT" count 6x6 --prefix "$squares" --json)
  sum=$((sum + $(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tours"])')))
done < <(grep -v '^#' "$TMP/out")
LAST="sum over prefixes"; CHECKS=$((CHECKS + 1)); [ "$sum" -eq 524486 ] || fail "sum $sum"

# A shard lists only its ids.
run prefixes 6x6 --start a1 --split-depth 4 --shard-index 1 --shard-count 4
CHECKS=$((CHECKS + 1))
grep -v '^#' "$TMP/out" | awk -F'\t' '$1 % 4 != 1 { bad=1 } END { exit bad }' || fail "shard ids"

run prefixes 6x6 --start a1 --split-depth 2 --json
expect_exit 0
expect_json split_depth 2
expect_json prefix_rules pruned-v1

finish
