"""Exit 0 when two run directories hold exactly the same set of tours (as multisets)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
import numpy as np  # noqa: E402

import knightstour_results as kr  # noqa: E402


def sorted_tours(path):
    t = np.ascontiguousarray(kr.Run(path).all_tours())
    rows = t.view(np.dtype((np.void, t.shape[1] * t.itemsize))).ravel()
    return np.sort(rows)


a, b = sorted_tours(sys.argv[1]), sorted_tours(sys.argv[2])
if a.shape != b.shape or not np.array_equal(a, b):
    print(f"different tour sets: {a.shape[0]} vs {b.shape[0]} tours")
    sys.exit(1)
print(f"same {a.shape[0]} tours")
