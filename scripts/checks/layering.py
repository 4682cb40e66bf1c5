#!/usr/bin/env python3
"""Checks the layering of knightstour's headers and sources (see docs/ARCHITECTURE.md):
a file in layer L includes only headers of L and of the layers L may use, and no public
header includes a third-party header. Exit 0 when clean, 1 with one line per violation."""
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
    "count": {"base", "board", "search", "plan", "io", "exec", "run", "frontier"},
}
THIRD_PARTY = re.compile(r'#include\s*<(tbb/|oneapi/|spdlog/|fmt/|nlohmann/|zstd|cxxopts|benchmark/|gtest/)')
OURS = re.compile(r'#include\s*"knightstour/(\w+)/[\w.]+"')


def main():
    problems = []
    for top in ("include/knightstour", "src"):
        for layer in sorted(os.listdir(os.path.join(ROOT, top))):
            folder = os.path.join(ROOT, top, layer)
            if not os.path.isdir(folder) or layer == "cli":
                continue
            if layer not in ALLOWED:
                problems.append(f"{top}/{layer}: a folder that is not a known layer")
                continue
            for name in sorted(os.listdir(folder)):
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, ROOT)
                text = open(path, encoding="utf-8").read()
                for m in OURS.finditer(text):
                    used = m.group(1)
                    if used != layer and used not in ALLOWED[layer]:
                        problems.append(f"{rel}: includes knightstour/{used}/, above or beside {layer}/")
                if top.startswith("include") and THIRD_PARTY.search(text):
                    problems.append(f"{rel}: a public header includes a third-party header")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
