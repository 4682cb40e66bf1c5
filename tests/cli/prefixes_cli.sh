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

# Shards partition the plan, each prefix in the same shard as its mirror image (a1 is fixed
# by the reflection in the a1-f6 diagonal, which swaps files and ranks).
: >"$TMP/shards"
for i in 0 1 2 3; do
  run prefixes 6x6 --start a1 --split-depth 4 --shard-index $i --shard-count 4
  expect_exit 0
  grep -v '^#' "$TMP/out" | sed "s/^/$i\t/" >>"$TMP/shards"
done
run prefixes 6x6 --start a1 --split-depth 4
grep -v '^#' "$TMP/out" >"$TMP/all"
CHECKS=$((CHECKS + 1))
python3 - "$TMP/shards" "$TMP/all" <<'PY' || fail "shards do not partition the plan by orbit"
import sys
shard_of = {}
for line in open(sys.argv[1]):
    shard, pid, squares = line.rstrip("\n").split("\t")
    assert squares not in shard_of, f"{squares} in two shards"
    shard_of[squares] = shard
every = [line.rstrip("\n").split("\t")[1] for line in open(sys.argv[2])]
assert sorted(every) == sorted(shard_of), "the shards do not cover the plan"
mirror = lambda p: ",".join(chr(ord("a") + int(s[1:]) - 1) + str(ord(s[0]) - ord("a") + 1) for s in p.split(","))
for squares, shard in shard_of.items():
    assert shard_of[mirror(squares)] == shard, f"{squares} and its mirror image in different shards"
assert len(set(shard_of.values())) == 4
PY

run prefixes 6x6 --start a1 --split-depth 2 --json
expect_exit 0
expect_json split_depth 2
expect_json prefix_rules pruned-v1

finish
