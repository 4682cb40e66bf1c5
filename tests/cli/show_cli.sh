#!/usr/bin/env bash
# knightstour show: one tour of a run or a file, as a grid and as an SVG picture; find --svg.
. "$(dirname "$0")/lib.sh"

run enumerate 5x5 --start a1 --out "$TMP/R"; expect_exit 0
run show "$TMP/R" --row 7 --svg "$TMP/t.svg"
expect_exit 0
expect_out '^tour +row 7 of '
expect_out '^board +5x5, from a1 to [a-e][1-5], open$'
expect_out '^1 \| +1 '          # rank 1 at the bottom, the start a1 numbered 1
expect_out '^ +a +b +c +d +e$'
# The grid is row 7 as numpy reads the run, and the picture draws the same path.
CHECKS=$((CHECKS + 1))
"$(dirname "$0")/../../scripts/py" - "$TMP" <<'PY' || fail "show's grid or SVG differs from the tour numpy reads"
import glob, os, re, sys
import numpy as np
import xml.etree.ElementTree as ET
d = sys.argv[1]
files = sorted(glob.glob(os.path.join(d, "R", "tours-*.npy")), key=lambda n: int(re.findall(r"(\d+)\.npy", n)[0]))
tour = np.concatenate([np.load(f) for f in files])[7]
grid = [line for line in open(os.path.join(d, "out")).read().splitlines() if re.match(r"^[1-5] \|", line)]
numbers = {}
for line in grid:
    rank, cells = line.split("|")
    for col, value in enumerate(cells.split()):
        numbers[(int(rank) - 1) * 5 + col] = int(value)
assert [numbers[int(s)] for s in tour] == list(range(1, 26)), "grid"
svg = ET.parse(os.path.join(d, "t.svg")).getroot()
ns = "{http://www.w3.org/2000/svg}"
points = svg.find(f"{ns}polyline").get("points").split()
assert len(points) == 25, len(points)
x0, y0 = map(float, points[0].split(","))
x1, y1 = map(float, points[1].split(","))
assert abs(abs(x1 - x0) * abs(y1 - y0) - 2 * 48 * 48) < 1, "first move is no knight move"
assert len(svg.findall(f"{ns}circle")) >= 2
PY
run show "$TMP/R" --row 1e6;          expect_usage_error 'row 1,000,000 is past the end: .* holds 304 tours'
run show "$TMP/R/tours-0-0.npy";      expect_exit 0; expect_out 'from a1'   # board from the manifest beside it
cp "$TMP/R/tours-0-0.npy" "$TMP/bare.npy"
run show "$TMP/bare.npy";             expect_usage_error 'give --board RxC'
run show "$TMP/bare.npy" --board 5x5; expect_exit 0
run count 5x5 --start a1 --run-dir "$TMP/C"; expect_exit 0
run show "$TMP/C";                    expect_usage_error 'a count run'
run show "$TMP/R" "$TMP/C";           expect_usage_error 'one run directory or tour file'
run show;                             expect_usage_error 'needs a run directory'

# A text file knows its board; a closed tour's picture closes with a dashed line.
run find 6 --closed --format text --out "$TMP/c.txt" --svg "$TMP/c.svg"; expect_exit 0
run show "$TMP/c.txt";                expect_exit 0; expect_out 'closed \(the last square'
CHECKS=$((CHECKS + 1)); grep -q 'stroke-dasharray' "$TMP/c.svg" || fail "no closing line in c.svg"
run find 2000 --svg "$TMP/big.svg";   expect_usage_error 'at most 1,000,000 squares'

finish
