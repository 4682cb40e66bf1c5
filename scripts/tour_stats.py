#!/usr/bin/env python3
"""Tables and plots from a knightstour run directory (numpy + matplotlib).

    scripts/py scripts/tour_stats.py RUN_DIR [--out DIR] [--chunk ROWS]

Writes DIR/summary.md, and for each plot a PNG with a CSV of the same numbers beside it
(default DIR: RUN_DIR/analysis). Only plots that mean something for the run are drawn:
  one start   tours by last square (start outlined; squares no tour ends on hatched), and
              for tour files the mean move number at which each square is visited
  all starts  tours by start square, and the start x end matrix (tours by last square
              would repeat tours by start: a tour read backwards swaps its ends)
Count runs read the journal; other runs stream their tours (every format, plain or zstd)
in chunks, so memory stays bounded whatever the size of the files. A complete frontier run
holds counts: over all starts tours by start square, and by units of end pairs the start x end
matrix too; from one start its counts alone.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import knightstour as kt  # noqa: E402
from knightstour.plot import heatmap  # noqa: E402
from knightstour.run import start_end_counts  # noqa: E402


def grid_table(values, rows, cols, fmt="{:,}"):
    """Markdown table laid out like the board: rank R on top, files a.. left to right."""
    files = [kt.square_name(c, cols)[:-1] for c in range(cols)]
    lines = ["| rank | " + " | ".join(files) + " |", "|---:|" + "---:|" * cols]
    for r in range(rows - 1, -1, -1):
        cells = [fmt.format(values[r * cols + c]) for c in range(cols)]
        lines.append(f"| {r + 1} | " + " | ".join(cells) + " |")
    return lines


def board_csv(values, rows, cols, path, header):
    with open(path, "w") as f:
        f.write(f"square,rank,file,{header}\n")
        for s in range(rows * cols):
            r, c = divmod(s, cols)
            f.write(f"{kt.square_name(s, cols)},{r + 1},{kt.square_name(c, cols)[:-1]},{values[s]}\n")


def matrix_plot(m, rows, cols, title, png, csv):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = rows * cols
    names = [kt.square_name(s, cols) for s in range(n)]
    with open(csv, "w") as f:
        f.write("start," + ",".join(names) + "\n")
        for s in range(n):
            f.write(names[s] + "," + ",".join(str(int(v)) for v in m[s]) + "\n")
    fig, ax = plt.subplots(figsize=(2.5 + 0.2 * n, 2 + 0.2 * n))
    masked = np.ma.masked_equal(m.astype(float), 0)
    image = ax.imshow(masked, cmap="viridis", origin="lower")
    # Every square named; a line between ranks (squares run a1, b1, ... then a2, ...).
    size = 8 if n <= 36 else 6
    ax.set_xticks(range(n), names, rotation=90, fontsize=size)
    ax.set_yticks(range(n), names, fontsize=size)
    for k in range(cols, n, cols):
        ax.axhline(k - 0.5, color="0.25", lw=0.8)
        ax.axvline(k - 0.5, color="0.25", lw=0.8)
    ax.set_xlabel("last square")
    ax.set_ylabel("start square")
    ax.set_title(title + "\n(blank: no tour)", fontsize=10)
    fig.colorbar(image, ax=ax, label="directed tours")
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run_dir")
    ap.add_argument("--out")
    ap.add_argument("--chunk", type=int, default=65536, help="tours read at a time (memory)")
    args = ap.parse_args()
    try:
        run = kt.Run(args.run_dir)
    except ValueError as e:
        sys.exit(f"tour_stats: {e}")
    m = run.manifest
    frontier = run.method == "frontier"
    counts = run.counts()
    if frontier and not counts["complete"]:
        sys.exit(f"tour_stats: {args.run_dir} is an incomplete frontier run: no counts yet "
                 f"(finish it: knightstour count --run-dir {args.run_dir} --resume)")
    units = m.get("frontier", {}).get("units")
    if units and units["shard_count"] > 1:
        sys.exit(f"tour_stats: {args.run_dir} is shard {units['shard_index']} of "
                 f"{units['shard_count']}: merge every shard (knightstour merge) and read the merged run")
    rows, cols, n = run.rows, run.cols, run.squares
    out = args.out or os.path.join(args.run_dir, "analysis")
    os.makedirs(out, exist_ok=True)
    board = f"{rows}x{cols}"
    what = "all starts" if m["all_starts"] else "start " + ",".join(m["prefix"])
    kind = "closed" if m["closed_only"] else "open"
    complete = m["status"] == "complete"
    lines = [f"# {board}, {what}, directed {kind} tours", "",
             f"- run: `{args.run_dir}` ({m['command']}{', a sample' if run.is_sample else ''}), "
             f"status **{m['status']}**" + ("" if complete else " (every number below is a lower bound)"),
             f"- tours: {counts['tours']:,}, closed: {counts['closed_tours']:,}"
             + (f" ({counts['closed_cycles']:,} closed cycles)" if counts["closed_cycles"] is not None else "")
             + (" (frontier method: counts, no tours)" if frontier else ""), ""]

    # One pass: the start x end matrix, and for tour files the move numbers.
    mat = np.zeros((n, n), dtype=np.uint64)
    order_sum = np.zeros(n, dtype=np.float64)
    total = 0
    if frontier:
        mat = run.start_end_matrix() if units else None
    elif m["command"] == "count":
        mat = run.start_end_matrix()
    else:
        for t in run.chunks(args.chunk):
            t = np.asarray(t, dtype=np.int64)
            mat += start_end_counts(t, n)
            if not m["all_starts"]:
                order_sum += (np.argsort(t, axis=1) + 1).sum(axis=0)
            total += len(t)
    if mat is not None:
        by_start, by_end = run.by_start() if frontier else mat.sum(axis=1), mat.sum(axis=0)
    elif m["all_starts"] and not m["frontier"].get("total_only"):
        by_start, by_end = run.by_start(), None  # by pinned tails: the grid alone
    else:
        by_start = by_end = None  # one start, or a total: the counts above are all it holds
    start = None if m["all_starts"] else kt.parse_square(m["prefix"][0], cols)
    written = []

    def plot(values, name, title, label, fmt="{:,}", hatch=None, hatch_label="no value",
             start_off_scale=None):
        png, csv = os.path.join(out, name + ".png"), os.path.join(out, name + ".csv")
        heatmap(values, rows, cols, png, title, label, start=start, hatch=hatch,
                hatch_label=hatch_label, start_off_scale=start_off_scale)
        board_csv(values, rows, cols, csv, label.replace(" ", "_"))
        written.extend([png, csv])

    if by_start is None:
        lines += ["A frontier count from one start, or of the total alone, holds its counts and "
                  "nothing by square.", ""]
    elif m["all_starts"]:
        lines += ["## Tours by start square", "", *grid_table(by_start, rows, cols), ""]
        plot(by_start, "by_start", f"{board}: directed {kind} tours by start square", "tours from this square")
        if mat is not None:
            png, csv = os.path.join(out, "start_end.png"), os.path.join(out, "start_end.csv")
            matrix_plot(mat, rows, cols, f"{board}: directed {kind} tours by start and last square", png, csv)
            written.extend([png, csv])
    else:
        # In a complete run a zero is a fact (no tour ends there); in a stopped one it may
        # only mean not found yet, so nothing is hatched.
        never = (by_end == 0) if complete else None
        lines += ["## Tours by last square", "", *grid_table(by_end, rows, cols), ""]
        if complete:
            lines += [f"Squares no tour ends on (hatched in the plot): {int(never.sum())}", ""]
        plot(by_end, "by_end", f"{board} {what}: tours by last square", "tours ending here",
             hatch=never, hatch_label="no tour ends here")
        if total:
            mean_order = order_sum / total
            lines += ["## Mean move number of each square", "", *grid_table(mean_order, rows, cols, "{:.1f}"), ""]
            plot(np.round(mean_order, 2), "mean_move", f"{board} {what}: mean move number of each square",
                 "mean move number", start_off_scale="move 1 in every tour")
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"wrote {out}/summary.md, " + ", ".join(os.path.basename(w) for w in written), file=sys.stderr)


if __name__ == "__main__":
    main()
