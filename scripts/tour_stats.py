#!/usr/bin/env python3
"""Tables and plots from a knightstour run directory (numpy + matplotlib).

    scripts/py scripts/tour_stats.py RUN_DIR [--out DIR]

Writes DIR/summary.md and PNG heat maps (default DIR: RUN_DIR/analysis):
  count runs      tours by start square (with --all-starts), tours by last square
  enumerate runs  the same from the tours themselves, plus the mean move number at which
                  each square is visited (where tours go early and late)
Every number comes from the journal or the tour files; nothing is recomputed by search.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import knightstour_results as kr  # noqa: E402


def grid_table(values, rows, cols, fmt="{:,}"):
    """Markdown table laid out like the board: rank R on top, files a.. left to right."""
    files = [kr.square_name(c, cols)[:-1] for c in range(cols)]
    lines = ["| rank | " + " | ".join(files) + " |", "|---:|" + "---:|" * cols]
    for r in range(rows - 1, -1, -1):
        cells = [fmt.format(values[r * cols + c]) for c in range(cols)]
        lines.append(f"| {r + 1} | " + " | ".join(cells) + " |")
    return lines


def heatmap(values, rows, cols, title, path, fmt="{:,.0f}"):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    grid = np.asarray(values, dtype=float).reshape(rows, cols)[::-1]  # rank R on top
    fig, ax = plt.subplots(figsize=(1.1 * cols + 1.8, 1.0 * rows + 1.2))
    im = ax.imshow(grid, cmap="viridis")
    ax.set_xticks(range(cols), [kr.square_name(c, cols)[:-1] for c in range(cols)])
    ax.set_yticks(range(rows), [str(rows - r) for r in range(rows)])
    vmax = grid.max() if grid.size else 0
    for r in range(rows):
        for c in range(cols):
            v = grid[r, c]
            ax.text(c, r, fmt.format(v), ha="center", va="center", fontsize=7,
                    color="black" if vmax and v > 0.6 * vmax else "white")
    ax.set_title(title, fontsize=10)
    fig.colorbar(im, ax=ax, shrink=0.8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run_dir")
    ap.add_argument("--out")
    args = ap.parse_args()
    run = kr.Run(args.run_dir)
    m = run.manifest
    rows, cols, n = run.rows, run.cols, run.squares
    out = args.out or os.path.join(args.run_dir, "analysis")
    os.makedirs(out, exist_ok=True)
    board = f"{rows}x{cols}"
    what = "all starts" if m["all_starts"] else "start " + ",".join(m["prefix"])
    kind = "closed" if m["closed_only"] else "open"
    status = m["status"]
    j = run.journal()
    lines = [f"# {board}, {what}, directed {kind} tours", "",
             f"- run: `{args.run_dir}` ({m['command']}), status **{status}**"
             + ("" if status == "complete" else " (every number below is a lower bound)"),
             f"- prefixes journaled: {len(j):,} of {m['totals']['prefixes']:,} (split depth {m['split_depth']})",
             f"- tours: {int(j['tours'].sum()):,}, closed: {int(j['closed'].sum()):,}", ""]
    first = np.array([s.split(",")[0] for s in j["squares"]])
    by_start = np.zeros(n, dtype=np.uint64)
    names = [kr.square_name(s, cols) for s in range(n)]
    for s in range(n):
        by_start[s] = j["tours"][first == names[s]].sum()
    if m["command"] == "count":
        by_end = j["by_end"].sum(axis=0) if len(j) else np.zeros(n, dtype=np.uint64)
    else:
        by_end = np.zeros(n, dtype=np.uint64)
        order_sum = np.zeros(n, dtype=np.float64)
        total = 0
        for tours in run.tour_arrays():
            t = np.asarray(tours)
            by_end += np.bincount(t[:, -1], minlength=n).astype(np.uint64)
            # move number (1-based) of each square, summed over tours
            idx = np.argsort(t, axis=1)
            order_sum += (idx + 1).sum(axis=0)
            total += t.shape[0]
        if total:
            mean_order = order_sum / total
            lines += ["## Mean move number of each square", "", *grid_table(mean_order, rows, cols, "{:.1f}"), ""]
            heatmap(mean_order, rows, cols, f"{board} {what}: mean move number of each square",
                    os.path.join(out, "mean_move.png"), "{:.1f}")
    if m["all_starts"]:
        lines += ["## Tours by start square", "", *grid_table(by_start, rows, cols), ""]
        heatmap(by_start, rows, cols, f"{board}: directed {kind} tours by start square", os.path.join(out, "by_start.png"))
    lines += ["## Tours by last square", "", *grid_table(by_end, rows, cols), ""]
    heatmap(by_end, rows, cols, f"{board} {what}: tours by last square", os.path.join(out, "by_end.png"))
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"wrote {out}/summary.md and heat maps", file=sys.stderr)


if __name__ == "__main__":
    main()
