#!/usr/bin/env python3
"""scripts/measure/thread-curve against the runs it makes: every run's JSON holds the count checked by
--expect, the table's medians are the medians of the runs' own wall times, a wrong --expect
fails the script, bad options are one error line, and a build carried by scripts/measure/carry-build
runs through its own loader. Usage: thread_curve.py KNIGHTSTOUR"""
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "measure", "thread-curve")
# 6x6 closed: 9,862 undirected cycles (OEIS A003763), from a1 as from any square.
JOB = ["--", "6x6", "--closed", "--start", "a1", "--method", "frontier"]


def run(binary, out, *extra):
    return subprocess.run([sys.executable, SCRIPT, "--binary", binary, "--out", out, *extra],
                          capture_output=True, text=True, timeout=120)


def main():
    binary = sys.argv[1]
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)

    with tempfile.TemporaryDirectory() as out:
        p = run(binary, out, "--threads", "2,1", "--repeat", "3", "--expect", "closed_cycles=9862",
                "--label", "six", *JOB)
        check(p.returncode == 0, f"right count: exit {p.returncode}\n{p.stderr}")
        files = sorted(glob.glob(os.path.join(out, "six-t*.json")))
        check(len(files) == 6, f"3 rounds of 2 thread counts: {len(files)} JSON files")
        walls = {1: [], 2: []}
        for f in files:
            d = json.load(open(f))
            check(d["result"].get("closed_cycles") == 9862, f"{f}: {d['result'].get('closed_cycles')}")
            walls[d["result"]["threads"]].append(d["wall"])
        table = open(os.path.join(out, "six.md")).read()
        check(table.count("| complete | right |") == 6, "every run in the table, right")
        for t, ws in walls.items():
            m = re.search(rf"^\| {t} \| 3 \| ([\d.]+) \| ([\d.]+) to ([\d.]+) \|", table, re.M)
            check(m is not None, f"a medians row for {t} thread(s):\n{table}")
            if m and ws:
                check(m.group(1) == f"{statistics.median(ws):.3f}", f"{t} threads: median {m.group(1)}, runs {ws}")
                check(m.group(2) == f"{min(ws):.3f}" and m.group(3) == f"{max(ws):.3f}",
                      f"{t} threads: range {m.group(2)} to {m.group(3)}, runs {ws}")
        check("Speed-up against" in table and "medians" in table, "speed-ups from the medians")

        p = run(binary, out, "--threads", "1", "--expect", "closed_cycles=9863", "--label", "wrong", *JOB)
        check(p.returncode == 1, f"wrong --expect: exit {p.returncode}")
        check("WRONG (9862)" in p.stdout, f"wrong --expect names the count:\n{p.stdout}")

        # A build carried with its libraries (scripts/measure/carry-build), run through its loader.
        carried = os.path.join(out, "carried")
        p = subprocess.run([os.path.join(ROOT, "scripts", "measure", "carry-build"), "--binary", binary, carried],
                           capture_output=True, text=True, timeout=60)
        check(p.returncode == 0, f"carry-build: exit {p.returncode}\n{p.stderr}")
        loader = os.path.join(carried, "lib", "ld-linux-x86-64.so.2")
        check(p.stdout.split()[:1] == [loader], f"carry-build prints the loader first: {p.stdout!r}")
        p = run(os.path.join(carried, "knightstour"), out, "--loader", loader, "--lib-dir",
                os.path.join(carried, "lib"), "--threads", "1", "--expect", "closed_cycles=9862",
                "--label", "carried", *JOB)
        check(p.returncode == 0 and "| complete | right |" in p.stdout, f"carried build:\n{p.stdout}{p.stderr}")
        d = json.load(open(os.path.join(out, "carried-t1.json")))
        check(d["command"][:3] == [loader, "--library-path", os.path.join(carried, "lib")],
              f"the carried run goes through its loader: {d['command'][:3]}")

        for bad, word in ((["--repeat", "0"], "--repeat"), (["--threads", "two"], "--threads"),
                          (["--expect", "closed_cycles"], "--expect")):
            p = run(binary, out, *bad, "--label", "bad", *JOB)
            last = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ""
            check(p.returncode == 2 and word in last and "Traceback" not in p.stderr,
                  f"{bad}: exit {p.returncode}, stderr {p.stderr!r}")
        check(not glob.glob(os.path.join(out, "bad*")), "a refused option runs nothing")

    for f in failures:
        print("FAIL:", f)
    print("thread_curve:", "ok" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
