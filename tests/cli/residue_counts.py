#!/usr/bin/env python3
"""count --modulus P: residues against the exact counts of results/rows/, and how they print.

Rows whose terms pass 64 bits (5 x n closed from n = 22, 5 x n open from 19, 6 x n closed from
23), counted modulo two primes, must give every committed term's residue; a 3 x n closed row
that an exact count refuses (its bound passes 1024 bits) must give residues that obey
A169764's recurrence. Every count a person reads is marked as a residue: `(mod P)` in the text, `modulus`
in the JSON and the CSV. A modulus that is not an odd prime below 2^62, and the jobs that
would keep or divide residues, are refused with one line and exit 2.

A row counted in residue units (--residue-unit K --run-dir), one of them stopped and resumed,
merges into the exact row; the merge refuses a set that lacks a unit, a unit given twice, exact
counts among residues, and a unit whose spare residue disagrees (a forged one), writing nothing.

Usage: residue_counts.py KNIGHTSTOUR (run by scripts/py: it imports knightstour.frontier)"""
import csv
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROWS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "results", "rows")
PRIMES = [4611686018427387847, 1000003]  # 2^62 - 57, and one that folds often


def run(kt, *args, ok=True):
    quiet = ["--progress", "0"] if args[0] == "count" else []
    out = subprocess.run([kt, *args, *quiet], capture_output=True, text=True)
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
        (["count", "5x30", "--closed", "--every-length", "--residue-unit", "6", "--run-dir",
          os.path.join(tmp, "r")], "this count has 6 residue units"),
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


def stop_with_a_checkpoint(kt, args, unit):
    """Runs `args` (a count into `unit`) under time limits until one stops it past its first
    step (a checkpoint kept): a busy machine may not finish the first step in time, an idle
    one may finish the count."""
    limit = 0.3
    for _ in range(8):
        out = run(kt, *args, "--time-limit", str(limit), "--checkpoint", "0.05", ok=False)
        kept = glob.glob(os.path.join(unit, "checkpoint-*"))
        if out.returncode == 3 and kept:
            assert "--resume" in out.stdout, out.stdout
            return
        assert out.returncode in (0, 3), out.stderr
        limit = limit / 2 if out.returncode == 0 else limit * 2
        subprocess.run(["rm", "-rf", unit], check=True)
    raise AssertionError("no time limit stopped the count with a checkpoint kept")


def row_table(kt, tmp, merged, spare, forged):
    """scripts/row-table checks a merged row by its spare residue unit, and refuses a forged one."""
    table = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                         "row-table")

    def unit_json(unit):
        path = unit + ".json"
        with open(path, "w") as f:
            f.write(run(kt, "count", "--run-dir", unit, "--resume", "--json").stdout)
        return path

    row = unit_json(merged)
    out = os.path.join(tmp, "table.csv")
    got = subprocess.run([sys.executable, table, row, "--check", unit_json(spare), "--out", out],
                         capture_output=True, text=True)
    assert got.returncode == 0, got.stderr
    with open(out, newline="") as f:
        lines = {int(r["length"]): r for r in csv.DictReader(f)}
    assert lines[30]["checked"] == "modulo 4611686018427387737", lines[30]  # the spare
    got = subprocess.run([sys.executable, table, row, "--check", unit_json(forged), "--out",
                          os.path.join(tmp, "forged.csv")], capture_output=True, text=True)
    assert got.returncode != 0 and "5x26 closed: " in got.stderr, got.stderr
    assert not os.path.exists(os.path.join(tmp, "forged.csv"))
    print("row-table checks a merged row by its spare residue unit and refuses a forged unit")


