#!/usr/bin/env python3
"""count --up-to-symmetry against the Python package's canonical forms of the enumerated
tours, on every board of at most 36 squares, open and closed, over all starts and from every
start (one per class of squares under the board's symmetries).

For each board, `enumerate --all-starts` writes every directed tour; numpy then counts the
distinct kt.canonical forms (mirror images alike), the distinct forms with reversal too, and
the distinct kt.canonical_cycles forms of the closed ones, over all tours and over the tours
of each start. Those must be the numbers `count --up-to-symmetry` prints, which come from
the enumerator by Burnside's lemma without ever comparing two tours.

Usage: symmetry_classes.py KNIGHTSTOUR"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

import numpy as np  # noqa: E402

import knightstour as kt  # noqa: E402


WEIGHTS = np.random.default_rng(2026).integers(1, 2**63, size=64, dtype=np.uint64) | np.uint64(1)


def distinct(rows):
    """The number of distinct rows, exactly: rows sorted by a 64-bit hash, then neighbours
    with equal hashes compared square by square (a collision stops the test rather than
    miscount; np.unique(axis=0) took a minute on 6x6's 6.6 M tours)."""
    if len(rows) == 0:
        return 0
    h = np.zeros(len(rows), dtype=np.uint64)
    for i in range(rows.shape[1]):
        h = h * np.uint64(1000003) + rows[:, i].astype(np.uint64) * WEIGHTS[i]
    order = np.argsort(h, kind="stable")
    hs = h[order]
    same = hs[1:] == hs[:-1]
    if same.any():
        a, b = rows[order[:-1][same]], rows[order[1:][same]]
        if not (a == b).all():
            raise RuntimeError("two different canonical forms share a hash: change the seed")
    return int(len(rows) - same.sum())


def closed_mask(tours, cols):
    r0, c0 = np.divmod(tours[:, 0].astype(np.int64), cols)
    r1, c1 = np.divmod(tours[:, -1].astype(np.int64), cols)
    dr, dc = np.abs(r0 - r1), np.abs(c0 - c1)
    return ((dr == 1) & (dc == 2)) | ((dr == 2) & (dc == 1))


def count(binary, board, *args):
    argv = [binary, "count", board, *args, "--up-to-symmetry", "--json", "--progress", "0"]
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[1:])}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)


class Board:
    """The tours of one board and their canonical forms, from one enumerate run."""

    def __init__(self, binary, rows, cols, tmp):
        self.rows, self.cols, self.name = rows, cols, f"{rows}x{cols}"
        n = rows * cols
        out = os.path.join(tmp, self.name)
        subprocess.run([binary, "enumerate", self.name, "--all-starts", "--out", out,
                        "--progress", "0"], check=True, capture_output=True)
        chunks = list(kt.Run(out).chunks(1 << 20))
        t = np.concatenate(chunks) if chunks else np.zeros((0, n), dtype=np.uint8)
        self.tours = t
        self.canon = kt.canonical(t, rows, cols) if len(t) else t
        self.canon_rev = kt.canonical(t, rows, cols, reversal=True) if len(t) else t
        self.closed = closed_mask(t, cols) if len(t) and n > 2 else np.zeros(len(t), dtype=bool)
        ct = t[self.closed]
        self.cycles = kt.canonical_cycles(ct, rows, cols) if len(ct) else ct

    def expected(self, start=None, closed=False):
        keep = np.ones(len(self.tours), dtype=bool)
        if start is not None:
            keep &= self.tours[:, 0] == start
        if closed:
            keep &= self.closed
        return {
            "tours": int(keep.sum()),
            "tours_up_to_symmetry": distinct(self.canon[keep]),
            "tours_up_to_symmetry_and_reversal": distinct(self.canon_rev[keep]),
            "closed_cycles_up_to_symmetry": distinct(self.cycles[keep[self.closed]]),
        }


def start_representatives(rows, cols):
    """One square of each class of squares under the board's symmetries."""
    perms = kt.symmetries(rows, cols)
    return sorted({min(int(p[s]) for p in perms) for s in range(rows * cols)})


def main():
    binary = sys.argv[1]
    boards = [(r, c) for r in range(1, 7) for c in range(r, 37) if r * c <= 36]
    checked = failures = 0
    with tempfile.TemporaryDirectory(prefix="kt-symmetry-") as tmp:
        for rows, cols in boards:
            b = Board(binary, rows, cols, tmp)
            jobs = [(None, False), (None, True)]
            jobs += [(s, closed) for s in start_representatives(rows, cols)
                     for closed in (False, True)]
            for start, closed in jobs:
                args = ["--all-starts"] if start is None else ["--start", kt.square_name(start, cols)]
                if closed:
                    args.append("--closed")
                got = count(binary, b.name, *args)
                want = b.expected(start, closed)
                if start is not None and not closed:
                    # Closed cycles through one start: every cycle passes it.
                    want["closed_cycles_up_to_symmetry"] = b.expected(None, True)[
                        "closed_cycles_up_to_symmetry"]
                for key, value in want.items():
                    checked += 1
                    if got[key] != value:
                        failures += 1
                        print(f"FAIL: count {b.name} {' '.join(args)}: {key} = {got[key]}, "
                              f"the canonical forms say {value}")
            # Mirror-image prefixes derived (default) or searched (--no-symmetry) alike.
            if rows * cols <= 30:
                plain = count(binary, b.name, "--all-starts")
                searched = count(binary, b.name, "--all-starts", "--no-symmetry")
                for key in ("tours_up_to_symmetry", "tours_up_to_symmetry_and_reversal",
                            "self_reverse_tours", "closed_cycles_up_to_symmetry"):
                    checked += 1
                    if plain[key] != searched[key]:
                        failures += 1
                        print(f"FAIL: {b.name} {key}: {plain[key]} derived, "
                              f"{searched[key]} with --no-symmetry")
            print(f"{b.name}: {len(b.tours)} tours, {len(jobs)} counts checked", flush=True)
    print(f"{checked - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
