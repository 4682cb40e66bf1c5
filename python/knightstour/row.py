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

from .errors import RowError


def _whole(value, where):
    """A whole number (0 or more) from JSON or CSV text, or a RowError."""
    if isinstance(value, bool):
        raise RowError(f"{where}: {value!r} is not a whole number")
    if isinstance(value, int):
        n = value
    elif isinstance(value, str) and value.isascii() and value.isdigit():
        n = int(value)
    else:
        raise RowError(f"{where}: {value!r} is not a whole number")
    if n < 0:
        raise RowError(f"{where}: {value!r} is not a whole number")
    return n


def _check_lengths(counts, where):
    """A row's lengths are 1 .. N, each once."""
    if sorted(counts) != list(range(1, len(counts) + 1)):
        absent = sorted(set(range(1, max(counts, default=0) + 1)) - set(counts))
        named = ", ".join(map(str, absent[:5])) + (", ..." if len(absent) > 5 else "")
        which = f"lengths {named} are" if len(absent) > 1 else f"length {named} is"
        raise RowError(f"{where}: {which} missing (a row has every length from 1 on)")


class Row:
    """The counts of one row. `what` is "closed" (closed cycles: each closed tour once,
    whatever its start and direction, OEIS's convention for A175855 and its kin) or "open"
    (undirected tours, i.e. Hamiltonian paths, those whose ends are a knight's move apart
    too: every tour once, not once per direction, as A083386 and its kin count them). The
    column of a CSV is named after them: closed_cycles, tours_undirected."""

    def __init__(self, rows, what, counts):
        if what not in ("closed", "open"):
            raise RowError(f"a row counts closed or open tours, not {what!r}")
        self.rows = int(rows)
        self.what = what
        self.counts = {int(n): int(c) for n, c in counts.items()}

    @classmethod
    def from_json(cls, source):
        """From the --json output of a count with --every-length: a path, or the parsed dict.
        RowError (naming the file) for anything that is not one complete row: lengths other
        than 1 .. N once each, an open count that is odd (each path is counted both ways but
        on one square), a count that is no whole number."""
        where = source if not isinstance(source, dict) else "this JSON"
        j = source
        if not isinstance(source, dict):
            try:
                with open(source) as f:
                    j = json.load(f)
            except (OSError, UnicodeDecodeError, ValueError) as e:
                raise RowError(f"{source}: cannot be read as JSON ({e})") from None
        if not isinstance(j, dict) or j.get("command") != "count" or j.get("by_length") is None:
            raise RowError(f"{where} is not the output of knightstour count --every-length "
                           "--json (no by_length list)")
        if j.get("modulus") is not None:
            raise RowError(f"{where}: residues modulo {j['modulus']} (count --modulus), not "
                           "counts: merge the job's residue units and read the merged run's row")
        try:
            if j["status"] != "complete":
                raise RowError(f"{where}: the count is incomplete: a stopped count has no row")
            rows, closed, by_length = j["rows"], j["closed_only"], j["by_length"]
            counts = {}
            for r in by_length:
                # `tours` is tours_directed's name before 0.1's JSON named the three counts.
                key = "closed_cycles" if closed else \
                    "tours_directed" if "tours_directed" in r else "tours"
                n, c = _whole(r["length"], where), _whole(r[key], where)
                if n in counts:
                    raise RowError(f"{where}: length {n} is given twice")
                if not closed and rows * n != 1:
                    # `tours` counts each path read both ways; one square is its own reverse.
                    if c % 2:
                        raise RowError(f"{where}: {c} open tours of {rows}x{n}, an odd number: "
                                       "each path is counted in both directions")
                    c //= 2
                if not closed and r.get("tours_undirected") is not None and \
                        _whole(r["tours_undirected"], where) != c:
                    raise RowError(f"{where}: length {n}: tours_undirected is not half of "
                                   "tours_directed")
                counts[n] = c
        except (KeyError, TypeError) as e:
            raise RowError(f"{where}: not the output of knightstour count --every-length --json "
                           f"(no {e})") from None
        _check_lengths(counts, where)
        return cls(_whole(rows, where), "closed" if closed else "open", counts)

    # The column a row's counts are in, by its kind (docs/formats.md, "Three counts").
    COLUMN = {"closed": "closed_cycles", "open": "tours_undirected"}

    @property
    def column(self):
        """The name of the counts this row holds: closed_cycles or tours_undirected."""
        return Row.COLUMN[self.what]

    @classmethod
    def from_csv(cls, path):
        """From a row's CSV: a header line, then one line a length. Its counts are in the column
        named by their kind: `tours_undirected` (an open row) or else `closed_cycles` (a closed
        row), as to_csv() and `knightstour count --every-length --csv` write them; CSVs of
        earlier versions (`count` and `what` columns) are read too. RowError (naming the file)
        for a column missing, lines of different heights or kinds, a kind that is not closed
        or open, lengths other than 1 .. N once each, a count that is no whole number."""
        try:
            with open(path, newline="") as f:
                reader = csv.DictReader(f)
                lines = list(reader)
                header = reader.fieldnames or []
        except (OSError, UnicodeDecodeError, csv.Error) as e:
            raise RowError(f"{path}: cannot be read as CSV ({e})") from None
        if "modulus" in header:
            raise RowError(f"{path}: residues (a modulus column: count --modulus), not counts: "
                           "merge the job's residue units and read the merged run's row")
        if "tours_undirected" in header or "closed_cycles" in header:
            what = "open" if "tours_undirected" in header else "closed"
            column, needed = cls.COLUMN[what], ("rows", "length")
        else:  # the columns before the kinds were named
            column, needed, what = "count", ("rows", "length", "count", "what"), None
        missing = [c for c in needed if c not in header]
        if missing or (what is None and "count" not in header):
            raise RowError(f"{path}: no {', '.join(missing) or 'count'} column (a row's CSV has "
                           "rows, length, and tours_undirected or closed_cycles)")
        if not lines:
            raise RowError(f"{path} holds no terms")
        heights = {r["rows"] for r in lines}
        if len(heights) != 1:
            raise RowError(f"{path}: lines of {len(heights)} heights ({', '.join(sorted(heights))} "
                           "rows): a row's CSV is of one")
        if what is None:
            kinds = {r["what"] for r in lines}
            if len(kinds) != 1 or not kinds <= {"closed", "open"}:
                raise RowError(f"{path}: what is {', '.join(sorted(kinds))}: a row's CSV is of "
                               "closed or of open tours")
            what = kinds.pop()
        counts = {}
        for r in lines:
            n = _whole(r["length"], path)
            if n in counts:
                raise RowError(f"{path}: length {n} is given twice")
            counts[n] = _whole(r[column], path)
        _check_lengths(counts, path)
        return cls(_whole(heights.pop(), path), what, counts)

    @property
    def lengths(self):
        return sorted(self.counts)

    def terms(self):
        """The counts by length, shortest first, as a list of Python ints."""
        return [self.counts[n] for n in self.lengths]

    def to_csv(self, path, columns=None):
        """rows, length, then the counts under their kind's name (tours_undirected or
        closed_cycles), then one column per entry of `columns` (a name to a {length: value}
        dict: results/rows/ adds known and checked). LF line ends."""
        columns = columns or {}
        with open(path, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["rows", "length", self.column, *columns])
            for n in self.lengths:
                w.writerow([self.rows, n, self.counts[n],
                            *(values[n] for values in columns.values())])
