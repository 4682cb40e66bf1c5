#!/usr/bin/env python3
"""How well sweep_outlook (src/frontier/sweep_outlook.cpp) projects the rest of a sweep.

Reads the whole profiles in profiles/ (classes after every step; profile_probe.cpp writes
them), projects the rest of each sweep from every step of column --from-column on, as
`estimate` and the progress line's ETA do, and prints how far the projection of the classes
still to expand and of the largest generation is from what the sweep really held.

    fit_outlook.py                      the shipped model against the one before it
    fit_outlook.py --fit                refit the parameters; fit without 8x8 closed and
                                        without the boards 7 and 8 wide, and test on them
    fit_outlook.py --check BINARY       compare model() below with the library's projection
                                        (outlook_check.cpp built as its header says)

model() mirrors the C++ function; --check is what keeps the two the same.
"""
import argparse
import math
import pathlib
import re
import subprocess

HERE = pathlib.Path(__file__).resolve().parent

# fade over columns 0..3, over column 4, 5 and 6 (level from 7); the bottom edge's log growth
# over the third-last and second-last columns; the last column's fall a step.
SHIPPED = (0.7, 1.0, 0.3, 0.5, -0.2, -1.0, 0.1)
NAMES = ("fade 0-3", "fade 4", "fade 5", "fade 6", "third-last", "second-last", "last/step")


def load(path):
    lines = path.read_text().split("\n")
    m = re.match(r"# (\d+)x(\d+) (\w+) width (\d+) steps (\d+)", lines[0])
    sizes = [int(x) for x in lines[1:] if x.strip()]
    assert len(sizes) == int(m.group(5)), path
    return f"{m.group(1)}x{m.group(2)} {m.group(3)}", int(m.group(4)), sizes


def model(sizes, step, steps, w, p):
    """(classes_left, peak) projected after `step` steps (sizes: after steps 0..step-1)."""
    fade_early, fade4, fade5, fade6, third_last, second_last, last = p
    fades = [fade_early] * 4 + [fade4, fade5, fade6]
    s = [float(x) for x in sizes]
    left = peak = s[-1]

    def bottom(k):
        r = steps - 1 - k
        return 0.0 if r >= 3 * w else third_last if r >= 2 * w else second_last if r >= w else None

    top = 0.0
    if len(s) > w and s[-1 - w] > 0 and s[-1] > 0:
        top = max(0.0, math.log(s[-1] / s[-1 - w]) - (bottom(step - 1) or 0.0))
    for j in range(step, steps - 1):
        c = j // w
        top *= fades[c] ** (1.0 / w) if c < len(fades) else 0.0
        b = bottom(j)
        v = s[-1] * last if b is None else (s[-w] if len(s) >= w else s[-1]) * math.exp(top + b)
        s.append(v)
        left += v
        peak = max(peak, v)
    return left, peak


def old_model(sizes, step, steps, w, _p=None):
    """The model before 2026-11-26: growth fading by 0.7 a column, level from column 6."""
    s = [float(x) for x in sizes]
    left = peak = s[-1]
    lg = 0.0
    if len(s) > w and s[-1 - w] > 0 and s[-1] > 0:
        lg = max(0.0, math.log(s[-1] / s[-1 - w]))
    for j in range(step, steps - 1):
        lg = 0 if j // w >= 6 else lg * 0.7 ** (1.0 / w)
        cb = s[-w] if len(s) >= w else s[-1]
        v = s[-1] * 0.5 if j >= steps - w else cb * 0.7 if j >= steps - 2 * w else cb * math.exp(lg)
        s.append(v)
        left += v
        peak = max(peak, v)
    return left, peak


def errors(boards, project, p, from_column):
    """Per board: (log error of classes left, of the peak) from every cut."""
    out = {}
    for name, w, s in boards:
        steps = len(s)
        e = []
        for cut in range(from_column * w, steps - w):
            if s[cut - 1] == 0:
                continue
            actual = sum(s[cut - 1 : steps - 1])
            peak = max(s[cut - 1 :])
            left, pk = project(s[:cut], cut, steps, w, p)
            e.append((math.log(left / actual), math.log(pk / peak)))
        out[name] = e
    return out


