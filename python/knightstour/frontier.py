"""A frontier run directory's checksums (checked in checks.py, as `knightstour verify` checks
them), and the start x end table of a count by units of end pairs, assembled from its units as the
binary assembles it (include/knightstour/frontier/end_pair_units.hpp)."""

import numpy as np

from .board import symmetries

MASK = (1 << 64) - 1


def fnv1a(text):
    """The 64-bit FNV-1a hash of text, as 16 hex digits: the binary's checksum of manifests and
    journal lines."""
    h = 0xcbf29ce484222325
    for b in text.encode():
        h = ((h ^ b) * 0x100000001b3) & MASK
    return f"{h:016x}"


def job_key(m):
    """The run's job and owner as the binary writes them (frontier_job_key, manifest.cpp)."""
    f = m["frontier"]
    text = (f"knightstour-frontier|{m['rows']}x{m['cols']}|{'all' if m['all_starts'] else ''}|"
            f"{'closed' if m['closed_only'] else 'open'}|")
    text += "".join(sq + "," for sq in m["prefix"])
    if f.get("total_only"):
        text += "|total only"
    if f.get("every_length"):
        text += "|every length"
    if f.get("modulus"):
        text += f"|modulo {f['modulus']}"
    if "units" in f:
        text += f"|end pairs, shard {f['units']['shard_index']} of {f['units']['shard_count']}"
    owner = f.get("owner")
    if owner and (owner["run_id"] or owner["ranks"] != 1):
        text += f"|rank {owner['rank']} of {owner['ranks']} run {owner['run_id']}"
    return text


def manifest_checksum(m):
    """What a frontier manifest's checksum must be (frontier_checksum, manifest.cpp)."""
    f = m["frontier"]
    text = job_key(m) + f"|{f['sweeps_planned']}|"
    for s in sorted(f["finished"], key=lambda s: s["sweep"]):
        text += f"{s['sweep']}={s['count']};"
    c = f["counts"] or {"tours": "", "closed_tours": "", "closed_cycles": "", "tours_by_start": []}
    for field in (m["status"], c["tours"], c["closed_tours"], c["closed_cycles"]):
        text += "|" + field
    text += "|" + "".join(x + "," for x in c["tours_by_start"])
    return fnv1a(text)


def end_pair_units(rows, cols):
    """The board's units of end pairs, as the binary numbers them: one orbit of ordered pairs
    (s, t) under the board's symmetries and reversal per unit, ordered by its least pair;
    pairs that cannot hold a tour (colours) left out. Returns a list of lists of pairs."""
    n = rows * cols
    perms = symmetries(rows, cols)

    def colour(q):
        return (q // cols + q % cols) % 2

    def can_hold(s, t):
        if n % 2 == 0:
            return colour(s) != colour(t)
        return colour(s) == 0 and colour(t) == 0

    units = []
    for s in range(n):
        for t in range(n):
            if s == t or not can_hold(s, t):
                continue
            orbit = set()
            for p in perms:
                orbit.add((int(p[s]), int(p[t])))
                orbit.add((int(p[t]), int(p[s])))
            if min(orbit) == (s, t):
                units.append(sorted(orbit))
    return units


def as_integers(values):
    """int64 when every value fits, else Python ints (dtype object): exact either way."""
    values = [int(v) for v in values]
    if all(-(1 << 63) <= v < (1 << 63) for v in values):
        return np.array(values, dtype=np.int64)
    return np.array(values, dtype=object)


def start_end_table(rows, cols, finished):
    """Tours by (start, last square) from the counts of every unit (`finished`: unit -> count),
    as a (squares, squares) list of lists of Python ints."""
    n = rows * cols
    table = [[0] * n for _ in range(n)]
    if n == 1:
        table[0][0] = 1  # one square is a tour by itself; no unit holds it
        return table
    for unit, pairs in enumerate(end_pair_units(rows, cols)):
        for s, t in pairs:
            table[s][t] = finished[unit]
    return table
