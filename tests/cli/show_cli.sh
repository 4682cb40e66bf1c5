#!/usr/bin/env bash
# knightstour show: one tour of a run or a file, as a grid and as an SVG or PNG picture; find
# --svg, --png.
. "$(dirname "$0")/lib.sh"

run enumerate 5x5 --start a1 --out "$TMP/R"; expect_exit 0
run show "$TMP/R" --row 7 --svg "$TMP/t.svg"
expect_exit 0
expect_out '^tour +row 7 of '
expect_out '^board +5x5, from a1 to [a-e][1-5], open$'
expect_out '^1 \| +1 '          # rank 1 at the bottom, the start a1 numbered 1
expect_out '^ +a +b +c +d +e$'
# The grid is the tour numpy reads at the file and row the header names, and the picture
# draws the same path.
CHECKS=$((CHECKS + 1))
"$(dirname "$0")/../../scripts/py" - "$TMP" <<'PY' || fail "show's grid or SVG differs from the tour numpy reads"
import glob, os, re, sys
import numpy as np
import xml.etree.ElementTree as ET
d = sys.argv[1]
out = open(os.path.join(d, "out")).read()
name, row = re.search(r"\((tours-\d+-\d+\.npy) row ([\d,]+), work unit \d+, its tour \d+\)", out).groups()
tour = np.load(os.path.join(d, "R", name))[int(row.replace(",", ""))]
grid = [line for line in out.splitlines() if re.match(r"^[1-5] \|", line)]
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
# Rows count over work units, not files: the same row is the same tour whichever thread wrote
# which file (one thread and small parts against two threads), and rows 0..303 are the 304
# tours, each once.
run enumerate 6x6 --start a1 --out "$TMP/T1" --threads 1 --part-size 64K; expect_exit 0
run enumerate 6x6 --start a1 --out "$TMP/T2" --threads 2; expect_exit 0
for row in 0 1 4999 123456 524485; do
  CHECKS=$((CHECKS + 1))
  a=$("$KT" show "$TMP/T1" --row $row | sed 1d); b=$("$KT" show "$TMP/T2" --row $row | sed 1d)
  [ -n "$a" ] && [ "$a" = "$b" ] || fail "show --row $row differs between two runs of one command"
done
# Python numbers rows the same way.
"$KT" show "$TMP/T2" --row 123456 > "$TMP/shown"
CHECKS=$((CHECKS + 1))
"$(dirname "$0")/../../scripts/py" - "$TMP" <<'PY' || fail "kt.Run.tour(123456) is not the tour show --row 123456 shows"
import os, re, sys
import knightstour as kt
d = sys.argv[1]
shown = [l for l in open(os.path.join(d, "shown")).read().splitlines() if re.match(r"^[1-6] \|", l)]
for run in ("T1", "T2"):
    g = kt.grid(kt.Run(os.path.join(d, run)).tour(123456), 6, 6)[::-1]
    assert [[int(v) for v in l.split("|")[1].split()] for l in shown] == g.tolist(), run
PY
CHECKS=$((CHECKS + 1))
distinct=$(for row in $(seq 0 303); do "$KT" show "$TMP/R" --row $row | sed 1d | md5sum; done | sort -u | wc -l)
[ "$distinct" = 304 ] || fail "rows 0..303 of 5x5 a1 are $distinct distinct tours, not 304"
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
run find 2000 --png "$TMP/big.png";   expect_usage_error '--png draws boards of at most 1,000,000 squares'

# The same picture as PNG (cairo): find and show write one in one command, of the size the
# SVG declares; a count says where a picture comes from.
run find 8 --png "$TMP/f.png" --svg "$TMP/f.svg"; expect_exit 0
run show "$TMP/R" --row 7 --png "$TMP/t.png"
expect_exit 0; expect_out "^png +$TMP/t.png$"
run show "$TMP/R" --png "$TMP/nowhere/t.png"; expect_usage_error '--png .*: no such directory'
CHECKS=$((CHECKS + 1))
python3 - "$TMP" <<'PY' || fail "a PNG that is not the SVG's picture"
import os, re, struct, sys
d = sys.argv[1]
for name in ("f", "t"):
    png = open(os.path.join(d, name + ".png"), "rb").read()
    assert png[:8] == b"\x89PNG\r\n\x1a\n", name
    width, height = struct.unpack(">II", png[16:24])
    if name == "f":
        svg = open(os.path.join(d, "f.svg")).read()
        w, h = (float(v) for v in re.search(r'width="([\d.]+)" height="([\d.]+)"', svg).groups())
        assert (width, height) == (round(w), round(h)), (width, height, w, h)
    assert width > 200 and height > 200, (width, height)
PY
run count 6x6 --start a1 --svg "$TMP/x.svg"
expect_usage_error 'a count draws no picture. One tour, drawn: knightstour find BOARD --svg FILE; one of the tours counted: knightstour enumerate .*--sample 1 .*show DIR --svg FILE'
run count 6x6 --start a1 --png "$TMP/x.png"; expect_usage_error 'show DIR --png FILE'

finish
