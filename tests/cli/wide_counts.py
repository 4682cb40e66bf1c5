#!/usr/bin/env python3
"""Counts of 64 to 1024 bits against OEIS: the closed tours of 3 x n boards.

The frontier method's counts start at 64 bits and widen to 128, 256, 512 and 1024 bits when a
step overflows. 6x15 closed (128 bits) is checked in count_cli.sh; nothing else there is wide.
Here `count 3xN --closed --method frontier --json` gives the closed tour diagrams of 3 x n
(OEIS A169764, undirected Hamiltonian cycles: `closed_cycles`) for n = 10, 12, ..., whose
`count_bits` are 128 from n = 48 on, 256 from 86, 512 from 164 and 1024 from 320. Knuth's generating
function for them (OEIS A169769 and A169768 share its denominator) gives a linear recurrence
of order 21 in steps of 2:

    sum_i P[i] c(n - 2i) = 0 for n >= 52

so every count past the first 21 is fixed by the 21 before it; the first ones are checked
against A169769 (geometrically distinct closed tours) = c(n)/4 + A169768(n)/2. One count
that is wrong in any limb breaks the recurrence at up to 22 places. Every width is checked
to have been used, so the test cannot pass on narrow counts alone.

Usage: wide_counts.py KNIGHTSTOUR"""
import json
import subprocess
import sys

# 1 - 6x - 64x^2 + 200x^3 + ... - 131072x^21, x = z^2: the denominator of the g.f. in A169769
# and A169768 (where it is written in z^4 for the symmetric tours, whose counts come from
# half a board).
P = [1, -6, -64, 200, 1000, -3016, -3488, 24256, -23776, -104168, 203408, 184704, -443392,
     -14336, 151296, -145920, 263424, -317440, -36864, 966656, -573440, -131072]
# A169769(n) and A169768(n) for n = 10, 12, ..., 22, as OEIS lists them.
A169769 = {10: 6, 12: 44, 14: 396, 16: 3868, 18: 37070, 20: 362192, 22: 3516314}
A169768 = {10: 4, 12: 0, 14: 24, 16: 24, 18: 276, 20: 176, 22: 2604}


def closed_cycles(kt, n):
    out = subprocess.run([kt, "count", f"3x{n}", "--closed", "--method", "frontier", "--json",
                          "--progress", "0"], capture_output=True, text=True, check=True)
    j = json.loads(out.stdout)
    assert j["status"] == "complete", (n, j["status"])
    return j["closed_cycles"], j["count_bits"]


def main():
    kt = sys.argv[1]
    # Two stretches: 10..220 (64 to 512 bits), and 276..340 (512 to 1024 bits).
    ns = list(range(10, 221, 2)) + list(range(276, 341, 2))
    counts, bits = {}, {}
    for n in ns:
        counts[n], bits[n] = closed_cycles(kt, n)
    for n, distinct in A169769.items():
        assert counts[n] % 4 == 0 and counts[n] // 4 + A169768[n] // 2 == distinct, \
            f"3x{n}: {counts[n]} closed tour diagrams, but A169769 says {distinct} distinct"
    checked = 0
    for n in ns:
        window = [n - 2 * i for i in range(len(P))]
        if window[-1] < 10 or any(m not in counts for m in window):
            continue
        s = sum(p * counts[m] for p, m in zip(P, window))
        assert s == 0, f"3x{n}: the counts of 3x{window[-1]}..3x{n} break A169764's recurrence"
        checked += 1
    assert checked >= 95, f"only {checked} counts were checked by the recurrence"
    widths = sorted(set(bits.values()))
    assert widths == [64, 128, 256, 512, 1024], f"count widths used: {widths}"
    last = max(ns)
    print(f"wide_counts: {len(ns)} counts of 3 x n closed, {checked} checked by the recurrence; "
          f"widths {widths}; 3x{last}: {len(str(counts[last]))} digits")


if __name__ == "__main__":
    main()
