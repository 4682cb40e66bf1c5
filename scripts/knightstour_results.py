"""The first reader of knightstour run directories, kept for scripts that import it: a thin
layer over the package python/knightstour (use that: `import knightstour`).

    import sys; sys.path.insert(0, "scripts")
    import knightstour_results as kr
    run = kr.Run("runs/6x6-a1")
    j = run.journal()                    # one record per finished prefix (numpy structured array)
    for part in run.tour_arrays():       # each tour file as one array of shape (n, R*C)
        ...
    tours = run.all_tours()              # everything in one array (mind the memory)
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from knightstour import square_name  # noqa: E402,F401
from knightstour.run import Run as _Run, read_tour_file  # noqa: E402


class Run(_Run):
    def tour_arrays(self):
        """Each tour file as one array of shape (tours, R*C)."""
        for name in self.tour_files():
            chunks = list(read_tour_file(name, self.rows, self.cols, 1 << 20))
            yield np.concatenate(chunks) if chunks else np.zeros((0, self.squares), np.uint8)

    def all_tours(self):
        arrays = list(self.tour_arrays())
        if not arrays:
            return np.zeros((0, self.squares), dtype=np.uint8)
        return np.concatenate(arrays)
