"""Board heat maps (matplotlib, Agg backend: works without a display)."""

import numpy as np

from .board import square_name


def heatmap(values, rows, cols, path, title, label, start=None, hatch=None):
    """Draws per-square values as a board (rank 1 at the bottom) to `path` (PNG): colour bar
    labelled `label`, the start square outlined, squares in `hatch` (a boolean array by
    square index, e.g. squares that can never be last) hatched instead of coloured."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    v = np.asarray(values, dtype=float).reshape(rows, cols)
    masked = np.ma.masked_array(v, mask=np.zeros_like(v, dtype=bool) if hatch is None
                                else np.asarray(hatch).reshape(rows, cols))
    fig, ax = plt.subplots(figsize=(max(5.0, 1.8 + 0.6 * cols), 1.2 + 0.6 * rows))
    image = ax.imshow(masked, origin="lower", cmap="viridis")
    if hatch is not None:
        for s in np.flatnonzero(hatch):
            r, c = divmod(int(s), cols)
            ax.add_patch(matplotlib.patches.Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False,
                                                      hatch="///", edgecolor="0.6", lw=0))
    if start is not None:
        r, c = divmod(int(start), cols)
        ax.add_patch(matplotlib.patches.Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False,
                                                  edgecolor="red", lw=2))
    ax.set_xticks(range(cols), [square_name(c, cols)[:-1] for c in range(cols)])
    ax.set_yticks(range(rows), [str(r + 1) for r in range(rows)])
    ax.set_xlabel("file")
    ax.set_ylabel("rank")
    ax.set_title(title, fontsize=10)
    fig.colorbar(image, ax=ax, label=label)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
