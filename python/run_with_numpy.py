"""For the scripts in scripts/, imported before anything that needs numpy: when this Python
cannot import numpy (a pyenv or conda interpreter, beside Debian's python3-numpy), the script
runs again under scripts/py, which picks one that can (or says in one line that none can),
rather than ending in a traceback. Not part of the installed package."""
import os
import sys

try:
    import numpy  # noqa: F401
except ImportError:
    if os.environ.get("KNIGHTSTOUR_RUN_WITH_NUMPY"):
        sys.exit(f"{os.path.basename(sys.argv[0])}: this Python ({sys.executable}) cannot import "
                 "numpy: run scripts/setup, or set PYTHON to one that can")
    os.environ["KNIGHTSTOUR_RUN_WITH_NUMPY"] = "1"
    py = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "py")
    os.execv(py, [py, os.path.abspath(sys.argv[0]), *sys.argv[1:]])
