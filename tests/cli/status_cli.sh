#!/usr/bin/env bash
# status reads where a run, or a job's shards, stand, without writing or locking; reading a
# finished run (count --resume) writes nothing either, on a read-only disk too.
. "$(dirname "$0")/lib.sh"

# A job's shards, some stopped part-way: what is done, what is left, what to do next.
R="$TMP/job"
for i in 0 1 2; do
  limit=""; [ $i -gt 0 ] && limit="--time-limit 0.05"
  run count 6x6 --all-starts --grid end-pairs --shard-index $i --shard-count 3 \
    --run-dir "$R/shard-$i" --progress 0 $limit
done
run status "$R"
expect_exit 0
expect_out '^root +.*: 6x6 open, all starts by end pairs$'
expect_out '^shard 0 +shard-0: 15 of 15 units finished; .*; complete$'
expect_out '^shard 1 +shard-1: [0-9]+ of 15 units finished.*; incomplete \(time limit'
expect_out '^units +[0-9]+ of 45 finished over 3 of 3 shards'
expect_out '^next +submit the job again'
run status "$R" --json
expect_exit 0
expect_json planned 45
expect_json shard_count 3
for i in 1 2; do
  run count --run-dir "$R/shard-$i" --resume --progress 0
  expect_exit 0
done
run status "$R"
expect_out '^tours +6,637,920 \(summed over the shards\)'  # DESIGN.md: 6x6 over all starts
expect_out "^next +knightstour merge $R/shard-0 $R/shard-1 $R/shard-2 --out $R/merged"
run merge "$R/shard-0" "$R/shard-1" "$R/shard-2" --out "$R/merged"
run status "$R"
expect_out '^merged +merged: complete; 45 of 45 units finished'
expect_out '^tours +6,637,920 \(from merged\)'
run status "$R/shard-1"
expect_out '^units +15 of 15 finished'
expect_out "^tours +[0-9,]+ \(this shard's share"

# A run being counted: status reads it while the count holds its lock, and says so.
D="$TMP/live"
"$KT" count 6x40 --closed --run-dir "$D" --checkpoint 0 --progress 0 --threads 1 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do [ -s "$D/sweeps.tsv" ] && break; sleep 0.05; done
run status "$D"
expect_exit 0
expect_out "^status +running \(process $pid\)"
expect_out '^sweeps +0 of 1 finished, sweep 0 under way from step [0-9]+'
kill -INT "$pid"; wait "$pid"
run status "$D"
expect_out '^next +knightstour count --run-dir .* --resume'

# The enumerator's shards.
for i in 0 1; do
  run count 5x5 --all-starts --run-dir "$TMP/enum/shard-$i" --shard-index $i --shard-count 2 \
    --method dfs --progress 0
done
run status "$TMP/enum"
expect_exit 0
expect_out '^prefixes +[0-9,]+ of [0-9,]+ finished over 2 of 2 shards'
expect_out '^tours +1,728 \(summed over the shards\)'

mkdir "$TMP/empty"
run status "$TMP/empty"
expect_usage_error 'holds no run'

# Reading a finished run writes nothing: no session, no lock file, the same bytes.
for dir in "$R/merged" "$TMP/enum/shard-0"; do
  rm -f "$dir/.lock"
  before=$(cd "$dir" && ls -A && cat ./*)
  run count --run-dir "$dir" --resume --progress 0
  expect_exit 0
  CHECKS=$((CHECKS + 1))
  [ "$before" = "$(cd "$dir" && ls -A && cat ./*)" ] || fail "reading $dir wrote to it"
done
# ... and on a read-only disk it reads (where this process may mount one).
mkdir "$TMP/ro"
if mount --bind -o ro "$R/merged" "$TMP/ro" 2>/dev/null; then
  run count --run-dir "$TMP/ro" --resume --json
  expect_exit 0
  expect_json tours 6637920
  run status "$TMP/ro"; expect_exit 0
  run verify "$TMP/ro"; expect_exit 0
  umount "$TMP/ro"
fi

# Many shards: the complete ones on one line, not one line each.
for i in $(seq 0 13); do
  run count 5x5 --all-starts --method dfs --shard-index "$i" --shard-count 14 \
    --run-dir "$TMP/many/shard-$i" --progress 0
done
run status "$TMP/many"
expect_exit 0
expect_out '^complete +14 shards \(not listed one by one'
expect_out '^tours +1,728 \(summed over the shards\)'
CHECKS=$((CHECKS + 1)); ! grep -q '^shard ' "$TMP/out" || fail "complete shards listed one by one"

# A run resumed: the summary gives this session's time and the run's over its sessions.
run count 6x6 --start a1 --method dfs --run-dir "$TMP/twice" --max-nodes 2000000 --threads 1 --progress 0
expect_exit 3
run count --run-dir "$TMP/twice" --resume --progress 0
expect_exit 0
expect_out '^time +[0-9.]+ s .*; the run: [0-9.]+ s over 2 sessions \([0-9.]+ CPU-seconds\)$'
run count --run-dir "$TMP/twice" --resume --json --progress 0
expect_json sessions 2

finish
