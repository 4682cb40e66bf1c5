#!/usr/bin/env python3
"""The progress line on a narrow terminal: cut in the middle, never losing the elapsed time
and ETA, and never wider than the terminal.  usage: progress_tty.py KNIGHTSTOUR"""
import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios

kt = sys.argv[1]
failures = 0


def run_on_terminal(args, columns):
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    proc = subprocess.Popen([kt, *args], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=follower)
    os.close(follower)
    out = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    proc.wait()
    os.close(leader)
    return out.decode("utf-8", "replace")


for name, args in [
        ("enumerator", ["count", "7x7", "--start", "a1", "--method", "dfs", "--time-limit", "2"]),
        ("frontier", ["count", "7x10", "--closed", "--time-limit", "2"])]:
    for columns in (60, 100):
        text = run_on_terminal([*args, "--progress", "0.25"], columns)
        lines = [re.sub(r"\x1b\[K", "", l) for l in text.split("\r") if "ETA" in l]
        if not lines:
            print(f"FAIL {name} at {columns} columns: no progress line shows the ETA:\n{text!r}")
            failures += 1
            continue
        widest = max(len(l) for l in lines)
        if widest > columns - 1:
            print(f"FAIL {name} at {columns} columns: a line of {widest} characters")
            failures += 1
        if not all("elapsed" in l for l in lines):
            print(f"FAIL {name} at {columns} columns: the elapsed time was cut")
            failures += 1
        print(f"ok   {name} at {columns} columns: {len(lines)} lines, e.g. {lines[-1]!r}")
sys.exit(1 if failures else 0)
