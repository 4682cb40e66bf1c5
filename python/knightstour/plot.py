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
