"""A run directory checked as the binary checks it before it reads a count from it (verify
short of reading every tour, status, count --resume, merge): what any of them refuses, Run()
refuses too, with a RunError whose message starts with the file or directory at fault.

Mirrors src/run/manifest.cpp and src/run/verify.cpp (the enumerator: manifest and journal
checksums keyed by the job, duplicates, gaps, totals) and src/frontier_run/ (the frontier
method: manifest and sweep journal checksums, counts that follow from the sweeps, every
checkpoint's header and data, the shares of a count over MPI ranks). What needs the plan of
prefixes (which squares a prefix id names, which shard it is in, its mirror images) is the
binary's alone: `knightstour verify` checks it too.

What an interrupted session leaves in a run that is not finished (a torn last journal line,
a finished tour file not yet journaled, a tour file whose lines were lost, temp files) is not
a fault: those prefixes, or that sweep, are simply not done, as the binary takes them.
"""

import json
import os
import re
import sys

from .errors import RunError
from .frontier import MASK, fnv1a, job_key, manifest_checksum

# Manifest versions each method has written (src/run/manifest.hpp).
DFS_VERSIONS = (1, 2, 3, 5)
FRONTIER_VERSIONS = (3, 4)


def keyed_checksum(key, text):
    """The binary's keyed_checksum: FNV-1a over the key, a newline and the text."""
    return fnv1a(key + "\n" + text)


def read_json(path):
    """A JSON file, or a RunError naming it."""
    if os.path.lexists(path) and not os.path.isfile(path):
        raise RunError(f"{path}: not a regular file")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        raise RunError(f"{path}: does not exist") from None
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise RunError(f"{path}: cannot be read as JSON ({e})") from None


def _fields(m, path, *keys):
    try:
        for k in keys:
            m = m[k]
        return m
    except (KeyError, TypeError, IndexError):
        raise RunError(f"{path}: not a valid manifest: no {'.'.join(keys)}") from None


class _Fields:
    """Reads a manifest's fields as the binary's RunManifest::from_json does: a field it
    requires missing, or of another type (a count that is no whole number, a fraction, a
    negative where none can be), is a RunError naming the file."""

    INT = (-(1 << 31), (1 << 31) - 1)
    U64 = (0, (1 << 64) - 1)

    def __init__(self, path):
        self.path = path

    def bad(self, why):
        return RunError(f"{self.path}: not a valid manifest: {why}")

    def get(self, obj, key, kind, required=True, span=INT):
        if not isinstance(obj, dict):
            raise self.bad(f"{key}'s object is not an object")
        if key not in obj:
            if required:
                raise self.bad(f"no {key}")
            return None
        v = obj[key]
        ok = {"str": isinstance(v, str), "bool": isinstance(v, bool),
              "number": isinstance(v, (int, float)) and not isinstance(v, bool),
              "int": isinstance(v, int) and not isinstance(v, bool),
              "list": isinstance(v, list), "dict": isinstance(v, dict)}[kind]
        if not ok:
            raise self.bad(f"{key} is {json.dumps(v)}, not {'a whole number' if kind == 'int' else kind}")
        if kind == "int" and not span[0] <= v <= span[1]:
            raise self.bad(f"{key} {v} is out of range")
        return v


