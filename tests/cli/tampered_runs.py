#!/usr/bin/env python3
"""Every reader of a run directory takes the same view of it: each tampering of a list is
applied to each kind of run, and verify, count --resume, merge, status and the Python package
(kt.Run) must all refuse it or all accept it, as the table below says. Then every byte of two
manifests (an enumerator's count, a frontier count) is flipped in turn, and verify and kt.Run
must agree on each.

    tampered_runs.py BINARY [MPIRUN]

A reader accepts a run when it exits 0 (merge and a resumed run: 0, or 3 for an incomplete
merge; kt.Run: no error), and refuses it with exit 2 or 4 (kt.Run: kt.RunError), at most one
line on stderr (verify and status give their verdict on stdout), never a crash. Merge applies to the runs it combines (the enumerator's, and frontier
shards by units of end pairs); a count over MPI ranks is resumed under mpirun.

The table's cells: "accept", "refuse", or "agree" where the outcome rests on what the
tampering happened to hit (the last journal line of a stopped run may be a checkpoint's
record or a finished sweep's): then only agreement is asserted, and the verdict is printed.
A finished frontier run keeps no sweep journal: its manifest's list of finished sweeps is its
journal, and a line of it is an entry of that list. "Truncate" and "flip a bit" hit the data
a resume reads: a checkpoint or a tour file where the run has one, else its journal, else its
manifest.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import knightstour as kt  # noqa: E402

KT = os.path.abspath(sys.argv[1])
MPIRUN = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else shutil.which("mpirun")
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
WORK = tempfile.mkdtemp(prefix="knightstour-tampered-")

# How each kind of run is made: the command, and whether it ends stopped (exit 3).
KINDS = {
    "count": (["count", "6x6", "--start", "a1", "--method", "dfs"], 0),
    "count-stopped": (["count", "6x6", "--start", "a1", "--method", "dfs",
                       "--max-nodes", "2000000", "--threads", "1"], 3),
    "enumerate": (["enumerate", "5x5", "--all-starts"], 0),
    "merged": (None, 0),  # the enumerator's two shards of 5x5 over all starts, merged
    "frontier": (["count", "6x7", "--closed", "--method", "frontier"], 0),
    "frontier-stopped": (["count", "6x30", "--closed", "--method", "frontier", "--checkpoint",
                          "0", "--time-limit", "0.4", "--threads", "1"], 3),
    "units": (["count", "5x6", "--all-starts", "--grid", "end-pairs", "--shard-index", "0",
               "--shard-count", "2"], 0),  # merged with its untouched shard 1
    "row": (["count", "6x7", "--closed", "--every-length"], 0),
    "mpi": (["count", "6x8", "--closed"], 0),  # over 2 MPI ranks
}
DFS = {"count", "count-stopped", "enumerate", "merged"}
MERGEABLE = DFS | {"units"}
STOPPED = {"count-stopped", "frontier-stopped"}

# tampering -> kind -> expected verdict (kinds left out: the row's "*").
TABLE = {
    "none": {"*": "accept"},
    "edit a count consistently": {"*": "refuse"},
    "duplicate a journal line": {"*": "refuse", "frontier-stopped": "agree"},
    "drop a journal line": {"*": "refuse", "count-stopped": "accept", "frontier-stopped": "agree"},
    "tear a journal line": {"*": "refuse", "count-stopped": "accept", "frontier-stopped": "agree"},
    "flip a bit": {"*": "refuse"},
    "truncate": {"*": "refuse", "count-stopped": "accept"},
    "forge ranks.json": {"*": "refuse", "count": "accept", "count-stopped": "accept",
                         "enumerate": "accept", "merged": "accept"},
    "mark incomplete as complete (or back)": {"*": "refuse"},
    "format version 9": {"*": "refuse"},
    "the other method's format version": {"*": "refuse"},
}


def kt_run(args, cwd=None, mpi=False):
    cmd = ([MPIRUN, "-np", "2", KT] if mpi else [KT]) + args
    if mpi:
        cmd += ["--threads", "1"]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=ENV, timeout=300)


def make(kind):
    d = os.path.join(WORK, "made", kind)
    if kind == "merged":
        for i in (0, 1):
            r = kt_run(["count", "5x5", "--all-starts", "--method", "dfs", "--shard-index", str(i),
                        "--shard-count", "2", "--run-dir", f"{d}-{i}", "--progress", "0"])
            assert r.returncode == 0, r.stderr
        r = kt_run(["merge", f"{d}-0", f"{d}-1", "--out", d])
        assert r.returncode == 0, r.stderr
        return d
    args, code = KINDS[kind]
    where = "--out" if args[0] == "enumerate" else "--run-dir"
    r = kt_run(args + [where, d, "--progress", "0"], mpi=kind == "mpi")
    assert r.returncode == code, (kind, r.returncode, r.stderr)
    if kind == "units":
        other = [a if a != "0" else "1" for a in args]
        r = kt_run(other + [where, os.path.join(WORK, "made", "units-1"), "--progress", "0"])
        assert r.returncode == 0, r.stderr
    return d


def share(d):
    """Where a run's own files are: rank 0's share of a count over ranks."""
    return os.path.join(d, "rank-0") if os.path.exists(os.path.join(d, "ranks.json")) else d


def journal_of(d):
    """The run's journal, or None where it keeps none (a finished frontier run)."""
    s = share(d)
    names = sorted(n for n in os.listdir(s) if n.startswith("journal-") or n == "sweeps.tsv")
    return os.path.join(s, names[0]) if names else None


