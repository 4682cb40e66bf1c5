#!/usr/bin/env python3
"""Edits a run directory as an adversary would: with every checksum the edit touches
recomputed, so that only what knightstour checks beyond its checksums can refuse it.

    forge.py manifest DIR KEY=JSON...   set fields of manifest.json (frontier.KEY for the
                                        frontier object), then fix its checksum
    forge.py finished DIR SWEEP COUNT   append a sweep journal line that checks out
    forge.py step FILE DELTA            add DELTA to a checkpoint's next step (header
                                        checksum fixed)
    forge.py sweep FILE SWEEP           set a checkpoint's sweep word (header checksum fixed)
    forge.py seal DIR                   an enumerator run of format 5 edited by hand: the
                                        checksums of its manifest and of every journal line
                                        made to match what they now say

The manifest's and journal lines' checksums are the package's (python/knightstour/frontier.py
and checks.py, which mirror src/run/manifest.cpp and src/run/journal.cpp); the checkpoint header's mirrors
src/frontier/sweep/checkpoint.cpp (header_checksum).
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from knightstour.checks import dfs_checksum, dfs_job_key, journal_header, keyed_checksum  # noqa: E402
from knightstour.frontier import MASK, fnv1a, job_key, manifest_checksum  # noqa: E402


def read_manifest(d):
    with open(os.path.join(d, "manifest.json")) as f:
        return json.load(f)


def write_manifest(d, m):
    m["frontier"]["checksum"] = manifest_checksum(m)
    with open(os.path.join(d, "manifest.json"), "w") as f:
        json.dump(m, f, indent=2)


def header_checksum(words):
    h = 0x9e3779b97f4a7c15
    for k, w in enumerate(words):
        w = 0 if k == 11 else w
        h = (((h ^ w) * 0x100000001b3) + (h >> 29)) & MASK
    return h


def edit_header(path, word, change):
    with open(path, "r+b") as f:
        words = list(struct.unpack("<16Q", f.read(128)))
        words[word] = change(words[word]) & MASK
        words[11] = header_checksum(words)
        f.seek(0)
        f.write(struct.pack("<16Q", *words))


def seal(d):
    """Re-signs an enumerator run of format 5 as it now stands (one whose manifest is no
    regular file is left as it is)."""
    if not os.path.isfile(os.path.join(d, "manifest.json")):
        return
    with open(os.path.join(d, "manifest.json")) as f:
        m = json.load(f)
    key = dfs_job_key(m)
    count = m["command"] == "count"
    for name in sorted(os.listdir(d)):
        if not (name.startswith("journal-") and name.endswith(".tsv")):
            continue
        path = os.path.join(d, name)
        with open(path) as f:
            lines = f.read().split("\n")
        out = [journal_header(count, m["rows"] * m["cols"], key).rstrip("\n")]
        fields = 6 + m["rows"] * m["cols"] if count else 9  # a record's, its check aside
        for line in lines[1:]:
            if line:
                body = line.rsplit("\t", 1)[0] if line.count("\t") == fields else line
                out.append(body + "\t" + keyed_checksum(key, body))
        with open(path, "w") as f:
            f.write("\n".join(out) + "\n")
    m["checksum"] = dfs_checksum(m)
    with open(os.path.join(d, "manifest.json"), "w") as f:
        json.dump(m, f, indent=2)


def main(argv):
    what = argv[1]
    if what == "manifest":
        d = argv[2]
        m = read_manifest(d)
        for kv in argv[3:]:
            key, value = kv.split("=", 1)
            target = m
            *path, last = key.split(".")
            for p in path:
                target = target[p]
            target[last] = json.loads(value)
        write_manifest(d, m)
    elif what == "finished":
        d, sweep, count = argv[2], argv[3], argv[4]
        body = f"finished\t{sweep}\t{count}"
        line = body + "\t" + fnv1a(job_key(read_manifest(d)) + "\n" + body) + "\n"
        path = os.path.join(d, "sweeps.tsv")
        if not os.path.exists(path):
            with open(path, "w") as f:
                f.write("# knightstour sweep journal v1: finished SWEEP COUNT CHECK | checkpoint "
                        "SWEEP STEP CLASSES DATA_CHECKSUM CHECK\n")
        with open(path, "a") as f:
            f.write(line)
    elif what == "step":
        edit_header(argv[2], 6, lambda w: w + int(argv[3]))
    elif what == "sweep":
        edit_header(argv[2], 5, lambda w: int(argv[3]))
    elif what == "seal":
        seal(argv[2])
    else:
        sys.exit(f"forge.py: unknown edit {what}")


main(sys.argv)
