#!/usr/bin/env python3
"""The progress line on a terminal: cut in the middle, never losing the elapsed time and ETA,
and never wider than the terminal; a frontier job of many sweeps draws one line for the whole
job from the first interval on; enumerate counts prefixes as their search finishes, not when
their file is published.  usage: progress_tty.py KNIGHTSTOUR"""
import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import tempfile
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
    for columns in (60, 80, 120):
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

def log_lines(args, env=None):
    """Progress as log lines (stderr not a terminal)."""
    r = subprocess.run([kt, *args], capture_output=True, text=True,
                       env=None if env is None else dict(os.environ, **env))
    return [l for l in r.stderr.split("\n") if "ETA" in l], r.returncode


# All starts by the frontier's pinned tails (8x6 would take the pass back, 3 sweeps): 13
# sweeps, one progress for the job, and a line in the first interval even though no single
# sweep lasts that long.
lines, code = log_lines(["count", "8x6", "--all-starts", "--method", "frontier", "--time-limit", "4",
                         "--progress", "1.5"], env={"KNIGHTSTOUR_GRID": "tails"})
sweeps = [re.search(r"sweep (\d+)/13", l) for l in lines]
if code != 3 or len(lines) < 2 or not all(sweeps) or int(sweeps[-1].group(1)) < 2:
    print(f"FAIL frontier all starts: expected lines naming sweep i of 13 from the first "
          f"interval on, exit 3; got {code}: {lines}")
    failures += 1
else:
    print(f"ok   frontier all starts: {len(lines)} lines, e.g. {lines[-1]!r}")

# The bar moves on through the pass back (it stood at 2 of 3 sweeps until the pass ended), whose
# line says what the process holds, as a sweep's does.
text = run_on_terminal(["count", "6x8", "--all-starts", "--method", "frontier", "--progress", "0.25"], 250)
bars = [len(m.group(1)) for m in (re.match(r"\[(#*)\.*\] .*the pass back over the sweep, step \d+ of \d+, process [0-9.]+ GiB", l)
                                   for l in re.sub(r"\x1b\[K", "", text).split("\r")) if m]
if not bars or max(bars) <= 14:
    print(f"FAIL grid by the pass: the bar did not pass 2/3 during the pass: {bars}")
    failures += 1
else:
    print(f"ok   grid by the pass: the bar during the pass {bars}")

# A grid by the pass back: while its unpinned sweep runs, the ETA counts the pass after it,
# about as long as the sweep (it counted the closed sweep's time for it: on the sweep's last
# line the ETA was about a tenth of the time elapsed). Judged on that line alone, so that a
# machine busier or idler later does not matter.
def seconds(text):
    m = re.fullmatch(r"(?:(\d+) min )?(\d+) s", text)
    return int(m.group(1) or 0) * 60 + int(m.group(2))

lines, code = log_lines(["count", "6x10", "--all-starts", "--method", "frontier", "--progress", "1"])
swept = [re.search(r"elapsed (.+?), ETA ~(.+)$", l) for l in lines if "kept for the pass back" in l]
swept = [m for m in swept if m]
elapsed, eta = (seconds(swept[-1].group(1)), seconds(swept[-1].group(2))) if swept else (0, 0)
if code != 0 or not swept or eta < 0.6 * elapsed:
    print(f"FAIL grid by the pass: the sweep's last line said ETA {eta} s at {elapsed} s "
          f"(exit {code}): {lines}")
    failures += 1
else:
    print(f"ok   grid by the pass: the sweep's last line said ETA {eta} s at {elapsed} s")

# enumerate with part files that are never published during the run: prefixes still count up.
with tempfile.TemporaryDirectory() as scratch:
    lines, code = log_lines(["enumerate", "6x7", "--start", "a1", "--out", os.path.join(scratch, "r"),
                             "--checkpoint", "1h", "--time-limit", "3", "--progress", "0.5"])
done = [int(m.group(1)) for m in (re.search(r"prefixes (\d+)/153", l) for l in lines) if m]
if code != 3 or not done or max(done) == 0:
    print(f"FAIL enumerate: prefixes finished never counted up (exit {code}): {lines}")
    failures += 1
else:
    print(f"ok   enumerate: prefixes finished {done}")
sys.exit(1 if failures else 0)