def _check_common(m, f):
    f.get(m, "format", "str")
    version = f.get(m, "format_version", "int")
    method = f.get(m, "method", "str", required=False) or "dfs"
    known = {"dfs": DFS_VERSIONS, "frontier": FRONTIER_VERSIONS}.get(method)
    if known is None:
        raise f.bad(f"unknown method {method!r}")
    if m["format"] != "knightstour-run":
        raise RunError(f"{f.path}: not a knightstour run manifest")
    if method == "frontier" and version == 5:
        raise RunError(f"{f.path}: a residue unit (count --modulus): its counts are residues "
                       "modulo a prime, not counts; read the exact counts that knightstour merge "
                       "of the job's units gives")
    if version not in known:
        raise RunError(f"{f.path}: unsupported manifest version {version!r} of the {method} method "
                       f"(this package reads {', '.join(map(str, known))})")
    for key in ("knightstour_version", "git_commit", "command_line", "host", "cpu_model",
                "slurm_job", "stop_reason"):
        f.get(m, key, "str", required=False)
    if f.get(m, "command", "str") not in ("count", "enumerate"):
        raise f.bad(f"unknown command {m['command']!r}")
    rows, cols = f.get(m, "rows", "int"), f.get(m, "cols", "int")
    if "board" in m and m["board"] != f"{rows}x{cols}":
        raise f.bad(f"board {json.dumps(m['board'])} is not its rows x cols ({rows}x{cols})")
    f.get(m, "all_starts", "bool")
    if not all(isinstance(x, str) for x in f.get(m, "prefix", "list")):
        raise f.bad("prefix is not a list of squares")
    f.get(m, "closed_only", "bool")
    if f.get(m, "status", "str") not in ("complete", "incomplete"):
        raise f.bad(f"status {m['status']!r}")
    t = f.get(m, "timings", "dict")
    f.get(t, "created", "str")
    f.get(t, "updated", "str")
    f.get(t, "seconds", "number")
    f.get(t, "sessions", "int")
    f.get(t, "cpu_seconds", "number", required=False)
    f.get(t, "nodes_searched", "int", required=False, span=_Fields.U64)
    for i in f.get(m, "inputs", "list", required=False) or []:
        f.get(i, "dir", "str")
        f.get(i, "shard_index", "int")
        for key in ("host", "slurm_job", "git_commit"):
            f.get(i, key, "str", required=False)
    return method


def _check_enumerator(m, f):
    u64 = _Fields.U64
    f.get(m, "sample", "int", required=False, span=u64)
    if f.get(m, "algorithm", "str") not in ("pruned", "naive"):
        raise f.bad(f"unknown algorithm {m['algorithm']!r}")
    f.get(m, "prefix_rules", "str")
    depth = f.get(m, "split_depth", "int")
    shard = f.get(m, "shard", "dict")
    index, count = f.get(shard, "index", "int"), f.get(shard, "count", "int")
    if f.get(shard, "rule", "str", required=False) not in (None, "orbits", "ids"):
        raise f.bad(f"unknown shard rule {shard['rule']!r}")
    if m["command"] == "enumerate":
        if f.get(m, "tour_format", "str") not in ("npy", "text", "board"):
            raise f.bad(f"unknown format {m['tour_format']!r}")
        if f.get(m, "compression", "str") not in ("none", "zstd"):
            raise f.bad(f"unknown compression {m['compression']!r}")
        f.get(m, "part_size", "int", span=u64)
        f.get(m, "checkpoint_seconds", "number")
    f.get(m, "threads", "int", required=False)
    f.get(m, "symmetry", "bool", required=False)
    caps = f.get(m, "caps", "dict")
    f.get(caps, "max_nodes", "int", span=u64)
    f.get(caps, "max_tours", "int", span=u64)
    f.get(caps, "time_limit", "number")
    t = f.get(m, "totals", "dict")
    for key in ("prefixes_in_plan", "prefixes", "prefixes_done", "tours", "closed_tours", "nodes"):
        f.get(t, key, "int", span=u64)
    f.get(t, "tour_files", "int", required=False, span=u64)
    if m["format_version"] >= 5:
        f.get(m, "checksum", "str")
    rows, cols = m["rows"], m["cols"]
    if (rows < 1 or cols < 1 or rows * cols > 64 or not 0 <= depth < rows * cols or count < 1
            or not 0 <= index < count or (not m["all_starts"] and not m["prefix"])):
        raise f.bad("inconsistent fields")


