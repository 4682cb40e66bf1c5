#!/usr/bin/env bash
# What guards a run directory: one writer even when .lock is removed, a resume whose command
# line names another count refused, and nothing a killed run left behind kept past the next.
source "$(dirname "$0")/lib.sh"

# wait_for FILE : until FILE exists (at most 20 s).
wait_for() {
  for _ in $(seq 400); do [ -e "$1" ] && return 0; sleep 0.05; done
  return 1
}

# One writer, whatever happened to .lock: the directory itself is locked.
for method in frontier dfs; do
  D="$TMP/one-writer-$method"
  if [ $method = frontier ]; then
    "$KT" count 7x8 --closed --method frontier --run-dir "$D" --time-limit 4 --threads 1 \
      --progress 0 >/dev/null 2>&1 &
  else
    "$KT" count 7x7 --start a1 --method dfs --run-dir "$D" --time-limit 4 --threads 1 \
      --progress 0 >/dev/null 2>&1 &
  fi
  FIRST=$!
  wait_for "$D/manifest.json"
  sleep 0.3
  rm -f "$D/.lock"
  run count --run-dir "$D" --resume --progress 0
  expect_usage_error "run directory .* is in use by another knightstour process"
  wait "$FIRST"
  CODE=$?
  LAST="the first writer ($method)"
  expect_exit 3
  run count --run-dir "$D" --resume --time-limit 0.5 --progress 0   # free again once it ended
  CHECKS=$((CHECKS + 1))
  [ "$CODE" -eq 0 ] || [ "$CODE" -eq 3 ] || fail "exit $CODE after the first writer ended"
done

# A resume whose command line names another count than the run is refused, naming both.
D="$TMP/closed-frontier"
run count 6x10 --closed --method frontier --run-dir "$D" --progress 0
expect_exit 0
run count 6x10 --start a1 --run-dir "$D" --resume --progress 0
expect_usage_error "asks for another count than the run in .*open tours vs closed \(add --closed\)"
run count 6x10 --start a1 --closed --run-dir "$D" --resume --progress 0   # the same count
expect_exit 0
expect_out '^cycles +239,187,240,144 closed cycles'
run count --run-dir "$D" --resume --progress 0   # nothing named: the run as it is
expect_exit 0
D="$TMP/closed-dfs"
run count 6x6 --start a1 --closed --method dfs --run-dir "$D" --progress 0
expect_exit 0
run count 6x6 --start a1 --run-dir "$D" --resume --progress 0
expect_usage_error "started with different parameters.*closed true vs false"
D="$TMP/open-frontier"
run count 6x10 --start a1 --method frontier --run-dir "$D" --time-limit 0.2 --progress 0
run count 6x10 --start a1 --closed --run-dir "$D" --resume --progress 0
expect_usage_error "asks for another count than the run in .*closed tours vs open"

# Nothing left behind: what a killed run left in the run directory (a partial checkpoint, a
# spill folder) goes with the next session, and a complete run holds neither.
D="$TMP/left"
run count 6x10 --closed --method frontier --run-dir "$D" --checkpoint 0 --time-limit 0.15 --progress 0
mkdir -p "$D/spill" && echo partial >"$D/checkpoint-0.bin.tmp"
run count --run-dir "$D" --resume --progress 0
expect_exit 0
CHECKS=$((CHECKS + 1))
[ ! -e "$D/spill" ] && [ ! -e "$D/checkpoint-0.bin.tmp" ] || fail "left behind: $(ls -A "$D")"
# Spill folders of killed counts in a --spill-dir go, unless a live process holds one.
SP="$TMP/spill-here"
mkdir -p "$SP/knightstour-spill-dead01" "$SP/knightstour-spill-live01" "$SP/knightstour-spill-fresh1" "$SP/other"
touch -d '1 minute ago' "$SP/knightstour-spill-dead01" "$SP/knightstour-spill-live01"
flock "$SP/knightstour-spill-live01" sleep 30 &
HOLDER=$!
sleep 0.3
run count 6x6 --closed --method frontier --spill-dir "$SP" --progress 0
kill "$HOLDER" 2>/dev/null
expect_exit 0
expect_err "removed knightstour-spill-dead01, left behind by a count that was killed"
CHECKS=$((CHECKS + 1))
[ ! -e "$SP/knightstour-spill-dead01" ] && [ -d "$SP/knightstour-spill-live01" ] \
  && [ -d "$SP/knightstour-spill-fresh1" ] && [ -d "$SP/other" ] \
  && [ "$(ls "$SP" | wc -l)" -eq 3 ] || fail "spill dir holds: $(ls "$SP")"
finish