def check_units(kt, tmp):
    from knightstour.frontier import manifest_checksum
    row = ["count", "5x30", "--closed", "--every-length"]
    units = []
    while True:
        unit = os.path.join(tmp, f"unit{len(units)}")
        args = [*row, "--residue-unit", str(len(units)), "--run-dir", unit]
        if not units:  # the first is stopped and resumed from its checkpoint
            stop_with_a_checkpoint(kt, args, unit)
            run(kt, "count", "--run-dir", unit, "--resume")
        else:
            out = run(kt, *args, ok=False)
            if out.returncode == 2:
                assert f"has {len(units)} residue units" in out.stderr, out.stderr
                assert not os.path.exists(unit)
                break
            assert out.returncode == 0, out.stderr
        units.append(unit)
    assert len(units) == 6, units  # 5 primes for 5x34's bound, and a spare
    status = run(kt, "status", units[0]).stdout
    assert "modulo 4611686018427387847" in status and "a residue, not the count" in status, status
    assert ", residue unit 0 of 6" in status, status
    # A root of the units (as scripts/slurm/submit --shards residues makes): one job's set,
    # unit by unit, never a sum of residues.
    root = os.path.join(tmp, "root")
    os.makedirs(root)
    for i, unit in enumerate(units):
        subprocess.run(["cp", "-r", unit, os.path.join(root, f"shard-{i}")], check=True)
    status = run(kt, "status", root).stdout
    assert "over 6 of 6 residue units" in status, status
    assert "\nunit 5     shard-5 (modulo 4611686018427387737):" in status, status
    # The root is the job, not one unit's residue: its title names no modulus.
    title = status.splitlines()[0]
    assert title.startswith("root ") and "5xn closed" in title and "modulo" not in title, title
    assert "residues   every unit finished" in status and "knightstour merge" in status, status
    assert "tours      " not in status and "problem" not in status, status
    subprocess.run(["rm", "-rf", os.path.join(root, "shard-2")], check=True)
    out = run(kt, "status", root, ok=False)
    assert out.returncode == 4, (out.returncode, out.stderr)
    status = out.stdout
    assert "over 5 of 6 residue units" in status, status
    assert "1 residue unit of 6 not found here (2): not started" in status, status
    assert "knightstour merge" not in status, status
    merged = os.path.join(tmp, "merged")
    out = run(kt, "merge", *units, "--out", merged).stdout
    assert "checked by the spare modulo" in out, out
    path = os.path.join(tmp, "merged.csv")
    run(kt, "count", "--run-dir", merged, "--resume", "--csv", path)
    with open(path, newline="") as f:
        got = {int(r["length"]): int(r["closed_cycles"]) for r in csv.DictReader(f)}
    assert got == committed("5-closed.csv", "closed_cycles", 30), got
    assert "modulus" not in open(path).readline()

    exact = os.path.join(tmp, "exact")
    run(kt, *row, "--run-dir", exact)
    forged = os.path.join(tmp, "forged")
    subprocess.run(["cp", "-r", units[-1], forged], check=True)
    with open(os.path.join(forged, "manifest.json")) as f:
        m = json.load(f)
    for s in m["frontier"]["finished"]:
        if s["sweep"] == 25:
            s["count"] = str(int(s["count"]) + 1)
    m["frontier"]["checksum"] = manifest_checksum(m)
    with open(os.path.join(forged, "manifest.json"), "w") as f:
        json.dump(m, f, indent=2)
    run(kt, "verify", forged)  # a unit that checks out alone: only the spare can tell
    refused = [
        (units[:-2] + units[-1:], "lack a prime"),
        (units + units[:1], "is given twice"),
        (units[:-1] + [exact], "holds exact counts"),
        (units[:-1] + [forged], "disagrees with the others'"),
    ]
    row_table(kt, tmp, merged, units[-1], forged)
    for dirs, words in refused:
        out = run(kt, "merge", *dirs, "--out", os.path.join(tmp, "refused"), ok=False)
        lines = out.stderr.strip().splitlines()
        assert out.returncode == 2 and len(lines) == 1 and words in lines[0], (words, out.stderr)
        assert not os.path.exists(os.path.join(tmp, "refused"))
    print(f"5x30 closed in {len(units)} residue units: merged into the exact row; "
          f"{len(refused)} merges refused")
    out = run(kt, "estimate", "7x6", "--closed", "--residue-unit", "1", "--calibrate", "5").stdout
    assert "this is one of 2 residue units (count --residue-unit 0 to 1" in out, out
    assert "tours (mod 4611686018427387817)" in out, out
    out = run(kt, "estimate", "8x32", "--closed", "--every-length", "--residue-unit", "0",
              "--calibrate", "0.5").stdout
    assert "one of 9 residue units" in out and re.search(r"~[0-9].* a unit, ~[0-9].* in all", out), out
    assert re.search(r"\n           8x32 \(the sweep across the rows, lengths 8 to 32\): ~", out), out
    print("estimate sizes a residue unit and says how many the count takes (a row by its boards)")


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
        check_units(kt, tmp)


if __name__ == "__main__":
    main()