def _check_frontier_fields(m, f):
    f.get(m, "threads", "int", required=False)
    f.get(f.get(m, "caps", "dict"), "time_limit", "number", required=False)
    fr = f.get(m, "frontier", "dict")
    if f.get(fr, "total_only", "bool", required=False) and (not m["all_starts"] or m["closed_only"]):
        raise f.bad("a total-only run is of open tours over all starts")
    if f.get(fr, "every_length", "bool", required=False) and not m["all_starts"]:
        raise f.bad("a row is counted over all starts")
    units = f.get(fr, "units", "dict", required=False)
    if units is not None:
        if units.get("by") != "end pairs":
            raise f.bad(f"units by {json.dumps(units.get('by'))} are unknown")
        index, count = f.get(units, "shard_index", "int"), f.get(units, "shard_count", "int")
        if not (count >= 1 and 0 <= index < count):
            raise f.bad(f"units: shard {index} of {count} does not exist")
        if not m["all_starts"] or m["closed_only"] or fr.get("total_only"):
            raise f.bad("units by end pairs count open tours over all starts")
    owner = f.get(fr, "owner", "dict", required=False)
    if owner is not None:
        rank, ranks = f.get(owner, "rank", "int"), f.get(owner, "ranks", "int")
        run_id = f.get(owner, "run_id", "str")
        if not (1 <= ranks <= 1000000 and 0 <= rank < ranks):
            raise f.bad(f"owner: rank {rank} of {ranks} is out of range")
        if not re.fullmatch(r"[0-9a-f]{16}", run_id):
            raise f.bad(f"owner: run_id {run_id!r} is not 16 hex digits")
    planned = f.get(fr, "sweeps_planned", "int")
    if not (0 if units is not None else 1) <= planned <= 1000000:
        raise f.bad(f"sweeps_planned {planned} is out of range")
    seen = set()
    for s in f.get(fr, "finished", "list"):
        sweep, count = f.get(s, "sweep", "int"), f.get(s, "count", "str")
        if not 0 <= sweep < planned:
            raise f.bad(f"finished sweep {sweep} is not in the plan")
        if not _DECIMAL.match(count) or len(count) >= 200:
            raise f.bad(f"sweep count {count!r} is not a number")
        if sweep in seen:
            raise f.bad(f"sweep {sweep} is listed as finished twice")
        seen.add(sweep)
    if fr.get("counts", 0) is None:
        pass
    else:
        c = f.get(fr, "counts", "dict")
        for key in ("tours", "closed_tours", "closed_cycles"):
            v = f.get(c, key, "str")
            if not _DECIMAL.match(v) or len(v) >= 200:
                raise f.bad(f"count {v!r} is not a number")
        if not all(isinstance(x, str) for x in f.get(c, "tours_by_start", "list")):
            raise f.bad("tours_by_start is not a list of counts")
    f.get(fr, "checkpoint_seconds", "number", required=False)
    f.get(fr, "checksum", "str")
    rows, cols = m["rows"], m["cols"]
    if (rows < 1 or cols < 1 or min(rows, cols) > 16 or max(rows, cols) > 100000
            or m["command"] != "count" or m["all_starts"] == (len(m["prefix"]) == 1)
            or len(m["prefix"]) > 1):
        raise f.bad("inconsistent fields")


def read_manifest(dir_path):
    """manifest.json of a run directory, its fields checked as the binary reads them (the
    checksums by check_run)."""
    path = os.path.join(dir_path, "manifest.json")
    m = read_json(path)
    f = _Fields(path)
    if not isinstance(m, dict):
        raise RunError(f"{path}: not a knightstour run manifest")
    if _check_common(m, f) == "frontier":
        _check_frontier_fields(m, f)
    else:
        _check_enumerator(m, f)
    return m


# The enumerator ----------------------------------------------------------------------------

def dfs_job_key(m):
    """The run's job as the binary keys its checksums (dfs_job_key, manifest.cpp)."""
    shard = m["shard"]
    text = (f"knightstour-dfs|{m['command']}|{m['rows']}x{m['cols']}|"
            f"{'all' if m['all_starts'] else ''}|{'closed' if m['closed_only'] else 'open'}|")
    text += "".join(sq + "," for sq in m["prefix"])
    text += f"|{m['algorithm']}|{m['prefix_rules']}|depth {m['split_depth']}"
    text += f"|shard {shard['index']} of {shard['count']} {shard.get('rule', 'ids')}"
    text += "|symmetry" if m.get("symmetry", True) else "|no symmetry"
    if m["command"] == "enumerate":
        text += f"|{m['tour_format']}|{m['compression']}"
    if m.get("sample", 0):
        text += f"|sample {m['sample']}"
    return text


def dfs_checksum(m):
    """What a format-5 enumerator manifest's checksum must be (dfs_checksum, manifest.cpp)."""
    t = m["totals"]
    text = m["status"] + "".join(
        f"|{t.get(k, 0)}" for k in ("prefixes_in_plan", "prefixes", "prefixes_done", "tours",
                                    "closed_tours", "nodes", "tour_files"))
    return keyed_checksum(dfs_job_key(m), text)


