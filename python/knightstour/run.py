"""Run directories and tour files, read in chunks so memory stays bounded."""

import glob
import io
import os

import numpy as np

from . import checks, frontier
from .errors import Error, RunError
from .board import parse_square, tour_from_grid

_EXTENSIONS = (".npy", ".txt", ".board")


def _open_stream(path):
    """A binary stream of the file's contents, decompressed for .zst (zstandard module)."""
    raw = open(path, "rb")
    if not path.endswith(".zst"):
        return raw
    import zstandard  # python3-zstandard

    return zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True,
                                                      closefd=True)


def _read_exactly(stream, n):
    parts, got = [], 0
    while got < n:
        b = stream.read(n - got)
        if not b:
            break
        parts.append(b)
        got += len(b)
    return b"".join(parts)


def _npy_chunks(path, squares, size):
    # Read, not memory-mapped: a mapped file's pages count as the process's memory until
    # unmapped, so a 1 GB file would show as 1 GB. Reading keeps it to one chunk.
    with _open_stream(path) as f:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
        elif version == (2, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
        else:
            raise Error(f"{path}: .npy version {version} (knightstour writes 1.0)")
        if fortran or len(shape) != 2 or shape[1] != squares:
            raise Error(f"{path}: not an (n, {squares}) C-order array")
        row = dtype.itemsize * squares
        left = shape[0]
        while left > 0:
            n = min(size, left)
            data = _read_exactly(f, n * row)
            if len(data) != n * row:
                raise Error(f"{path}: truncated")
            yield np.frombuffer(data, dtype=dtype).reshape(n, squares)
            left -= n


def _text_chunks(path, rows, cols, size):
    names = {}
    batch = []
    with io.TextIOWrapper(_open_stream(path), encoding="ascii") as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            tour = []
            for w in words:
                if w not in names:
                    names[w] = parse_square(w, cols)
                tour.append(names[w])
            batch.append(tour)
            if len(batch) == size:
                yield np.array(batch, dtype=np.int64)
                batch = []
    if batch:
        yield np.array(batch, dtype=np.int64)


def _board_chunks(path, rows, cols, size):
    batch, block = [], []
    with io.TextIOWrapper(_open_stream(path), encoding="ascii") as f:
        for line in f:
            if line.strip():
                block.append([int(x) for x in line.split()])
                if len(block) == rows:  # rank R first: flip so rank 1 is row 0
                    batch.append(tour_from_grid(np.array(block[::-1])))
                    block = []
                    if len(batch) == size:
                        yield np.array(batch, dtype=np.int64)
                        batch = []
    if block:
        raise Error(f"{path}: a board of {len(block)} lines, not {rows}")
    if batch:
        yield np.array(batch, dtype=np.int64)


def start_end_counts(tours, squares):
    """Tours by (start square, last square) of an (n, squares) array, as a (squares, squares)
    uint64 array (add the arrays of several chunks)."""
    t = np.asarray(tours, dtype=np.int64)
    flat = np.bincount(t[:, 0] * squares + t[:, -1], minlength=squares * squares)
    return flat.reshape(squares, squares).astype(np.uint64)


def read_tour_file(path, rows, cols, chunk=65536):
    """Yields the tours of one tour file (any format, plain or .zst) as arrays of at most
    `chunk` rows, each row the square indices in visit order."""
    base = path[:-4] if path.endswith(".zst") else path
    if base.endswith(".npy"):
        yield from _npy_chunks(path, rows * cols, chunk)
    elif base.endswith(".txt"):
        yield from _text_chunks(path, rows, cols, chunk)
    elif base.endswith(".board"):
        yield from _board_chunks(path, rows, cols, chunk)
    else:
        raise Error(f"{path}: not a tour file")


class Run:
    """A run directory of `knightstour count --run-dir` (either method; over MPI ranks, the
    directory that holds ranks.json), `enumerate` or `enumerate --sample`. A frontier run
    (method "frontier") holds counts, not tours or a journal: counts() and by_start() read
    them, and a complete count by units of end pairs (a single run, or `merge`'s) also gives
    by_end() and start_end_matrix(); the tour and journal readers refuse it.

    The directory is checked when it is opened as the binary checks it before it reads a
    count (knightstour.checks): a run that verify, status, --resume or merge refuses raises
    kt.RunError, naming the file at fault. Checkpoints of unfinished sweeps are read in full
    (about 15 MB/s)."""

    def __init__(self, path):
        self.path = path
        # Every check the binary makes before it reads a count (checks.py): a run verify,
        # status, --resume or merge refuses is refused here, with a RunError naming the path.
        self.manifest, self._held = checks.check_run(path)
        self.rows = self.manifest["rows"]
        self.cols = self.manifest["cols"]
        self.squares = self.rows * self.cols
        self.is_sample = bool(self.manifest.get("sample", 0))
        self.method = self.manifest.get("method", "dfs")
        self.status = self.manifest["status"]

    def _tours_needed(self, what):
        if self.method != "dfs":
            raise RunError(f"{self.path} is a {self.method} run: it holds counts, not tours "
                             f"or a journal, so it has no {what}; use counts() and by_start()")

    def counts(self):
        """The run's counts as Python ints (exact at any size): tours_directed,
        closed_tours_directed and closed_cycles (None when it does not apply), and whether
        they are complete; `tours` and `closed_tours` are the first two under their names
        before 0.1 named the three counts (docs/formats.md)."""
        if self.method == "frontier":
            c = self.manifest["frontier"]["counts"]
            if c is None:
                tours = closed = cycles = None
            else:
                units = self.manifest["frontier"].get("units", {"shard_count": 1})
                tours, closed = int(c["tours"]), int(c["closed_tours"])
                # a shard's share holds parts of cycles
                cycles = int(c["closed_cycles"]) if units["shard_count"] == 1 else None
            complete = c is not None
        else:
            t = self.manifest["totals"]
            complete, tours, closed, cycles = self.status == "complete", t["tours"], \
                t["closed_tours"], None
        return {"complete": complete, "tours_directed": tours, "closed_tours_directed": closed,
                "closed_cycles": cycles, "tours": tours, "closed_tours": closed}

    def row(self):
        """A run of `count RxN --every-length --run-dir DIR`: the row as a Row (row.py), the
        undirected tours of R x n by length n as Python ints. An unfinished run gives the
        lengths its manifest lists as finished when its last session ended (a sweep across
        the rows finishes each length as it passes it)."""
        from .row import Row

        f = self.manifest["frontier"] if self.method == "frontier" else {}
        if not f.get("every_length"):
            raise RunError(f"{self.path} is a count of one board, not a row: a row is counted "
                             "by knightstour count RxN --closed --every-length --run-dir DIR")
        done = self._held  # the manifest's and the sweep journal's, checked
        cols = self.cols
        if self.manifest["closed_only"]:
            return Row(self.rows, "closed", {u + 1: c for u, c in done.items() if u < cols})
        # Units cols .. 2 cols - 1 hold the paths (each once); one square is a tour by itself.
        return Row(self.rows, "open", {u - cols + 1: (1 if self.rows * (u - cols + 1) == 1 else c)
                                       for u, c in done.items() if u >= cols})

    def tour_files(self):
        """Finished tour files, in shard then part order (the order `show --row` counts)."""
        out = []
        for name in glob.glob(os.path.join(self.path, "tours-*")):
            base = os.path.basename(name)
            stem = base[:-4] if base.endswith(".zst") else base
            if base.endswith(".tmp") or not stem.endswith(_EXTENSIONS):
                continue
            shard, part = stem.split(".")[0].split("-")[1:3]
            out.append(((int(shard), int(part)), name))
        return [name for _, name in sorted(out)]

    def chunks(self, size=65536):
        """Every tour of the run, as arrays of at most `size` rows (bounded memory)."""
        self._tours_needed("tours")
        for name in self.tour_files():
            yield from read_tour_file(name, self.rows, self.cols, size)

    def tour(self, row):
        """The row-th tour, numbered as `knightstour show --row` numbers them: over the work
        units by id, each unit's tours in the order its search found them, so the same row
        is the same tour on every run of a command (a sample run: over its files in order).
        chunks() reads in file order, which depends on which thread wrote which file."""
        self._tours_needed("tours")
        if self.manifest.get("sample", 0):
            return self._tour_in_file_order(row)
        for rec in self.journal():
            if row >= rec["tours"]:
                row -= int(rec["tours"])
                continue
            prefix = np.array([parse_square(q, self.cols) for q in rec["squares"].split(",")])
            for c in read_tour_file(os.path.join(self.path, rec["file"]), self.rows, self.cols):
                mine = c[(c[:, :len(prefix)] == prefix).all(axis=1)]
                if row < len(mine):
                    return np.asarray(mine[row], dtype=np.int64)
                row -= len(mine)
            raise RunError(f"{os.path.join(self.path, rec['file'])} holds fewer tours of prefix "
                           f"{rec['id']} than its journal line says: run knightstour verify on it")
        raise IndexError("no such row")

    def _tour_in_file_order(self, row):
        for c in self.chunks():
            if row < len(c):
                return np.asarray(c[row], dtype=np.int64)
            row -= len(c)
        raise IndexError("no such row")

    def journal(self):
        """Finished prefixes, by id: fields id, squares, tours, closed, nodes, seconds, and file
        (enumerate) or by_end (count: tours by last square, one column per square index).
        Only committed lines: a torn last line, or the lines of a tour file lost in an
        unfinished run, are not finished prefixes."""
        self._tours_needed("journal")
        count = self.manifest["command"] == "count"
        records = []
        for r in self._held.values():
            head = (r["id"], r["squares"], r["tours"], r["closed"], r["nodes"], r["seconds"])
            tail = (np.array(r["by_end"], dtype=np.uint64),) if count else (r["file"],)
            records.append(head + tail)
        last = ("by_end", np.uint64, (self.squares,)) if count else ("file", "U64")
        dtype = [("id", np.int64), ("squares", "U256"), ("tours", np.uint64),
                 ("closed", np.uint64), ("nodes", np.uint64), ("seconds", np.float64), last]
        return np.sort(np.array(records, dtype=dtype), order="id")

    def _frontier_table(self):
        """The start x end table of a complete frontier count by units of end pairs."""
        f = self.manifest["frontier"]
        units = f.get("units")
        if units is None:
            how = "from one start" if not self.manifest["all_starts"] else (
                "as a total only" if f.get("total_only") else "by pinned tails")
            raise RunError(f"{self.path} is a frontier count {how}: it has no table by last "
                             "square; a count by units of end pairs has one (knightstour count "
                             "BOARD --all-starts --grid end-pairs --run-dir DIR)")
        if units["shard_count"] > 1:
            raise RunError(f"{self.path} is shard {units['shard_index']} of "
                             f"{units['shard_count']}: merge every shard (knightstour merge) and "
                             "read the merged run")
        if f["counts"] is None:
            raise RunError(f"{self.path} is incomplete ({len(f['finished'])} of "
                             f"{f['sweeps_planned']} units in its manifest): finish it "
                             f"(knightstour count --run-dir {self.path} --resume) first")
        return frontier.start_end_table(self.rows, self.cols, self._held)

    def start_end_matrix(self):
        """Tours by (start square, last square) as a (squares, squares) array: from the
        journal of a count run, from the tours of any other run (streamed), both uint64; from
        the units of a frontier count by end pairs, int64 or Python ints past 2**63."""
        if self.method == "frontier":
            table = self._frontier_table()
            return frontier.as_integers([v for row in table for v in row]).reshape(
                self.squares, self.squares)
        self._tours_needed("table by last square")
        n = self.squares
        m = np.zeros((n, n), dtype=np.uint64)
        if self.manifest["command"] == "count":
            for rec in self.journal():
                start = parse_square(rec["squares"].split(",")[0], self.cols)
                m[start] += rec["by_end"]
            return m
        for c in self.chunks():
            m += start_end_counts(c, n)
        return m

    def by_start(self):
        """Tours from each start square (index r * cols + c). A frontier run over all starts
        gives int64, or Python ints (dtype object) where a count passes 2**63."""
        if self.method == "frontier":
            c = self.manifest["frontier"]["counts"]
            if c is None or not c["tours_by_start"]:
                raise RunError(f"{self.path}: no counts by start square (an incomplete run, "
                                 "one start, or --total-only)")
            return frontier.as_integers(c["tours_by_start"])
        return self.start_end_matrix().sum(axis=1)

    def by_end(self):
        """Tours by last square (index r * cols + c), of the same type as start_end_matrix()."""
        m = self.start_end_matrix()
        if m.dtype == object:
            return frontier.as_integers(m.sum(axis=0))
        return m.sum(axis=0)