def finished_list(manifest, change):
    edit_json(manifest, lambda m: change(m["frontier"]["finished"]))


def edit_json(path, change):
    with open(path) as f:
        m = json.load(f)
    change(m)
    with open(path, "w") as f:
        json.dump(m, f, indent=2)


def lines_of(path):
    with open(path) as f:
        return f.read().split("\n")


def write_lines(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines))


def tamper(kind, d, what):
    manifest = os.path.join(share(d), "manifest.json")
    journal = journal_of(d)
    if what == "none":
        return
    if what == "edit a count consistently":
        if kind in DFS:
            lines = lines_of(journal)
            f = lines[1].split("\t")
            f[2] = str(int(f[2]) + 1000)  # tours, and a count by last square to keep the sum
            if kind != "enumerate":
                f[6] = str(int(f[6]) + 1000)
            lines[1] = "\t".join(f)
            write_lines(journal, lines)
            edit_json(manifest, lambda m: m["totals"].update(tours=m["totals"]["tours"] + 1000))
        elif json.load(open(manifest))["frontier"]["finished"]:
            def more(m):
                fin = m["frontier"]["finished"]
                fin[0]["count"] = str(int(fin[0]["count"]) + 1000)
                c = m["frontier"]["counts"]
                if c:
                    c["tours"] = str(int(c["tours"]) + 1000)
            edit_json(manifest, more)
        else:  # nothing finished yet: the classes a checkpoint's line records
            lines = lines_of(journal)
            f = lines[-2].split("\t")
            f[3] = str(int(f[3]) + 1000)
            lines[-2] = "\t".join(f)
            write_lines(journal, lines)
    elif what == "duplicate a journal line":
        if journal is None:
            finished_list(manifest, lambda f: f.append(dict(f[-1])))
        else:
            lines = lines_of(journal)
            lines.insert(len(lines) - 1, lines[-2])
            write_lines(journal, lines)
    elif what == "drop a journal line":
        if journal is None:
            finished_list(manifest, lambda f: f.pop())
        else:
            lines = lines_of(journal)
            del lines[-2]
            write_lines(journal, lines)
    elif what == "tear a journal line":
        if journal is None:
            os.truncate(manifest, os.path.getsize(manifest) * 3 // 4)
        else:
            lines = lines_of(journal)
            last = lines[-2]
            write_lines(journal, lines[:-2] + [last[: len(last) // 2]])
    elif what == "flip a bit":
        # The data a resume reads: a checkpoint where one is kept, else the journal.
        s = share(d)
        points = [n for n in os.listdir(s) if n.startswith("checkpoint-")]
        target = os.path.join(s, points[0]) if points else journal or manifest
        with open(target, "r+b") as f:
            size = f.seek(0, 2)
            at = max(0, size - 200) if not points else 128 + (size - 128) // 2
            f.seek(at)
            b = f.read(1)
            f.seek(at)
            f.write(bytes([b[0] ^ 0x04]))
    elif what == "truncate":
        s = share(d)
        data = [n for n in os.listdir(s) if n.startswith(("checkpoint-", "tours-"))]
        target = os.path.join(s, sorted(data)[0]) if data else journal or manifest
        os.truncate(target, os.path.getsize(target) // 2)
    elif what == "forge ranks.json":
        with open(os.path.join(d, "ranks.json"), "w") as f:
            json.dump({"ranks": 3, "run_id": "0123456789abcdef"}, f)
    elif what == "mark incomplete as complete (or back)":
        edit_json(manifest, lambda m: m.update(
            status="incomplete" if m["status"] == "complete" else "complete"))
    elif what == "format version 9":
        edit_json(manifest, lambda m: m.update(format_version=9))
    elif what == "the other method's format version":
        edit_json(manifest, lambda m: m.update(
            format_version=4 if m.get("method", "dfs") == "dfs" else 5))
    else:
        raise AssertionError(what)


def verdict(r, accepted=(0,), mpi=False):
    """accept, refuse, or a problem: a crash, a hang, more than one line on stderr (of the
    binary's: under mpirun, each rank that refuses says so once, and mpirun adds its own)."""
    if r.returncode in accepted:
        return "accept"
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    if mpi:
        lines = sorted({x for x in lines if x.startswith("knightstour:")})
    if r.returncode in (2, 4) or (mpi and r.returncode != 0 and len(lines) == 1):
        return "refuse" if len(lines) <= 1 else f"refuse, but {len(lines)} lines: {lines}"
    return f"exit {r.returncode}: {r.stderr.strip()[-300:]}"


def readers(kind, d, scratch):
    """Each reader's verdict on the run in d (writers on copies of it)."""
    out = {}
    out["verify"] = verdict(kt_run(["verify", d]))
    copy = os.path.join(scratch, "resume")
    shutil.copytree(d, copy, symlinks=True)
    if kind == "enumerate":
        r = kt_run(["enumerate", "--out", copy, "--resume", "--progress", "0"])
    else:
        r = kt_run(["count", "--run-dir", copy, "--resume", "--progress", "0"], mpi=kind == "mpi")
    out["resume"] = verdict(r, mpi=kind == "mpi")
    if kind in MERGEABLE:
        inputs = [d] + ([os.path.join(WORK, "made", "units-1")] if kind == "units" else [])
        out["merge"] = verdict(kt_run(["merge", *inputs, "--out", os.path.join(scratch, "merge")]),
                               accepted=(0, 3))
    out["status"] = verdict(kt_run(["status", d]))
    try:
        kt.Run(d)
        out["python"] = "accept"
    except kt.RunError as e:
        out["python"] = "refuse" if str(e).startswith(("/", d)) else f"refuse, unnamed: {e}"
    except Exception as e:  # anything but a RunError is a failure of the package
        out["python"] = f"{type(e).__name__}: {e}"
    return out


def every_byte_of_the_manifest(kind, made, failures):
    """verify and kt.Run agree on the manifest with any one bit flipped (0x04, which keeps most
    bytes printable): the package reads its fields as the binary does, so that a flip in a field
    the binary requires is refused by both, and one in a field neither reads is taken by both."""
    d = os.path.join(WORK, "flips", kind)
    shutil.copytree(made, d, symlinks=True)
    path = os.path.join(share(d), "manifest.json")
    with open(path, "rb") as f:
        data = f.read()
    flips = 0
    for at in range(len(data)):
        with open(path, "wb") as f:
            f.write(data[:at] + bytes([data[at] ^ 0x04]) + data[at + 1:])
        binary = verdict(kt_run(["verify", d]))
        try:
            kt.Run(d)
            package = "accept"
        except kt.RunError:
            package = "refuse"
        except Exception as e:
            package = f"{type(e).__name__}: {e}"
        flips += 1
        if binary != package:
            failures.append(f"manifest of {kind}, byte {at} ({chr(data[at])!r}) flipped: "
                            f"verify={binary} python={package}")
    return flips


def main():
    kinds = [k for k in KINDS if k != "mpi" or MPIRUN]
    if "mpi" not in kinds:
        print("tampered_runs: no mpirun: the column of runs over MPI ranks is left out")
    made = {k: make(k) for k in kinds}
    failures, cells = [], 0
    for what, row in TABLE.items():
        for kind in kinds:
            expected = row.get(kind, row["*"])
            scratch = os.path.join(WORK, "cells", f"{kind}-{what}".replace(" ", "_"))
            os.makedirs(scratch)
            d = os.path.join(scratch, "run")
            shutil.copytree(made[kind], d, symlinks=True)
            tamper(kind, d, what)
            seen = readers(kind, d, scratch)
            cells += 1
            outcomes = set(seen.values())
            line = f"{what:40s} {kind:17s} " + " ".join(f"{r}={v}" for r, v in seen.items())
            if len(outcomes) != 1 or not outcomes <= {"accept", "refuse"}:
                failures.append("readers disagree: " + line)
            elif expected != "agree" and outcomes != {expected}:
                failures.append(f"expected {expected}: " + line)
            print(line)
    flips = sum(every_byte_of_the_manifest(k, made[k], failures) for k in ("count", "frontier"))
    shutil.rmtree(WORK, ignore_errors=True)
    print(f"tampered_runs: {cells} cells, {flips} manifests with a bit flipped, "
          f"{len(failures)} failed")
    for f in failures:
        print("FAIL", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
