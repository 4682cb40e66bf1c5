"""Board heat maps (matplotlib, Agg backend: works without a display)."""

import numpy as np

from .board import square_name


def heatmap(values, rows, cols, path, title, label, start=None, hatch=None,
            hatch_label="no value", start_off_scale=None):
    """Draws per-square values as a board (rank 1 at the bottom) to `path` (PNG): colour bar
    labelled `label`, the start square outlined, squares in `hatch` (a boolean array by
    square index, e.g. squares that can never be last) hatched instead of coloured; a legend
    on the figure says what the outline and the hatching mean. `start_off_scale` (a text,
    e.g. "move 1") leaves the start square white and out of the colour scale, so a value
    that is the same in every tour does not stretch the scale of the others."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    v = np.asarray(values, dtype=float).reshape(rows, cols)
    mask = np.zeros_like(v, dtype=bool) if hatch is None else np.asarray(hatch).reshape(rows, cols).copy()
    if start is not None and start_off_scale is not None:
        mask[divmod(int(start), cols)] = True
    masked = np.ma.masked_array(v, mask=mask)
    fig, ax = plt.subplots(figsize=(max(5.0, 1.8 + 0.6 * cols), 1.9 + 0.6 * rows))
    image = ax.imshow(masked, origin="lower", cmap="viridis")
    if hatch is not None:
        for s in np.flatnonzero(hatch):
            r, c = divmod(int(s), cols)
            ax.add_patch(matplotlib.patches.Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False,
                                                      hatch="///", edgecolor="0.6", lw=0))
    legend = []
    if hatch is not None and np.any(hatch):
        legend.append(Patch(facecolor="white", edgecolor="0.6", hatch="///", label=hatch_label))
    if start is not None:
        r, c = divmod(int(start), cols)
        ax.add_patch(matplotlib.patches.Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False,
                                                  edgecolor="red", lw=2))
        what = "start square" + (f" ({start_off_scale}, not coloured)" if start_off_scale else "")
        legend.append(Patch(facecolor="none", edgecolor="red", lw=2, label=what))
    ax.set_xticks(range(cols), [square_name(c, cols)[:-1] for c in range(cols)])
    ax.set_yticks(range(rows), [str(r + 1) for r in range(rows)])
    ax.set_xlabel("file")
    ax.set_ylabel("rank")
    ax.set_title(title, fontsize=10)
    fig.colorbar(image, ax=ax, label=label)
    if legend:
        ax.legend(handles=legend, loc="upper center", bbox_to_anchor=(0.5, -0.13 - 0.3 / rows),
                  ncol=len(legend), fontsize=8, frameon=False, handlelength=1.5)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def row_growth(rows_of_counts, path, title):
    """Draws how rows grow: for each Row (row.py) its counts by length n on a log scale, to
    `path` (PNG). Lengths with no tour (count 0) have no point on a log scale: they are left
    out and listed under the plot. The counts are Python ints of any size; the plot takes
    log10 of each exactly (float() of a 300-bit int would still be finite, but not of 1100)."""
    import math

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def log10(c):
        bits = c.bit_length()
        shift = max(bits - 60, 0)  # keep 60 significant bits: exact to far below a pixel
        return math.log10(c >> shift) + shift * math.log10(2)

    fig, ax = plt.subplots(figsize=(7, 4.5))
    empty = []
    longest = 1
    for row in rows_of_counts:
        n = [k for k in row.lengths if row.counts[k] > 0]
        empty.extend(f"{row.rows}x{k}" for k in row.lengths if row.counts[k] == 0)
        longest = max([longest, *row.lengths])
        ax.plot(n, [log10(row.counts[k]) for k in n], marker="o", ms=3,
                label=f"{row.rows} x n, {row.what} tours")
    ax.set_xlabel("length n (columns)")
    ax.set_ylabel("log10 of the tours (undirected)")
    ax.set_title(title, fontsize=10)
    ax.set_xlim(0.5, longest + 0.5)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    if empty:
        shown = ", ".join(empty[:12]) + (", ..." if len(empty) > 12 else "")
        fig.text(0.01, 0.01, f"no tours (not drawn): {shown}", fontsize=7, color="0.35")
    fig.tight_layout(rect=(0, 0.04 if empty else 0, 1, 1))
    fig.savefig(path, dpi=100)
    plt.close(fig)


def tour(squares, rows, cols, path=None, ax=None, title=None, numbers=None):
    """Draws one tour (its squares in visit order, index r * cols + c) on its board, rank 1 at
    the bottom: the moves as one line (dashed back to the start when the tour is closed), the
    start ringed green and the last square red, every square numbered with its move number
    (`numbers`: default up to 40 squares a side, past that the board is too small to read
    them). Into `ax` (a matplotlib Axes) when given, else a new figure saved to `path` (PNG,
    or any format matplotlib infers from the name). Returns the Axes.

        kt.plot.tour(run.tour(0), 6, 6, "tour.png")"""
    import matplotlib

    if ax is None:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = np.asarray(squares, dtype=np.int64).reshape(-1)
    if len(t) == 0 or sorted(t.tolist()) != list(range(rows * cols)):
        raise ValueError(f"not a tour of {rows}x{cols}: each of its {rows * cols} squares once")
    r, c = np.divmod(t, cols)
    fig = None
    if ax is None:
        side = min(12.0, max(4.0, 0.6 * max(rows, cols)))
        fig, ax = plt.subplots(figsize=(side * cols / max(rows, cols) + 0.6,
                                        side * rows / max(rows, cols) + 0.6))
    # a1 dark, as on a chess board (and in the binary's pictures): RGB by square parity.
    dark = np.add.outer(np.arange(rows), np.arange(cols)) % 2 == 0
    light_rgb, dark_rgb = np.array([0xf1, 0xe6, 0xcf]) / 255, np.array([0xc9, 0xb4, 0x8f]) / 255
    ax.imshow(np.where(dark[..., None], dark_rgb, light_rgb), origin="lower",
              extent=(-0.5, cols - 0.5, -0.5, rows - 0.5))
    ax.plot(c, r, color="#1f4e9c", lw=1.5, zorder=2)
    dr, dc = abs(int(r[-1] - r[0])), abs(int(c[-1] - c[0]))
    if len(t) > 1 and {dr, dc} == {1, 2}:
        ax.plot([c[-1], c[0]], [r[-1], r[0]], color="#1f4e9c", lw=1.5, ls="--", zorder=2)
    ring = dict(s=260 if max(rows, cols) <= 12 else 60, facecolors="white", linewidths=2, zorder=3)
    ax.scatter([c[0]], [r[0]], edgecolors="#1a9641", label="start", **ring)
    ax.scatter([c[-1]], [r[-1]], edgecolors="#d7191c", label="last square", **ring)
    if numbers is None:
        numbers = max(rows, cols) <= 40
    if numbers:
        size = 9 if max(rows, cols) <= 12 else max(3, 100 // max(rows, cols))
        for i, (y, x) in enumerate(zip(r, c)):
            ax.text(x, y, str(i + 1), ha="center", va="center", fontsize=size, zorder=4,
                    bbox=None if i in (0, len(t) - 1) else
                    dict(boxstyle="circle,pad=0.15", fc="white", ec="none", alpha=0.85))
    ax.set_xticks(range(cols), [square_name(k, cols)[:-1] for k in range(cols)])
    ax.set_yticks(range(rows), [str(k + 1) for k in range(rows)])
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(-0.5, rows - 0.5)
    closed = " (closed)" if len(t) > 1 and {dr, dc} == {1, 2} else ""
    ax.set_title(title or f"a knight's tour of {rows}x{cols}{closed}", fontsize=10)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.06), ncol=2, fontsize=8, frameon=False)
    if fig is not None:
        fig.tight_layout()
        if path is not None:
            fig.savefig(path, dpi=100)
        plt.close(fig)
    return ax
