"""Shared test helpers: paths, and running the command-line tools."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src")
DATA = os.path.join(ROOT, "tests", "data")


def run_module(module, *args, stdin="", timeout=120, cwd=None):
    """Run `python -m ttt_rl.MODULE ARGS` with src/ on the path.

    Returns the CompletedProcess, with text stdout and stderr.
    """
    env = dict(os.environ, PYTHONPATH=SRC)
    return subprocess.run([sys.executable, "-m", "ttt_rl." + module, *args],
                          input=stdin, capture_output=True, text=True,
                          env=env, timeout=timeout, cwd=cwd)
