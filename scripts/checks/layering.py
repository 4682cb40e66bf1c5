#!/usr/bin/env python3
"""Checks the layering of knightstour's headers and sources (see docs/ARCHITECTURE.md):
a file in layer L includes only headers of L and of the layers L may use; no public header
includes a third-party header; the frontier engine's rooms (src/frontier/<room>/) include
only their own and the rooms below them, and only the engine reaches its private headers;
no header includes itself by a round of includes; the engine, the run directories and base/
spell no command-line flag in a string (they name a request's field, "$resume", and the CLI
spells it: src/cli/flag_names.cpp). Exit 0 when clean, 1 with one line per
violation."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Each layer and the layers below it that it may include.
ALLOWED = {
    "base": set(),
    "board": {"base"},
    "search": {"base", "board"},
    "plan": {"base", "board", "search"},
    "io": {"base", "board"},
    "exec": {"base", "board", "search", "plan", "io"},
    "run": {"base", "board", "search", "plan", "io", "exec"},
    "find": {"base", "board", "search", "io"},
    "frontier": {"base", "board", "io"},
    "frontier_run": {"base", "board", "io", "run", "frontier"},
    "count": {"base", "board", "search", "plan", "io", "exec", "run", "frontier", "frontier_run"},
    "report": {"base", "board", "search", "plan", "io", "exec", "run", "frontier", "frontier_run",
               "count"},
}

# The frontier engine's rooms, bottom up, and the rooms each may use. `class` (what is
# counted) uses none of the others. Each room's README.md says the same on its "May use" line.
ROOMS = {
    "class": set(),
    "store": {"class"},
    "progress": set(),
    "ranks": {"progress"},
    "step": {"class", "store", "progress", "ranks"},
    "sweep": {"class", "store", "progress", "ranks", "step"},
    "grid": {"class", "store", "progress", "ranks", "step", "sweep"},
    "jobs": {"class", "store", "progress", "ranks", "step", "sweep", "grid"},
}
# The room of each public frontier header (include/knightstour/frontier/): what other
# layers include of the engine.
PUBLIC_ROOM = {
    "bit_kernel.hpp": "class",
    "sweep.hpp": "class",
    "wide_count.hpp": "class",
    "sweep_outlook.hpp": "progress",
    "ranks.hpp": "ranks",
    "frontier_options.hpp": "sweep",
    "checkpoint.hpp": "sweep",
    "frontier_request.hpp": "sweep",
    "frontier_report.hpp": "sweep",
    "frontier_job.hpp": "jobs",
}

MAX_PUBLIC_HEADERS = 10

# Layers whose strings name options by field, never by flag (issue 95), and the one place a
# flag may stay: a stop reason's words, which manifests hold and read back (older manifests
# kept the words, not the token), so they are a file format's, not a message. Another
# program's flags ("sbatch --time") are not ours to spell.
FIELD_WORDED = ("base", "run", "frontier", "frontier_run", "count", "report")
FLAG_IN_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*?(?<![\w-])(?<!sbatch )--[a-z][a-z-]*')
FORMAT_WORDS = {"src/base/stop_control.cpp"}


def code_of(line):
    """The line without a trailing // comment (one outside a string)."""
    quoted = False
    for i, c in enumerate(line):
        if c == '"' and (i == 0 or line[i - 1] != "\\"):
            quoted = not quoted
        elif not quoted and line.startswith("//", i):
            return line[:i]
    return line
# A step's code in the shape of its strategies (issue 91): the plan, each strategy and the
# core they share a file each, none longer than this.
MAX_STEP_FILE_LINES = 350

THIRD_PARTY = re.compile(r'#include\s*<(tbb/|oneapi/|spdlog/|fmt/|nlohmann/|zstd|cxxopts|benchmark/|gtest/)')
OURS = re.compile(r'#include\s*"knightstour/(\w+)/([\w.]+)"')
PRIVATE = re.compile(r'#include\s*"frontier/(\w+)/([\w.]+)"')
# A layer's private header (src/<layer>/<name>.hpp), e.g. io/json_fields.hpp.
PRIVATE_LAYER = re.compile(r'#include\s*"(\w+)/([\w.]+)"')
# The layers of one method's runs, which name no other method: a new method's manifest
# section and files live in its own layer (docs/ARCHITECTURE.md).
METHOD_NEUTRAL = {"run": re.compile(r"frontier", re.I)}


def files_under(folder):
    for d, _, names in os.walk(folder):
        for name in sorted(names):
            if name.endswith((".hpp", ".cpp")):
                yield os.path.join(d, name)


def room_of(rel):
    """The frontier room of a file, or None outside the engine."""
    parts = rel.split(os.sep)
    if parts[:2] == ["src", "frontier"]:
        return parts[2] if len(parts) > 3 else ""
    if parts[:3] == ["include", "knightstour", "frontier"]:
        return PUBLIC_ROOM.get(parts[3], "")
    return None


