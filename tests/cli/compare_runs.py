"""Exit 0 when two run directories hold exactly the same set of tours (as multisets)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
import numpy as np  # noqa: E402

from knightstour.run import Run, read_tour_file  # noqa: E402


def sorted_tours(path):
    run = Run(path)
    parts = [c for name in run.tour_files() for c in read_tour_file(name, run.rows, run.cols, 1 << 20)]
    t = np.ascontiguousarray(np.concatenate(parts) if parts else np.zeros((0, run.squares), np.uint8))
    rows = t.view(np.dtype((np.void, t.shape[1] * t.itemsize))).ravel()
    return np.sort(rows)


a, b = sorted_tours(sys.argv[1]), sorted_tours(sys.argv[2])
if a.shape != b.shape or not np.array_equal(a, b):
    print(f"different tour sets: {a.shape[0]} vs {b.shape[0]} tours")
    sys.exit(1)
print(f"same {a.shape[0]} tours")
