"""Read knightstour run directories from Python (numpy).

    import sys; sys.path.insert(0, "scripts")
    import knightstour_results as kr
    run = kr.Run("runs/6x6-a1")
    run.manifest["totals"]["tours"]      # manifest.json as a dict
    j = run.journal()                    # one record per finished prefix (numpy structured array)
    for part in run.tour_arrays():       # each tour file as an array of shape (n, R*C)
        ...
    tours = run.all_tours()              # everything in one array (mind the memory)

Square index s = r * C + c with r the rank from the bottom (a1 = 0). Uncompressed .npy
files are memory-mapped; .npy.zst files need the zstandard module (python3-zstandard).
"""

import glob
import io
import json
import os

import numpy as np


def square_name(index, cols):
    """a1-style name of a square index (files a..z, then aa, ab, ...)."""
    r, c = divmod(int(index), cols)
    n, name = c + 1, ""
    while n > 0:
        n -= 1
        name = chr(ord("a") + n % 26) + name
        n //= 26
    return f"{name}{r + 1}"


def load_npy(path):
    """A tour file (.npy or .npy.zst) as an array; .npy files are memory-mapped."""
    if path.endswith(".zst"):
        import zstandard  # python3-zstandard

        with open(path, "rb") as f:
            data = zstandard.ZstdDecompressor().stream_reader(f, read_across_frames=True).read()
        return np.load(io.BytesIO(data))
    return np.load(path, mmap_mode="r")


class Run:
    """A run directory written by `knightstour count --run-dir` or `knightstour enumerate`."""

    def __init__(self, path):
        self.path = path
        with open(os.path.join(path, "manifest.json")) as f:
            self.manifest = json.load(f)
        self.rows = self.manifest["rows"]
        self.cols = self.manifest["cols"]
        self.squares = self.rows * self.cols

    def journal(self):
        """Finished prefixes: fields id, squares, tours, closed, nodes, seconds, and file
        (enumerate) or by_end (count: tours by last square, one column per square index)."""
        count = self.manifest["command"] == "count"
        records = []
        for name in sorted(glob.glob(os.path.join(self.path, "journal-*.tsv"))):
            with open(name) as f:
                for line in f:
                    if not line.endswith("\n") or line.startswith("#"):
                        continue  # header, or a line torn by a crash (not committed)
                    fields = line.rstrip("\n").split("\t")
                    head = (int(fields[0]), fields[1], int(fields[2]), int(fields[3]), int(fields[4]), float(fields[5]))
                    tail = (np.array(fields[6:], dtype=np.uint64),) if count else (fields[6],)
                    records.append(head + tail)
        last = ("by_end", np.uint64, (self.squares,)) if count else ("file", "U64")
        dtype = [("id", np.int64), ("squares", "U256"), ("tours", np.uint64), ("closed", np.uint64),
                 ("nodes", np.uint64), ("seconds", np.float64), last]
        out = np.array(records, dtype=dtype)
        return np.sort(out, order="id")

    def tour_files(self):
        names = [n for n in glob.glob(os.path.join(self.path, "tours-*")) if not n.endswith(".tmp")]
        names = [n for n in names if n.endswith(".npy") or n.endswith(".npy.zst")]

        def shard_and_part(name):  # tours-<shard>-<part>.npy: numeric order, as `show` counts rows
            shard, part = os.path.basename(name).split(".")[0].split("-")[1:3]
            return int(shard), int(part)

        return sorted(names, key=shard_and_part)

    def tour_arrays(self):
        """Each .npy / .npy.zst tour file as an array of shape (tours, R*C)."""
        for name in self.tour_files():
            yield load_npy(name)

    def all_tours(self):
        arrays = list(self.tour_arrays())
        if not arrays:
            return np.zeros((0, self.squares), dtype=np.uint8)
        return np.concatenate(arrays)
