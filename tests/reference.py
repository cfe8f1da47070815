"""Find and build the C reference programs, for the comparison tests.

The reference lives outside the project, in ../shared/reference. Where it
or a C compiler is missing, build_reference returns None and the tests that
need it skip.
"""

import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(os.path.dirname(ROOT), "shared", "reference",
                      "build-c-reference.sh")


def build_reference(folder):
    """Build the C `train` and `play` into `folder`.

    Returns (train_path, play_path), or None if ../shared/reference, a C
    compiler or bash is not available, or the build fails.
    """
    if not os.path.exists(SCRIPT) or not shutil.which("cc") or not shutil.which("bash"):
        return None
    result = subprocess.run(["bash", SCRIPT, folder], capture_output=True)
    if result.returncode != 0:
        return None
    return os.path.join(folder, "train"), os.path.join(folder, "play")
