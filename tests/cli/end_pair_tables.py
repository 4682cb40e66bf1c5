#!/usr/bin/env python3
"""scripts/end-pair-tables against the enumerator: the tables it writes from a count by
units of end pairs (two shards, merged) are the
enumerator's start x end matrix and grid, on 5x6 and 6x6; with --plot it draws both heat maps
as PNG; and it refuses, exit 1, a total
that is not the expected one and a count that is not complete.

Usage: end_pair_tables.py KNIGHTSTOUR"""
import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

import numpy as np  # noqa: E402

import knightstour as kt  # noqa: E402

KT = sys.argv[1]
TABLES = os.path.join(ROOT, "scripts", "end-pair-tables")
checks = 0


def run(*cmd):
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True)


def ok(result, what):
    assert result.returncode == 0, f"{what}: exit {result.returncode}: {result.stderr}"


with tempfile.TemporaryDirectory() as tmp:
    for board, tours in (("5x6", 37_568), ("6x6", 6_637_920)):
        rows, cols = map(int, board.split("x"))
        n = rows * cols
        # The enumerator's matrix, from the journal of its count.
        dfs = os.path.join(tmp, f"{board}-dfs")
        ok(run(KT, "count", board, "--all-starts", "--method", "dfs", "--run-dir", dfs,
               "--progress", "0"), f"{board} enumerator")
        want = kt.Run(dfs).start_end_matrix()
        # The frontier's, by units of end pairs in two shards, merged.
        shards = []
        for i in range(2):
            shards.append(os.path.join(tmp, f"{board}-s{i}"))
            ok(run(KT, "count", board, "--all-starts", "--method", "frontier", "--shard-index", i,
                   "--shard-count", 2, "--run-dir", shards[-1], "--progress", "0"), f"{board} shard {i}")
        merged = os.path.join(tmp, f"{board}-merged")
        ok(run(KT, "merge", *shards, "--out", merged), f"{board} merge")
        out = os.path.join(tmp, f"{board}-tables")
        r = run(TABLES, merged, "--out", out, "--expect", tours, "--plot", "--bin", KT)
        ok(r, f"{board} tables")
        for png in (f"{board}-open-by-start.png", f"{board}-open-a1-by-end.png"):
            with open(os.path.join(out, png), "rb") as f:
                assert f.read(8) == b"\x89PNG\r\n\x1a\n", f"{board}: {png} is not a PNG"
            checks += 1
        assert f"{tours:,} directed open tours" in r.stdout, r.stdout
        with open(os.path.join(out, f"{board}-open-start-end.csv")) as f:
            got = np.zeros((n, n), dtype=np.uint64)
            for row in csv.DictReader(f):
                got[kt.parse_square(row["start"], cols), kt.parse_square(row["end"], cols)] = int(row["tours"])
        assert (got == want).all(), f"{board}: start x end table differs from the enumerator's"
        with open(os.path.join(out, f"{board}-open-by-start.csv")) as f:
            grid = {row["square"]: int(row["tours"]) for row in csv.DictReader(f)}
        assert [grid[kt.square_name(s, cols)] for s in range(n)] == [int(x) for x in want.sum(axis=1)]
        checks += 2
        # A wrong expected total is refused.
        r = run(TABLES, merged, "--out", out, "--expect", tours + 1, "--bin", KT)
        assert r.returncode == 1 and "not the expected" in r.stderr, (r.returncode, r.stderr)
        checks += 1
    # One shard alone is not the whole count.
    r = run(TABLES, os.path.join(tmp, "6x6-s0"), "--out", os.path.join(tmp, "x"), "--bin", KT)
    assert r.returncode == 1 and "is shard 0 of 2: merge every shard first" in r.stderr, (
        r.returncode, r.stderr)
    checks += 1

print(f"{checks} checks, 0 failures")
