#!/usr/bin/env python3
"""count --modulus P: residues against the exact counts of results/rows/, and how they print.

Rows whose terms pass 64 bits (5 x n closed from n = 22, 5 x n open from 19, 6 x n closed from
23), counted modulo two primes, must give every committed term's residue; a 3 x n closed row
that an exact count refuses (its bound passes 1024 bits) must give residues that obey
A169764's recurrence. Every count a person reads is marked as a residue: `(mod P)` in the text, `modulus`
in the JSON and the CSV. A modulus that is not an odd prime below 2^62, and the jobs that
would keep or divide residues, are refused with one line and exit 2.

Usage: residue_counts.py KNIGHTSTOUR"""
import csv
import json
import os
import subprocess
import sys
import tempfile

ROWS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "results", "rows")
PRIMES = [4611686018427387847, 1000003]  # 2^62 - 57, and one that folds often


def run(kt, *args, ok=True):
    out = subprocess.run([kt, *args, "--progress", "0"], capture_output=True, text=True)
    if ok:
        assert out.returncode == 0, (args, out.stderr)
    return out


def committed(name, column, longest):
    with open(os.path.join(ROWS, name), newline="") as f:
        return {int(r["length"]): int(r[column]) for r in csv.DictReader(f)
                if int(r["length"]) <= longest}


def check_row(kt, tmp, board, flags, name, column, longest):
    exact = committed(name, column, longest)
    assert max(exact.values()) >= 2**64, f"{board}: no term past 64 bits to fold"
    for p in PRIMES:
        path = os.path.join(tmp, "row.csv")
        run(kt, "count", board, *flags, "--every-length", "--modulus", str(p), "--csv", path)
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        assert [int(r["length"]) for r in rows] == list(range(1, longest + 1)), board
        for r in rows:
            n = int(r["length"])
            assert r["modulus"] == str(p), (board, r)
            assert int(r[column]) == exact[n] % p, f"{board[0]}x{n} mod {p}: {r[column]}"
    print(f"{board} {' '.join(flags)}: {longest} terms equal modulo {len(PRIMES)} primes")


def check_past_1024_bits(kt):
    # A169764's recurrence in steps of 2 (tests/cli/wide_counts.py), taken modulo p: an exact
    # count of the row 3 x 400 is refused (its bound passes 1024 bits); its residues obey it.
    P = [1, -6, -64, 200, 1000, -3016, -3488, 24256, -23776, -104168, 203408, 184704, -443392,
         -14336, 151296, -145920, 263424, -317440, -36864, 966656, -573440, -131072]
    p = PRIMES[0]
    out = run(kt, "count", "3x400", "--closed", "--every-length", "--modulus", str(p), "--json")
    cycles = {r["length"]: r["closed_cycles"] for r in json.loads(out.stdout)["by_length"]}
    exact = run(kt, "count", "3x400", "--closed", "--every-length", ok=False)
    assert exact.returncode == 2 and "1024 bits" in exact.stderr, exact.stderr
    checked = 0
    for n in range(360, 401, 2):
        s = sum(c * cycles[n - 2 * i] for i, c in enumerate(P))
        assert s % p == 0, f"3x{n} mod {p} breaks A169764's recurrence"
        checked += 1
    print(f"3x400 closed: {checked} residues past 1024 bits obey the recurrence")


def check_marked(kt):
    p = "1000003"
    text = run(kt, "count", "6x6", "--closed", "--modulus", p).stdout
    count_lines = [l for l in text.splitlines() if l.startswith(("tours ", "cycles "))]
    assert len(count_lines) == 2 and all(f"(mod {p})" in l for l in count_lines), text
    assert f"modulus    {p}:" in text, text
    j = json.loads(run(kt, "count", "6x6", "--closed", "--modulus", p, "--json").stdout)
    assert j["modulus"] == int(p) and j["closed_cycles"] == 9862 % int(p), j
    j = json.loads(run(kt, "count", "6x6", "--closed", "--json").stdout)
    assert j["modulus"] is None, j
    print("residues are marked in text, JSON and CSV")


def check_refused(kt, tmp):
    cases = [
        (["count", "5x5", "--closed", "--modulus", "10"], "--modulus expects an odd prime"),
        (["count", "5x5", "--closed", "--modulus", "2"], "--modulus expects an odd prime"),
        (["count", "5x5", "--closed", "--modulus", str(2**62 + 135)], "below 2^62"),
        (["count", "5x5", "--closed", "--modulus", "x"], "--modulus expects a whole number"),
        (["count", "5x5", "--closed", "--modulus", "13", "--method", "dfs"],
         "--modulus applies to the frontier method only"),
        (["count", "5x5", "--closed", "--modulus", "13", "--run-dir", os.path.join(tmp, "r")],
         "leave out --run-dir"),
        (["count", "5x6", "--all-starts", "--modulus", "13", "--grid", "pass"], "divide counts"),
        (["count", "5x6", "--all-starts", "--modulus", "13", "--shard-count", "2",
          "--shard-index", "0"], "--modulus the frontier method"),
        (["count", "5x6", "--all-starts", "--modulus", "13", "--shard-count", "2",
          "--shard-index", "0", "--method", "frontier"], "leave out --shard-count"),
    ]
    for args, words in cases:
        out = run(kt, *args, ok=False)
        lines = out.stderr.strip().splitlines()
        assert out.returncode == 2 and len(lines) == 1 and words in lines[0], (args, out.stderr)
    assert not os.path.exists(os.path.join(tmp, "r")), "a refused count left a run directory"
    print(f"{len(cases)} refusals, one line each, exit 2")


def main():
    kt = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        check_row(kt, tmp, "5x134", ["--closed"], "5-closed.csv", "closed_cycles", 134)
        check_row(kt, tmp, "5x40", ["--all-starts", "--total-only"], "5-open.csv",
                  "tours_undirected", 40)
        check_row(kt, tmp, "6x30", ["--closed"], "6-closed.csv", "closed_cycles", 30)
        check_past_1024_bits(kt)
        check_marked(kt)
        check_refused(kt, tmp)


if __name__ == "__main__":
    main()
