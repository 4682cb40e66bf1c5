"""Every .npy header knightstour accepts must mean the same to numpy.

Mutates the header of a real tour file (fixed seed) and, for each mutation, asks
`knightstour verify --board 5x5 FILE` and numpy.load. A header verify accepts must load in
numpy as the same rows; verify may refuse more than numpy does, never less.
usage: scripts/py tests/io/npy_numpy_agreement.py KNIGHTSTOUR [CASES]
"""
import os
import random
import subprocess
import sys
import tempfile

import numpy as np

knightstour = sys.argv[1]
cases = int(sys.argv[2]) if len(sys.argv) > 2 else 400
rng = random.Random(20261123)

with tempfile.TemporaryDirectory() as tmp:
    run = os.path.join(tmp, "run")
    subprocess.run([knightstour, "enumerate", "5x5", "--start", "a1", "--out", run,
                    "--max-tours", "200"], check=False, capture_output=True)
    source = os.path.join(run, "tours-0-0.npy")
    original = open(source, "rb").read()
    expected = np.load(source)
    dict_text = original[10:128].decode("latin1")
    pieces = ["'", '"', " ", ",", ":", "(", ")", "{", "}", "\n", "\t", "#", "0", "1", "L",
              "'shape': (1, 25), ", "'descr': '<u2', ", "True", "False", "_", "\x00", "u1",
              "<u1", "|u2", "'extra': 0, ", "(", "+"]
    accepted = 0
    for case in range(cases):
        text = list(dict_text)
        for _ in range(rng.randint(1, 3)):
            pos = rng.randrange(len(text))
            action = rng.random()
            if action < 0.4:
                del text[pos]
            elif action < 0.8:
                text.insert(pos, rng.choice(pieces))
            else:
                text[pos] = rng.choice(pieces)
        header = "".join(text).encode("latin1")
        data = original[:8] + len(header).to_bytes(2, "little") + header + original[128:]
        path = os.path.join(tmp, "tours-0-0.npy")
        with open(path, "wb") as f:
            f.write(data)
        ours = subprocess.run([knightstour, "verify", "--board", "5x5", path],
                              capture_output=True, text=True)
        if ours.returncode != 0:
            continue
        accepted += 1
        try:
            theirs = np.load(path)
        except Exception as e:  # noqa: BLE001 - any refusal by numpy is a disagreement
            sys.exit(f"case {case}: verify accepts a header numpy refuses ({e}): {header!r}")
        if theirs.shape != expected.shape or not (theirs.astype(np.int64) ==
                                                  expected.astype(np.int64)).all():
            sys.exit(f"case {case}: numpy reads {theirs.shape}, verify read "
                     f"{expected.shape}: {header!r}")
    print(f"{cases} mutated headers: {accepted} accepted by verify, all read alike by numpy")