def journal_header(count, squares, key):
    """The first line of a journal (journal_header, journal.cpp), its newline included."""
    h = "# knightstour journal v3 (" if key else "# knightstour journal v2 ("
    h += "count" if count else "enumerate"
    h += "): id\tsquares\ttours\tclosed\tnodes\tseconds\t"
    h += (f"tours by last square, {squares} columns in square-index order" if count
          else "file\tfile_rows\tfile_bytes")
    if key:
        h += "\tcheck (keyed by the run's job)"
    return h + "\n"


_DECIMAL = re.compile(r"(0|[1-9][0-9]*)\Z")
_TOUR_FILE = re.compile(r"tours-(0|[1-9][0-9]*)-(0|[1-9][0-9]*)\.(npy|txt|board)(\.zst)?\Z")


def _whole(text):
    if not _DECIMAL.match(text):
        raise ValueError(text)
    return int(text)


def _knight_neighbours(square, rows, cols):
    r, c = divmod(square, cols)
    out = []
    for dr, dc in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)):
        if 0 <= r + dr < rows and 0 <= c + dc < cols:
            out.append((r + dr) * cols + c + dc)
    return out


def _parse_square(name, cols):
    m = re.fullmatch(r"([a-z]+)([1-9][0-9]*)", name)
    if not m:
        raise ValueError(name)
    c = 0
    for ch in m.group(1):
        c = c * 26 + (ord(ch) - ord("a") + 1)
    return (int(m.group(2)) - 1) * cols + c - 1


def read_journal(path, m):
    """The lines of one journal of the enumerator's run `m`: (records, torn). Each record a
    dict: id, squares, tours, closed, nodes, seconds, then file, file_rows, file_bytes
    (enumerate) or by_end (count: a list of ints). RunError for a line that is malformed or,
    in a run of format 5, does not check out."""
    count = m["command"] == "count"
    rows, cols = m["rows"], m["cols"]
    squares = rows * cols
    key = dfs_job_key(m) if m["format_version"] >= 5 else ""
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise RunError(f"{path}: not a journal (bytes that are not text)") from None
    lines = text.split("\n")
    torn = lines.pop() != ""
    records = []
    for number, line in enumerate(lines, 1):
        def bad(why):
            return RunError(f"{path} line {number}: {why}")
        if key:
            if number == 1:
                if line + "\n" != journal_header(count, squares, key):
                    raise bad("not the header of this run's journal (v3, with checksums)")
                continue
            body, _, check = line.rpartition("\t")
            if not body or check != keyed_checksum(key, body):
                raise bad("does not check out (damaged, edited, or of another job or shard); "
                          "the journal is written by knightstour only")
            line = body
        else:
            if line.startswith("# knightstour journal v3"):
                raise bad("a journal with checksums (v3) in a run whose manifest has none")
            if not line or line.startswith("#"):
                continue
        f = line.split("\t")
        try:
            if count:
                if len(f) != 6 + squares:
                    raise ValueError("fields")
                by_end = [_whole(x) for x in f[6:]]
                tail = {"by_end": by_end}
            else:
                if len(f) not in ((7, 9) if not key else (9,)):
                    raise ValueError("fields")
                tail = {"file": f[6], "file_rows": _whole(f[7]) if len(f) == 9 else 0,
                        "file_bytes": _whole(f[8]) if len(f) == 9 else 0}
                if not tail["file"] or "/" in tail["file"]:
                    raise ValueError("file")
            r = {"id": _whole(f[0]), "squares": f[1], "tours": _whole(f[2]),
                 "closed": _whole(f[3]), "nodes": _whole(f[4]), "seconds": float(f[5]), **tail}
        except ValueError:
            raise bad("malformed record") from None
        if not r["squares"] or r["closed"] > r["tours"]:
            raise bad("malformed record")
        if count:
            if sum(r["by_end"]) != r["tours"]:
                raise bad("counts by last square do not add up to the tours")
            try:
                start = _parse_square(r["squares"].split(",")[0], cols)
            except ValueError:
                raise bad("malformed squares") from None
            if not 0 <= start < squares:
                raise bad("malformed squares")
            closed = sum(r["by_end"][e] for e in _knight_neighbours(start, rows, cols))
            if closed != r["closed"]:
                raise bad("closed count disagrees with the counts by last square")
        records.append(r)
    return records, torn


