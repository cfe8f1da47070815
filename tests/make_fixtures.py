"""Regenerate the files in tests/data from the C reference (dev only).

Needs ../shared/reference and a C compiler. Usage, from the project root:
    PYTHONPATH=src python3 tests/make_fixtures.py
Writes:
    c_trained.bin         C `train 150000 FILE 42`
    py_trained.bin        `ttt-train 2000 FILE --seed 7`
    NAME.moves            a scripted session: random legal X moves, several
                          games, "y" between games, "n" at the end
    NAME.transcript       what the C `play` prints for NAME.bin and NAME.moves
"""

import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
from reference import build_reference  # noqa: E402

from transcript import scripted_session  # noqa: E402

from ttt_rl.weights import load  # noqa: E402
from ttt_rl.train import main as train_main  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def main():
    tools = build_reference(tempfile.mkdtemp())
    if tools is None:
        sys.exit("the C reference cannot be built here")
    train, play = tools
    subprocess.run([train, "150000", os.path.join(DATA, "c_trained.bin"), "42"],
                   check=True, stdout=subprocess.DEVNULL)
    py_trained = os.path.join(DATA, "py_trained.bin")
    if os.path.exists(py_trained):
        os.remove(py_trained)   # replaced, not kept as py_trained.bin.bak in tests/data
    if train_main(["2000", py_trained, "--seed", "7"]) != 0:
        sys.exit("ttt-train failed")
    for name, seed in (("c_trained", 1), ("py_trained", 2)):
        weights = os.path.join(DATA, name + ".bin")
        moves = scripted_session(load(weights), random.Random(seed))
        with open(os.path.join(DATA, name + ".moves"), "w") as f:
            f.write(moves)
        out = subprocess.run([play, weights], input=moves, capture_output=True,
                             text=True, check=True).stdout
        with open(os.path.join(DATA, name + ".transcript"), "w") as f:
            f.write(out[out.index("Welcome"):])


if __name__ == "__main__":
    main()