def quantiles(e):
    e = sorted(e)
    return math.exp(e[len(e) // 2]), math.exp(e[int(0.9 * len(e))]), math.exp(e[-1])


def report(boards, project, p, from_column, only=None):
    out = errors(boards, project, p, from_column)
    all_left, all_peak = [], []
    for name, e in out.items():
        if only and name not in only:
            continue
        left = [abs(a) for a, _ in e]
        peak = [abs(b) for _, b in e]
        all_left += left
        all_peak += peak
        print("  %-11s classes left: median x%.2f, worst x%.1f | peak: median x%.2f, worst x%.1f"
              % (name, quantiles(left)[0], quantiles(left)[2], quantiles(peak)[0], quantiles(peak)[2]))
    for what, e in (("classes left", all_left), ("peak", all_peak)):
        print("  all %-12s median x%.2f, 90%% within x%.2f, worst x%.1f" % ((what,) + quantiles(e)))


def score(boards, p, from_column):
    """Mean over boards of the mean squared log error (classes left and peak)."""
    out = errors(boards, model, p, from_column)
    return sum(sum(a * a + b * b for a, b in e) / len(e) for e in out.values()) / len(out)


def fit(boards, p, from_column):
    """Coordinate descent from p."""
    p = list(p)
    step = [0.1] * len(p)
    best = score(boards, p, from_column)
    for _ in range(6):
        for i in range(len(p)):
            for sign in (1, -1):
                while True:
                    q = p[:]
                    q[i] = round(q[i] + sign * step[i], 3)
                    if (i < 4 and not 0 <= q[i] <= 1.2) or (i == 6 and not 0 < q[i] < 1):
                        break
                    s = score(boards, q, from_column)
                    if s >= best - 1e-9:
                        break
                    best, p = s, q
        step = [x / 2 for x in step]
    return tuple(p), best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--from-column", type=int, default=3)
    ap.add_argument("--fit", action="store_true")
    ap.add_argument("--check", metavar="BINARY")
    args = ap.parse_args()
    boards = [load(f) for f in sorted((HERE / "profiles").glob("*.txt"))]
    fc = args.from_column

    if args.check:
        worst = 0.0
        for f, (name, w, s) in zip(sorted((HERE / "profiles").glob("*.txt")), boards):
            lines = subprocess.run([args.check, str(f)], capture_output=True, text=True, check=True).stdout
            for line in lines.split("\n"):
                if line:
                    cut, left, peak = line.split()
                    mine = model(s[: int(cut)], int(cut), len(s), w, SHIPPED)
                    worst = max(worst, abs(mine[0] / float(left) - 1), abs(mine[1] / float(peak) - 1))
        print("largest relative difference from the library's projection: %.1e" % worst)
        return

    print(f"shipped model {dict(zip(NAMES, SHIPPED))}, projected from column {fc}:")
    report(boards, model, SHIPPED, fc)
    print(f"the model before it, from column {fc}:")
    report(boards, old_model, None, fc)
    if args.fit:
        p, s = fit(boards, SHIPPED, fc)
        print(f"fitted to all (score {s:.3f}; shipped {score(boards, SHIPPED, fc):.3f}):",
              dict(zip(NAMES, p)))
        rest = [b for b in boards if b[0] != "8x8 closed"]
        p, _ = fit(rest, SHIPPED, fc)
        print("fitted without 8x8 closed:", dict(zip(NAMES, p)), "; on 8x8 closed:")
        report(boards, model, p, fc, only={"8x8 closed"})
        narrow = [b for b in boards if b[1] <= 6]
        p, _ = fit(narrow, SHIPPED, fc)
        print("fitted to the boards 5 and 6 wide:", dict(zip(NAMES, p)), "; on those 7 and 8 wide:")
        report(boards, model, p, fc, only={b[0] for b in boards if b[1] >= 7})


if __name__ == "__main__":
    main()