def _file_matches(file, recs, m):
    """Whether a tour file holds the tours its journal lines give: by the rows and size they
    recorded when it was published, else (journal v1, or a file numpy saved again in another
    type) by its rows, counted (file_matches, committed_journal.cpp)."""
    recorded = {(r["file_rows"], r["file_bytes"]) for r in recs if r["file_bytes"]}
    tours = sum(r["tours"] for r in recs)
    if not os.path.isfile(file):
        return False
    if len(recorded) == 1 and recorded.pop() == (tours, os.path.getsize(file)):
        return True
    from .run import read_tour_file  # run.py reads tour files, and imports this module

    try:
        return sum(len(c) for c in read_tour_file(file, m["rows"], m["cols"])) == tours
    except (OSError, ValueError, EOFError):
        return False


def check_dfs(dir_path, m):
    """The committed journal records of the enumerator's run in `dir_path` (manifest `m`),
    by id, after every check the binary makes short of the plan; RunError else."""
    path = os.path.join(dir_path, "manifest.json")
    for key in ("command", "algorithm", "prefix_rules", "split_depth", "shard", "totals"):
        _fields(m, path, key)
    try:
        if m["format_version"] >= 5 and m["checksum"] != dfs_checksum(m):
            raise RunError(f"{path}: its checksum does not match what it says (changed by hand "
                           "or damaged); a run's manifest is written by knightstour only")
    except KeyError as e:
        raise RunError(f"{path}: not a valid manifest: no {e}") from None
    if m["format_version"] < 5 and "checksum" in m:
        raise RunError(f"{path}: a checksum in a manifest of format {m['format_version']}, "
                       "which has none (changed by hand)")
    complete = m["status"] == "complete"
    totals = m["totals"]

    def residue(what):
        if complete:
            raise RunError(f"{dir_path}: {what}; the manifest says complete")

    names = sorted(os.listdir(dir_path))
    if m.get("sample", 0):
        return {}
    enumerate_run = m["command"] == "enumerate"
    records, seen = [], set()
    torn_any = False
    for name in names:
        if not re.fullmatch(r"journal-(0|[1-9][0-9]*)\.tsv", name):
            continue
        recs, torn = read_journal(os.path.join(dir_path, name), m)
        if torn:
            torn_any = True
            residue(f"{name}: the last line is torn")
        for r in recs:
            if r["id"] in seen:
                raise RunError(f"{dir_path}: prefix {r['id']}: journaled twice")
            if r["id"] >= totals["prefixes_in_plan"]:
                raise RunError(f"{dir_path}: prefix {r['id']}: not a prefix of this run's plan")
            if m["closed_only"] and r["closed"] != r["tours"]:
                raise RunError(f"{dir_path}: prefix {r['id']}: a closed-only run with open tours")
            seen.add(r["id"])
            records.append(r)
    files = [n for n in names if _TOUR_FILE.match(n)]
    if not enumerate_run and files:
        raise RunError(f"{dir_path}/{files[0]}: a tour file in a count run")
    done = {}
    if enumerate_run:
        by_file = {}
        for r in records:
            if r["file"] == "-":
                if r["tours"]:
                    raise RunError(f"{dir_path}: prefix {r['id']} has tours but names no file")
                done[r["id"]] = r
            else:
                by_file.setdefault(r["file"], []).append(r)
        for name in files:
            if name not in by_file:
                residue(f"{name}: not named by any journal line")
        for name, recs in by_file.items():
            file = os.path.join(dir_path, name)
            if not os.path.lexists(file):
                residue(f"{name}: named by the journal but missing")
                continue
            if not _file_matches(file, recs, m):
                what = f"{name}: holds other tours than its journal lines say"
                if not torn_any:
                    raise RunError(f"{dir_path}/{what} (damaged, or cannot be read)")
                residue(what)
                continue
            for r in recs:
                done[r["id"]] = r
    else:
        done = {r["id"]: r for r in records}
    if complete:
        tours = sum(r["tours"] for r in done.values())
        closed = sum(r["closed"] for r in done.values())
        if len(done) != totals["prefixes"]:
            raise RunError(f"{dir_path}: the manifest says complete but {len(done)} of its "
                           f"{totals['prefixes']} prefixes are journaled")
        if (tours, closed, len(done)) != (totals["tours"], totals["closed_tours"],
                                          totals["prefixes_done"]):
            raise RunError(f"{dir_path}: manifest totals ({totals['tours']} tours, "
                           f"{totals['closed_tours']} closed, {totals['prefixes_done']} prefixes) "
                           f"differ from the journal ({tours}, {closed}, {len(done)})")
    return dict(sorted(done.items()))


