"""Read knightstour run directories from Python.

    import knightstour as kt
    run = kt.Run("runs/6x6-a1")
    for tours in run.chunks(100_000):          # arrays of shape (n, R*C), bounded memory
        ...
    m = run.start_end_matrix()                 # tours by (start, end) square
    kt.grid(run.tour(0), run.rows, run.cols)   # move numbers, rank 1 at the bottom

Square index s = r * C + c, r the rank from the bottom (a1 = 0). Every tour file format is
read (npy, text, board; each plain or zstd; zstd needs the zstandard module).

    row = kt.Row.from_json("6x16.json")        # count 6x16 --closed --every-length --json
    row.counts[16]                             # a Python int, exact at any size
"""

from .board import (canonical, canonical_cycles, grid, is_mirror_symmetric, parse_square, square_name,
                    symmetries, tour_from_grid)
from . import oeis, plot
from .errors import Error, RowError, RunError
from .row import Row
from .run import Run, read_tour_file

__all__ = ["Run", "Row", "Error", "RunError", "RowError", "oeis", "plot", "read_tour_file", "square_name", "parse_square", "grid", "tour_from_grid",
           "symmetries", "canonical", "canonical_cycles", "is_mirror_symmetric"]
