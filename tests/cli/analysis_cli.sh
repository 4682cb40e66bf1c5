#!/usr/bin/env bash
# The Python side: tour-stats draws tables and heat maps from run directories, and the
# package python/knightstour reads them;
# both agree with the tool's own counts.
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
PY="$HERE/../../scripts/py"
STATS="$HERE/../../scripts/tour-stats"

run count 5x5 --all-starts --run-dir "$TMP/count" --progress 0
expect_exit 0
# Run directly by a Python that cannot import numpy (-S: no site packages), a script runs
# again under scripts/py rather than end in a traceback.
python3 -S "$STATS" "$TMP/count" >"$TMP/out" 2>"$TMP/err"; CODE=$?; LAST="tour_stats without numpy"
expect_exit 0; expect_out '^- tours: 1,728, closed: 0$'
"$PY" "$STATS" "$TMP/count" >"$TMP/out" 2>"$TMP/err"; CODE=$?; LAST="tour_stats count"
expect_exit 0
expect_out '^- tours: 1,728, closed: 0$'
expect_out "^tables in $TMP/count/analysis/summary.md; plots by_start.png, start_end.png"
CHECKS=$((CHECKS + 1)); ! grep -q '^|' "$TMP/out" || fail "the tables printed (they are in summary.md)"
cp "$TMP/count/analysis/summary.md" "$TMP/out"
expect_out '^\| 3 \| 56 \| 0 \| 64 \| 0 \| 56 \|$'
# All starts: tours by start and the start x end matrix, each PNG with its CSV; no by_end
# (a tour read backwards swaps its ends, so it would repeat by_start).
for png in by_start start_end; do
  CHECKS=$((CHECKS + 1))
  head -c 8 "$TMP/count/analysis/$png.png" | grep -q PNG || fail "no $png.png"
  CHECKS=$((CHECKS + 1))
  [ -s "$TMP/count/analysis/$png.csv" ] || fail "no $png.csv"
done
CHECKS=$((CHECKS + 1)); [ ! -e "$TMP/count/analysis/by_end.png" ] || fail "by_end drawn for all starts"
CHECKS=$((CHECKS + 1)); grep -q '^c3,3,c,64$' "$TMP/count/analysis/by_start.csv" || fail "by_start.csv lacks c3,3,c,64"
CHECKS=$((CHECKS + 1))
python3 -c 'import csv,sys; rows=list(csv.reader(open(sys.argv[1]))); assert sum(int(v) for r in rows[1:] for v in r[1:]) == 1728' "$TMP/count/analysis/start_end.csv" || fail "start_end.csv does not sum to 1,728"

run enumerate 6x6 --start a1 --out "$TMP/enum" --compress zstd --progress 0
expect_exit 0
"$PY" "$STATS" "$TMP/enum" >"$TMP/out" 2>"$TMP/err"; CODE=$?; LAST="tour_stats enumerate"
expect_exit 0
expect_out '^- tours: 524,486, closed: 19,724$'
cp "$TMP/enum/analysis/summary.md" "$TMP/out"
expect_out '^\| 1 \| 1.0 \|'   # a1 is always move 1
CHECKS=$((CHECKS + 1)); head -c 8 "$TMP/enum/analysis/mean_move.png" | grep -q PNG || fail "no mean_move.png"

# Frontier runs, by what they hold: by units of end pairs the grid and the start x end
# matrix (equal to the enumerator's above), by pinned tails the grid, from one start counts.
run count 5x5 --all-starts --grid end-pairs --run-dir "$TMP/pairs" --progress 0
expect_exit 0
"$PY" "$STATS" "$TMP/pairs" >"$TMP/out" 2>"$TMP/err"; CODE=$?; LAST="tour_stats frontier end pairs"
expect_exit 0
expect_out '^- tours: 1,728, closed: 0 \(0 closed cycles\) \(frontier method'
cp "$TMP/pairs/analysis/summary.md" "$TMP/out"
expect_out '^\| 3 \| 56 \| 0 \| 64 \| 0 \| 56 \|$'
CHECKS=$((CHECKS + 1))
cmp -s "$TMP/pairs/analysis/start_end.csv" "$TMP/count/analysis/start_end.csv" || fail "start_end.csv differs from the enumerator's"
run count 5x5 --all-starts --method frontier --grid tails --run-dir "$TMP/tails" --progress 0
"$PY" "$STATS" "$TMP/tails" >"$TMP/out" 2>"$TMP/err"; CODE=$?; LAST="tour_stats frontier tails"
expect_exit 0
cp "$TMP/tails/analysis/summary.md" "$TMP/out"
expect_out '^\| 3 \| 56 \| 0 \| 64 \| 0 \| 56 \|$'
CHECKS=$((CHECKS + 1)); [ ! -e "$TMP/tails/analysis/start_end.png" ] || fail "a matrix drawn without one"
run count 6x6 --closed --method frontier --run-dir "$TMP/closed" --progress 0
"$PY" "$STATS" "$TMP/closed" >"$TMP/out" 2>"$TMP/err"; CODE=$?; LAST="tour_stats frontier closed"
expect_exit 0
expect_out '^- tours: 19,724, closed: 19,724 \(9,862 closed cycles\)'

# The offline install python/README.md gives: Debian's interpreter, a venv that sees its
# packages (numpy, matplotlib), pip without an index or build isolation. From a copy, so that
# the build leaves nothing in the tree.
cp -r "$HERE/../../python" "$TMP/pkg"
LAST="the package's offline install"
CHECKS=$((CHECKS + 1))
if /usr/bin/python3 -m venv --system-site-packages "$TMP/venv" >"$TMP/out" 2>&1 &&
  "$TMP/venv/bin/pip" install --quiet --no-index --no-build-isolation "$TMP/pkg" >"$TMP/out" 2>&1; then
  ( cd / && "$TMP/venv/bin/python" -c 'import sys, knightstour as kt
r = kt.Run(sys.argv[1])
assert kt.__file__.startswith(sys.prefix), kt.__file__
assert int(r.by_start().sum()) == 1728 and r.start_end_matrix().shape == (25, 25)' "$TMP/pairs" \
    >"$TMP/out" 2>&1 ) || fail "the installed package: $(cat "$TMP/out")"
else
  fail "$(tail -3 "$TMP/out")"
fi

# The package (python/knightstour): journal totals and tours from .npy.zst files.
"$PY" - "$HERE/../../python" "$TMP/enum" >"$TMP/out" 2>&1 <<'PYEOF'
import sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import knightstour as kt
from knightstour.run import read_tour_file
run = kt.Run(sys.argv[2])
j = run.journal()
t = np.concatenate([c for f in run.tour_files() for c in read_tour_file(f, run.rows, run.cols, 1 << 20)])
assert t.shape == (524486, 36) and int(j["tours"].sum()) == 524486, (t.shape, j["tours"].sum())
assert run.manifest["totals"]["tours"] == 524486
assert kt.square_name(35, 6) == "f6" and kt.square_name(26, 1) == "a27"
print("results ok")
PYEOF
CHECKS=$((CHECKS + 1)); grep -q "results ok" "$TMP/out" || { LAST="the package"; fail "$(cat "$TMP/out")"; }

finish