# The frontier method -----------------------------------------------------------------------

_SWEEP_HEADER = ("# knightstour sweep journal v1: finished SWEEP COUNT CHECK | checkpoint SWEEP "
                 "STEP CLASSES DATA_CHECKSUM CHECK\n")
_CHECKPOINT = re.compile(r"checkpoint-(0|[1-9][0-9]*)(\.staged)?\.bin\Z")


def read_sweep_journal(path, key):
    """sweeps.tsv: (finished {sweep: count}, checkpoint records [(sweep, step, classes,
    data checksum)], torn); RunError for a line that does not check out."""
    if not os.path.exists(path):
        return {}, [], False
    with open(path, "rb") as f:
        text = f.read().decode("ascii", errors="replace")
    lines = text.split("\n")
    torn = lines.pop() != ""
    finished, checkpoints = {}, []
    for number, line in enumerate(lines, 1):
        def bad(why):
            return RunError(f"{path} line {number} {why}; the journal is written by "
                            "knightstour only")
        if number == 1:
            if line + "\n" != _SWEEP_HEADER:
                raise bad("is not a sweep journal's header")
            continue
        body, _, check = line.rpartition("\t")
        if not body or check != keyed_checksum(key, body):
            raise bad("does not check out (damaged, edited, or of another run)")
        f = body.split("\t")
        try:
            if f[0] == "finished" and len(f) == 3:
                sweep, count = _whole(f[1]), f[2]
                _whole(count)
                if finished.setdefault(sweep, count) != count:
                    raise bad(f"finishes sweep {sweep} a second time with another count")
            elif f[0] == "checkpoint" and len(f) == 5 and len(f[4]) == 16:
                checkpoints.append((_whole(f[1]), _whole(f[2]), _whole(f[3]), int(f[4], 16)))
            else:
                raise ValueError(line)
        except ValueError:
            raise bad("is malformed") from None
    return finished, checkpoints, torn


