#!/usr/bin/env python3
"""The examples in README.md and docs/*.md marked `<!-- example: tested -->` still print what
they show: every command of the block is run in one scratch directory, in order, and for
each output line whose leading word is a count (tours, closed, cycles, symmetry, verify:,
checked:) every number with thousands separators must be in the line of the same leading word
that the command printed, and the indented lines that follow a `symmetry` line must be printed
as shown; a `method` line must match up to its colon (the method and why); the rows of
a tour's grid (`6 |  8 21 34 ...`) must be printed as shown. Lower
bounds, the output of a stopped run and times are not compared: they depend on the moment a
limit fell. The README itself stays within 12,500 bytes.

    usage: doc_examples.py KNIGHTSTOUR [FILE.md ...]   (default: README.md docs/*.md)
"""
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARK = "<!-- example: tested -->"
COUNT_WORDS = ("tours", "closed", "cycles", "symmetry", "verify:", "checked:")
NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+")
GRID_ROW = re.compile(r"^\d+ \|")
README_BYTES = 12_500


def blocks(path):
    """(line number, [lines]) of each code block right after the marker."""
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        if line.strip() != MARK:
            continue
        if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
            yield i + 1, None
            continue
        end = next(j for j in range(i + 2, len(lines)) if lines[j].startswith("```"))
        yield i + 2, lines[i + 2:end]


def commands(block):
    """(command, expected output lines) pairs of a block."""
    out = []
    for line in block:
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    return out


def by_word(lines):
    table = {}
    for line in lines:
        parts = line.split(None, 1)
        if parts:
            table.setdefault(parts[0], []).append(line)
    return table


def check(where, command, expected, printed, code):
    problems = []
    incomplete = any("INCOMPLETE" in l for l in expected)
    if code != (3 if incomplete else 0):
        problems.append(f"exit {code}")
    got = by_word(printed)
    last_word = None
    for line in expected:
        parts = line.split(None, 1)
        if line.startswith(" ") and last_word == "symmetry" and parts:
            if line not in printed:
                problems.append(f"line {line.strip()!r} not printed")
            continue
        if not parts or line.startswith(" ") or line == "...":
            continue
        word = last_word = parts[0]
        if word == "method":
            want = line.split(":", 1)[0]
            if not any(g.split(":", 1)[0] == want for g in got.get(word, [])):
                problems.append(f"method line: shown {want!r}, printed {got.get(word)}")
        elif GRID_ROW.match(line):
            if line not in printed:
                problems.append(f"grid row {line!r} not printed")
        elif word in COUNT_WORDS and ">=" not in line and not incomplete:
            for n in NUMBER.findall(line):
                if not any(n in g for g in got.get(word, [])):
                    problems.append(f"{word} {n}: not printed (printed {got.get(word)})")
    for p in problems:
        print(f"FAIL {where}: {command}: {p}")
    return not problems


def main():
    kt = os.path.abspath(sys.argv[1])
    files = sys.argv[2:] or [os.path.join(ROOT, "README.md"), *sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))]
    failures = examples = 0
    # The README is the guide, short; the reference lives in docs/.
    readme = os.path.getsize(os.path.join(ROOT, "README.md"))
    if readme > README_BYTES:
        print(f"FAIL README.md is {readme} bytes, past {README_BYTES}: move material to docs/")
        failures += 1
    for path in files:
        with tempfile.TemporaryDirectory() as scratch:
            for line_no, block in blocks(path):
                where = f"{os.path.relpath(path, ROOT)}:{line_no}"
                if block is None:
                    print(f"FAIL {where}: the marker is not followed by a code block")
                    failures += 1
                    continue
                for command, expected in commands(block):
                    argv = shlex.split(command)
                    if argv[0] != "knightstour":
                        continue
                    examples += 1
                    if argv[1] in ("count", "enumerate", "estimate") and "--progress" not in argv:
                        argv += ["--progress", "0"]
                    r = subprocess.run([kt, *argv[1:]], cwd=scratch, capture_output=True, text=True,
                                       timeout=600)
                    if not check(where, command, expected, r.stdout.split("\n"), r.returncode):
                        failures += 1
                        print(r.stdout + r.stderr)
    print(f"{examples} examples, {failures} failures")
    if examples == 0:
        print("FAIL: no tested example found")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
