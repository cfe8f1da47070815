"""Find or build the C reference programs, for the comparison tests.

Two ways to provide them:
- TTT_C_REFERENCE=DIR: a folder holding the C `train` and `play` already
  built (train takes GAMES FILE SEED, play takes FILE; see the README);
- by default, ../shared/reference/build-c-reference.sh beside the checkout
  builds them from the original source.
Where neither works, build_reference returns None and those tests skip.
"""

import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(os.path.dirname(ROOT), "shared", "reference",
                      "build-c-reference.sh")
ENV_VAR = "TTT_C_REFERENCE"


def build_reference(folder):
    """Return (train_path, play_path) of the C programs, or None.

    Takes $TTT_C_REFERENCE if it is set (and holds both programs), else
    builds them into `folder` with ../shared/reference, if that script, a C
    compiler and bash are available and the build succeeds.
    """
    given = os.environ.get(ENV_VAR)
    if given:
        tools = (os.path.join(given, "train"), os.path.join(given, "play"))
        return tools if all(os.access(t, os.X_OK) for t in tools) else None
    if not os.path.exists(SCRIPT) or not shutil.which("cc") or not shutil.which("bash"):
        return None
    result = subprocess.run(["bash", SCRIPT, folder], capture_output=True)
    if result.returncode != 0:
        return None
    return os.path.join(folder, "train"), os.path.join(folder, "play")