def _data_checksum(file, start):
    """The checkpoint's checksum over its words after the header (checkpoint.cpp)."""
    import array

    h = 0x9E3779B97F4A7C15
    with open(file, "rb") as f:
        f.seek(start)
        while True:
            chunk = f.read(1 << 20)
            if not chunk:
                return h
            words = array.array("Q")
            words.frombytes(chunk[: len(chunk) // 8 * 8])
            if words.itemsize != 8 or sys.byteorder != "little":
                raise RunError(f"{file}: checkpoints are read on little-endian machines only")
            for w in words:
                h = (((h ^ w) * 0x100000001B3) + (h >> 29)) & MASK


def check_checkpoint(file, m, records):
    """A checkpoint of an unfinished sweep: its header (magic, checksum, this job and owner),
    its data checksum, and a line of the sweep journal that records it."""
    import struct

    def damaged(why):
        return RunError(f"{file}: a damaged checkpoint ({why}); delete it to start the sweep "
                        "again")
    with open(file, "rb") as f:
        head = f.read(128)
    if len(head) < 128:
        raise damaged("shorter than its header")
    w = list(struct.unpack("<16Q", head))
    if head[:8] != b"KTFRONT3":
        raise damaged("not a knightstour checkpoint")
    h = 0x9E3779B97F4A7C15
    for k, word in enumerate(w):
        h = (((h ^ (0 if k == 11 else word)) * 0x100000001B3) + (h >> 29)) & MASK
    if h != w[11]:
        raise damaged("header checksum mismatch")
    owner = m["frontier"].get("owner") or {"rank": 0, "ranks": 1, "run_id": ""}
    run_id = int(owner["run_id"], 16) if owner["run_id"] else 0
    if (w[1], w[2], w[3]) != (m["rows"], m["cols"], 1 if m["closed_only"] else 0):
        raise RunError(f"{file}: a checkpoint of another job; it cannot be resumed here")
    if (w[12], w[13] or 1, w[14]) != (owner["rank"], owner["ranks"], run_id):
        raise RunError(f"{file}: a checkpoint of another rank or run; it cannot be resumed here")
    size = os.path.getsize(file)
    if size % 8 or size < 128 + 8 * w[8]:
        raise damaged("too short" if size >= 128 else "checksum mismatch")
    if _data_checksum(file, 128) != w[10]:
        raise damaged("checksum mismatch")
    if (w[5], w[6], w[9], w[10]) not in set(records):
        raise RunError(f"{file}: is a checkpoint that no line of sweeps.tsv records (written by "
                       "another run, or changed by hand); delete it to count sweep "
                       f"{w[5]} from its start")


def _counts_follow(dir_path, m, finished):
    """A complete count's figures from its sweeps (check_counts, frontier_run_files.cpp)."""
    f = m["frontier"]
    c = f["counts"]
    if c is None:
        raise RunError(f"{dir_path}: the run is marked complete without its counts")
    planned = f["sweeps_planned"]
    rows, cols = m["rows"], m["cols"]
    if "units" in f:
        from .frontier import end_pair_units
        units = end_pair_units(rows, cols)
        shard = f["units"]
        mine = [u for u in range(len(units)) if u % shard["shard_count"] == shard["shard_index"]]
        if sorted(finished) != mine:
            raise RunError(f"{dir_path}: the run is marked complete with {len(finished)} of its "
                           f"{len(mine)} units finished")
        if shard["shard_count"] == 1:
            from .frontier import start_end_table
            tours = sum(map(sum, start_end_table(rows, cols, {u: int(c) for u, c in
                                                              finished.items()})))
        else:  # a shard's share: each unit's count once for each (start, end) of its orbit
            tours = sum(int(finished[u]) * len(units[u]) for u in mine)
            if rows * cols == 1 and shard["shard_index"] == 0:
                tours = 1  # one square is a tour by itself, which no unit holds: shard 0's
        if int(c["tours"]) != tours:
            raise RunError(f"{dir_path}: tours does not follow from the units")
        return
    if len(finished) != planned:
        raise RunError(f"{dir_path}: the run is marked complete with {len(finished)} of "
                       f"{planned} sweeps finished")
    every_length = f.get("every_length", False)
    cycles_unit = cols - 1 if every_length else 0
    paths_unit = 2 * cols - 1 if every_length else 1
    cycles = int(finished[cycles_unit])
    starts = 1 if m["prefix"] else rows * cols
    closed_tours = cycles * 2 * starts
    if m["closed_only"]:
        tours = closed_tours
    elif m["prefix"]:
        tours = int(finished[1])
    elif f.get("total_only"):
        tours = int(finished[paths_unit]) * 2
    else:
        tours = sum(int(x) for x in c["tours_by_start"])
    if rows * cols == 1 and not m["closed_only"]:
        tours = 1
    if (int(c["closed_cycles"]), int(c["closed_tours"]), int(c["tours"])) != (
            cycles, closed_tours, tours):
        raise RunError(f"{dir_path}: its counts do not follow from its finished sweeps")


def check_frontier(dir_path, m):
    """The finished sweeps {sweep: count} of the frontier run in `dir_path` (manifest `m`)
    after the binary's checks: manifest and sweep journal checksums, the journal agreeing with
    the manifest, a complete count's figures following from its sweeps, and every checkpoint
    of an unfinished sweep whole and recorded. RunError else."""
    path = os.path.join(dir_path, "manifest.json")
    try:
        if m["frontier"]["checksum"] != manifest_checksum(m):
            raise RunError(f"{path}: its manifest's checksum does not match what it says "
                           "(changed by hand or damaged); knightstour verify says the same")
        key = job_key(m)
        planned = m["frontier"]["sweeps_planned"]
        finished = {s["sweep"]: s["count"] for s in m["frontier"]["finished"]}
    except (KeyError, TypeError) as e:
        raise RunError(f"{path}: not a valid manifest: no {e}") from None
    journal = os.path.join(dir_path, "sweeps.tsv")
    done, checkpoints, _ = read_sweep_journal(journal, key)
    for sweep, count in done.items():
        if sweep >= planned:
            raise RunError(f"{journal}: finishes sweep {sweep}, which is not in the run's plan")
        if finished.setdefault(sweep, count) != count:
            raise RunError(f"{journal}: finishes sweep {sweep} with another count than "
                           f"manifest.json ({count}, not {finished[sweep]})")
    complete = m["status"] == "complete"
    if complete:
        if len(finished) != len(m["frontier"]["finished"]):
            raise RunError(f"{journal}: finishes sweeps a complete run does not list")
        _counts_follow(dir_path, m, finished)
    ranked = (m["frontier"].get("owner") or {}).get("ranks", 1) > 1
    for name in sorted(os.listdir(dir_path)):
        found = _CHECKPOINT.match(name)
        if not found:
            # Names of the run's own kinds that a frontier run of one process cannot hold.
            if name in ("ranks.json", "frontier.json") or re.fullmatch(r"rank-[0-9]+", name) or \
                    name.startswith(("journal-", "tours-", "checkpoint-")):
                raise RunError(f"{dir_path}/{name}: is not a file a frontier run of one process "
                               "holds: move it out of the run directory")
            continue
        if found.group(2) and not ranked:
            raise RunError(f"{dir_path}/{name}: is a staged checkpoint, which only a run over MPI "
                           "ranks writes")
        sweep = int(found.group(1))
        if complete or sweep in finished:
            continue  # a leftover of a finished sweep: read by nothing
        check_checkpoint(os.path.join(dir_path, name), m, checkpoints)
    return dict(sorted((s, int(c)) for s, c in finished.items()))


def check_ranked(top):
    """The manifest of rank 0 of a count over MPI ranks (ranks.json and rank-<r>/ a rank),
    after every rank's directory is checked, each naming its own rank, the run's number of
    ranks and run id, and all agreeing on the job, the status and the counts."""
    ranks_file = os.path.join(top, "ranks.json")
    j = read_json(ranks_file)
    if not isinstance(j, dict) or not isinstance(j.get("ranks"), int) or j["ranks"] < 2:
        raise RunError(f"{ranks_file} is damaged: it should say how many MPI ranks count the run")
    ranks, run_id = j["ranks"], j.get("run_id", "")
    first = None
    for name in os.listdir(top):
        r = re.fullmatch(r"rank-(0|[1-9][0-9]*)", name)
        if r and int(r.group(1)) >= ranks:
            raise RunError(f"{top}/{name}: is the share of a rank the run does not have")
        if name == "manifest.json":
            raise RunError(f"{top}/{name}: does not belong beside ranks.json")
    for k in range(ranks):
        d = os.path.join(top, f"rank-{k}")
        m = read_manifest(d)
        if m.get("method") != "frontier":
            raise RunError(f"{d}: not a frontier run")
        check_frontier(d, m)
        owner = m["frontier"].get("owner") or {}
        if (owner.get("rank"), owner.get("ranks"), owner.get("run_id")) != (k, ranks, run_id):
            raise RunError(f"{d}: holds another share than rank {k}'s of the run over {ranks} "
                           "ranks in ranks.json")
        if first is None:
            first = m
        elif (m["status"], m["frontier"]["counts"], m["frontier"]["finished"]) != (
                first["status"], first["frontier"]["counts"], first["frontier"]["finished"]):
            raise RunError(f"{d}: does not agree with rank-0/ on its status or its counts")
    return first


def check_run(dir_path):
    """(manifest, what the run holds) of the run in `dir_path`, checked: the committed
    journal records by id (the enumerator) or the finished sweeps (the frontier method).
    RunError for anything the binary refuses."""
    if not os.path.isdir(dir_path):
        raise RunError(f"{dir_path}: {'does not exist' if not os.path.exists(dir_path) else 'is not a directory'}")
    if not os.path.exists(os.path.join(dir_path, "manifest.json")):
        if os.path.exists(os.path.join(dir_path, "ranks.json")):
            m = check_ranked(dir_path)
            return m, check_frontier(os.path.join(dir_path, "rank-0"), m)
        if os.path.exists(os.path.join(dir_path, "frontier.json")):
            raise RunError(f"{dir_path}: a frontier run of format 1 (frontier.json), which this "
                           "package does not read; count it again")
        raise RunError(f"{dir_path}: not a knightstour run directory (no manifest.json)")
    m = read_manifest(dir_path)
    if m.get("method", "dfs") == "frontier":
        owner = m["frontier"].get("owner") if isinstance(m.get("frontier"), dict) else None
        if owner and owner.get("ranks", 1) > 1:
            raise RunError(f"{dir_path}: holds rank {owner['rank']}'s share of a count over "
                           f"{owner['ranks']} MPI ranks, not a count: read the directory that "
                           "holds ranks.json")
        return m, check_frontier(dir_path, m)
    return m, check_dfs(dir_path, m)
