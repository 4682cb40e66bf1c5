#!/usr/bin/env python3
"""count --json of both methods against the key table in docs/formats.md: every key the table
gives a method is there with its type, and no other key is. Usage: count_json.py KNIGHTSTOUR"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def key_table():
    text = open(os.path.join(ROOT, "docs", "formats.md"), encoding="utf-8").read()
    body = text.split("<!-- count-json-keys")[1].split("<!-- end count-json-keys -->")[0]
    keys = {}
    for line in body.splitlines():
        m = re.match(r"\|\s*`(\w+)`\s*\|\s*([\w?]+)\s*\|\s*(\w+)\s*\|", line)
        if m:
            keys[m.group(1)] = (m.group(2), m.group(3))
    assert len(keys) > 40, f"the key table in docs/formats.md has {len(keys)} keys"
    return keys


def type_ok(kind, v):
    if kind.endswith("?"):
        if v is None:
            return True
        kind = kind[:-1]
    is_int = isinstance(v, int) and not isinstance(v, bool)
    return {
        "string": isinstance(v, str),
        "int": is_int and v >= 0,
        "count": is_int and v >= 0,
        "bool": isinstance(v, bool),
        "number": isinstance(v, (int, float)) and not isinstance(v, bool),
        "object": isinstance(v, dict),
        "strings": isinstance(v, list) and all(isinstance(x, str) for x in v),
        "counts": isinstance(v, list) and all(isinstance(x, int) and x >= 0 for x in v),
        "table": isinstance(v, list) and all(type_ok("counts", row) for row in v),
    }[kind]


def main():
    kt = sys.argv[1]
    keys = key_table()
    jobs = [["5x5", "--start", "a1"], ["5x5", "--all-starts"], ["6x6", "--start", "a1", "--closed"],
            ["3x4", "--all-starts", "--closed"], ["7x7", "--start", "a1", "--time-limit", "0.2"],
            ["6x15", "--closed", "--start", "a1"], ["5x5", "--all-starts", "--up-to-symmetry"],
            ["6x6", "--closed", "--start", "a1", "--up-to-symmetry"],
            ["5x6", "--all-starts", "--grid", "end-pairs"]]
    failures, checked = 0, 0
    seen = {}
    for args in jobs:
        for method in ("dfs", "frontier"):
            if args[0] == "6x15" and method == "dfs":
                continue  # 90 squares: the frontier method only
            if "--up-to-symmetry" in args and method == "frontier":
                continue  # the enumerator only (refused: bad_input_cli)
            if "--grid" in args and method == "dfs":
                continue  # the frontier method only
            argv = [kt, "count", *args, "--method", method, "--json", "--progress", "0"]
            p = subprocess.run(argv, capture_output=True, text=True)
            where = " ".join(argv[1:])
            if p.returncode not in (0, 3):
                print(f"FAIL: {where}: exit {p.returncode}: {p.stderr.strip()}")
                failures += 1
                continue
            j = json.loads(p.stdout)
            want = {k for k, (_, m) in keys.items() if m in ("both", method)}
            for k in sorted(want - j.keys()):
                print(f"FAIL: {where}: key {k} is missing")
                failures += 1
            for k in sorted(j.keys() - want):
                print(f"FAIL: {where}: key {k} is not in docs/formats.md for {method}")
                failures += 1
            for k in sorted(want & j.keys()):
                checked += 1
                if not type_ok(keys[k][0], j[k]):
                    print(f"FAIL: {where}: {k} = {j[k]!r} is not of type {keys[k][0]}")
                    failures += 1
            assert j["method"] == method
            if p.returncode == 0:
                seen.setdefault(tuple(args), {})[method] = j
    # Both methods give the same numbers under the same keys.
    for args, by in seen.items():
        if len(by) == 2:
            for k in ("tours", "closed_tours", "closed_cycles", "tours_by_start", "closed_by_start",
                      "status", "lower_bound", "start", "all_starts", "closed_only", "board"):
                checked += 1
                if by["dfs"][k] != by["frontier"][k]:
                    print(f"FAIL: {' '.join(args)}: {k} is {by['dfs'][k]!r} by dfs, {by['frontier'][k]!r} by frontier")
                    failures += 1
    # Essentially different tours, known values: 5x5 (Jelliss), 6x6 closed (OEIS A001230's
    # companion: 1,245 closed tours of 6x6 up to symmetry).
    sym = seen[("5x5", "--all-starts", "--up-to-symmetry")]["dfs"]
    c6 = seen[("6x6", "--closed", "--start", "a1", "--up-to-symmetry")]["dfs"]
    for name, got, want in (("5x5 classes", sym["tours_up_to_symmetry"], 216),
                            ("5x5 symmetries", sym["symmetries"], 8),
                            ("6x6 closed cycles up to symmetry", c6["closed_cycles_up_to_symmetry"], 1245)):
        checked += 1
        if got != want:
            print(f"FAIL: {name}: {got}, not {want}")
            failures += 1
    big = seen[("6x15", "--closed", "--start", "a1")]["frontier"]
    checked += 1
    if big["closed_cycles"] != 255967892553030600920:  # OEIS A175881, past 2^64: exact
        print(f"FAIL: 6x15 closed cycles {big['closed_cycles']}")
        failures += 1
    print(f"{checked - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
