#!/usr/bin/env python3
"""ab.py REPS GRID BOARD... : base and new binaries alternating, all-starts frontier grid;
prints median seconds of each and new/base, and whether the grids agree."""
import json, os, statistics, subprocess, sys
reps, grid, boards = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
d = os.path.dirname(os.path.abspath(__file__))
for board in boards:
    t = {"base": [], "new": []}; out = {}
    for _ in range(reps):
        for v in ("base", "new"):
            r = subprocess.run([f"{d}/ks-{v}", "count", board, "--all-starts", "--method", "frontier",
                                "--json", "--progress", "0"], env=dict(os.environ, KNIGHTSTOUR_GRID=grid),
                               capture_output=True, text=True, check=True)
            j = json.loads(r.stdout); t[v].append(j["seconds"]); out[v] = j
    same = out["base"]["tours_by_start"] == out["new"]["tours_by_start"]
    b, n = statistics.median(t["base"]), statistics.median(t["new"])
    print(f"| {board} | {grid} | {b:.3f} | {n:.3f} | {n / b:.3f} | {out['new']['grid_method']} | {'same' if same else 'DIFFER'} |", flush=True)