def check_rooms(rel, text, problems):
    room = room_of(rel)
    if room == "":
        problems.append(f"{rel}: in no room of the frontier engine (src/frontier/<room>/, "
                        "or PUBLIC_ROOM for a public header)")
        return
    if room is not None and room not in ROOMS:
        problems.append(f"{rel}: src/frontier/{room} is not a known room")
        return
    for m in PRIVATE.finditer(text):
        used = m.group(1)
        if room is None or rel.startswith("include"):
            problems.append(f"{rel}: includes the frontier engine's private frontier/{used}/{m.group(2)}")
        elif used != room and used not in ROOMS[room]:
            problems.append(f"{rel}: room {room}/ includes frontier/{used}/, above or beside it")
    if room is None:
        return
    for m in OURS.finditer(text):
        if m.group(1) != "frontier":
            continue
        used = PUBLIC_ROOM.get(m.group(2))
        if used is None:
            problems.append(f"{rel}: includes knightstour/frontier/{m.group(2)}, in no room")
        elif used != room and used not in ROOMS[room]:
            problems.append(f"{rel}: room {room}/ includes knightstour/frontier/{m.group(2)} "
                            f"of room {used}/, above or beside it")


def check_room_readmes(problems):
    for room, uses in ROOMS.items():
        path = os.path.join(ROOT, "src", "frontier", room, "README.md")
        if not os.path.exists(path):
            problems.append(f"src/frontier/{room}: no README.md to say what lives there")
            continue
        m = re.search(r"^May use: (.*)$", open(path, encoding="utf-8").read(), re.M)
        said = set(re.findall(r"\b(\w+)/", m.group(1))) if m else None
        if said != uses:
            problems.append(f"src/frontier/{room}/README.md: its 'May use:' line says "
                            f"{sorted(said) if said is not None else 'nothing'}, the rooms "
                            f"allowed are {sorted(uses)}")


def check_rounds(headers, problems):
    """No header includes itself through other headers (a includes b, b includes a)."""
    edges = {}
    for rel, text in headers.items():
        targets = []
        for m in OURS.finditer(text):
            targets.append(os.path.join("include", "knightstour", m.group(1), m.group(2)))
        for m in PRIVATE.finditer(text):
            targets.append(os.path.join("src", "frontier", m.group(1), m.group(2)))
        edges[rel] = [t for t in targets if t in headers]
    state = {}

    def visit(node, path):
        state[node] = 1
        for nxt in edges[node]:
            if state.get(nxt) == 1:
                cycle = path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt]
                problems.append("a round of includes: " + " -> ".join(cycle))
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])


def main():
    problems = []
    headers = {}
    for top in ("include/knightstour", "src"):
        for layer in sorted(os.listdir(os.path.join(ROOT, top))):
            folder = os.path.join(ROOT, top, layer)
            if not os.path.isdir(folder):
                continue
            if layer != "cli" and layer not in ALLOWED:
                problems.append(f"{top}/{layer}: a folder that is not a known layer")
                continue
            for path in files_under(folder):
                rel = os.path.relpath(path, ROOT)
                text = open(path, encoding="utf-8").read()
                if rel.endswith(".hpp"):
                    headers[rel] = text
                if layer == "cli":
                    check_rooms(rel, text, problems)
                    continue
                for m in OURS.finditer(text):
                    used = m.group(1)
                    if used != layer and used not in ALLOWED[layer]:
                        problems.append(f"{rel}: includes knightstour/{used}/, above or beside {layer}/")
                for m in PRIVATE_LAYER.finditer(text):
                    used = m.group(1)
                    if used in ALLOWED and used != "frontier" and used != layer \
                            and used not in ALLOWED[layer]:
                        problems.append(f"{rel}: includes {used}/{m.group(2)}, private to a layer "
                                        f"above or beside {layer}/")
                other = METHOD_NEUTRAL.get(layer)
                if top == "src" and other is not None and other.search(text):
                    problems.append(f"{rel}: the {layer}/ layer names another method "
                                    f"('{other.search(text).group(0)}'); its part goes in that "
                                    "method's layer")
                if layer in FIELD_WORDED and rel not in FORMAT_WORDS:
                    for number, line in enumerate(text.split("\n"), 1):
                        if line.lstrip().startswith("//"):
                            continue
                        flag = FLAG_IN_STRING.search(code_of(line))
                        if flag:
                            problems.append(f"{rel}:{number}: spells a flag in a string "
                                            f"({flag.group(0).split()[-1]!r}); name the request's "
                                            "field ($field) and let the CLI spell it")
                if top.startswith("include") and THIRD_PARTY.search(text):
                    problems.append(f"{rel}: a public header includes a third-party header")
                check_rooms(rel, text, problems)
    # The engine's face to the other layers stays small (issue 95: at most 10 headers).
    if len(PUBLIC_ROOM) > MAX_PUBLIC_HEADERS:
        problems.append(f"include/knightstour/frontier/: {len(PUBLIC_ROOM)} public headers, "
                        f"at most {MAX_PUBLIC_HEADERS}")
    for name in PUBLIC_ROOM:
        if not os.path.exists(os.path.join(ROOT, "include", "knightstour", "frontier", name)):
            problems.append(f"PUBLIC_ROOM names {name}, not in include/knightstour/frontier/")
    step = os.path.join(ROOT, "src", "frontier", "step")
    for path in files_under(step):
        lines = open(path, encoding="utf-8").read().count("\n")
        if lines > MAX_STEP_FILE_LINES:
            problems.append(f"{os.path.relpath(path, ROOT)}: {lines} lines, at most "
                            f"{MAX_STEP_FILE_LINES} in step/")
    check_room_readmes(problems)
    check_rounds(headers, problems)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
