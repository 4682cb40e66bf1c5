"""A row of the field's tables: the tours of R x n for n = 1 .. N, from
`knightstour count RxN --closed --every-length --json` (closed tours) or
`count RxN --all-starts --total-only --every-length --json` (open and closed tours).

    row = kt.Row.from_json("6x16-closed.json")
    row.counts            # {1: 0, 2: 0, ..., 16: 2974...}: Python ints, exact at any size
    row.to_csv("6-closed.csv")

The counts are Python ints (json reads integers of any size exactly), never floats or numpy
object arrays, so a term of 300 bits is the same number the binary printed.
"""

import csv
import json


class Row:
    """The counts of one row. `what` is "closed" (undirected closed tours, OEIS's
    convention for A175855 and its kin) or "open" (undirected open tours, i.e. Hamiltonian
    paths, those whose ends are a knight's move apart too: every tour once, not once per
    direction, as A083386 and its kin count them)."""

    def __init__(self, rows, what, counts):
        if what not in ("closed", "open"):
            raise ValueError(f"a row counts closed or open tours, not {what!r}")
        self.rows = int(rows)
        self.what = what
        self.counts = {int(n): int(c) for n, c in counts.items()}

    @classmethod
    def from_json(cls, source):
        """From the --json output of a count with --every-length: a path, or the parsed dict."""
        j = source
        if not isinstance(source, dict):
            with open(source) as f:
                j = json.load(f)
        if j.get("command") != "count" or j.get("by_length") is None:
            where = source if not isinstance(source, dict) else "this JSON"
            raise ValueError(f"{where} is not the output of knightstour count --every-length "
                             "--json (no by_length list)")
        if j["status"] != "complete":
            raise ValueError("the count is incomplete: a stopped count has no row")
        by_length = j["by_length"]
        if j["closed_only"]:
            return cls(j["rows"], "closed", {r["length"]: r["closed_cycles"] for r in by_length})
        # `tours` counts each path read both ways; one square is its own reverse.
        open_tours = {}
        for r in by_length:
            single = j["rows"] * r["length"] == 1
            open_tours[r["length"]] = r["tours"] if single else r["tours"] // 2
        return cls(j["rows"], "open", open_tours)

    @classmethod
    def from_csv(cls, path):
        """From a CSV of to_csv(): a header line, then rows, length, count, what."""
        with open(path, newline="") as f:
            lines = list(csv.DictReader(f))
        if not lines:
            raise ValueError(f"{path} holds no terms")
        what = lines[0].get("what", "closed")
        return cls(lines[0]["rows"], what, {r["length"]: r["count"] for r in lines})

    @property
    def lengths(self):
        return sorted(self.counts)

    def terms(self):
        """The counts by length, shortest first, as a list of Python ints."""
        return [self.counts[n] for n in self.lengths]

    def to_csv(self, path, columns=None):
        """rows, length, count, what, then one column per entry of `columns` (a name to a
        {length: value} dict: results/rows/ adds known and checked)."""
        columns = columns or {}
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["rows", "length", "count", "what", *columns])
            for n in self.lengths:
                w.writerow([self.rows, n, self.counts[n], self.what,
                            *(values[n] for values in columns.values())])
