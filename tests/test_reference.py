"""Side-by-side tests against the original C program.

They build the C `train` and `play` from ../shared/reference and skip
cleanly where that folder or a C compiler is missing. The committed
fixtures in tests/data cover the same ground without the C (test_play.py).
"""

import os
import random
import re
import subprocess
import tempfile
import unittest

from ttt_rl.weights import load

from ttt_rl import play, train

from .helpers import run_main
from .reference import build_reference
from .transcript import scripted_session, transcript_differences

SESSIONS = 3  # scripted sessions per file, 8 games each
# What ttt-play prints after the C's last line: the score of the session.
SCORE = re.compile(r"\nScore: you (\d+), the net (\d+), ties (\d+)\.\n\Z")


class AgainstCTest(unittest.TestCase):
    """Files move both ways between C and Python and play the same games."""

    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory()
        cls.tmp = cls._tmp.name
        tools = build_reference(cls.tmp)
        if tools is None:
            cls._tmp.cleanup()
            raise unittest.SkipTest("C reference not available: set TTT_C_REFERENCE or "
                                    "put shared/reference beside the checkout")
        cls.c_train, cls.c_play = tools

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def c_play_output(self, weights, moves):
        out = subprocess.run([self.c_play, weights], input=moves, capture_output=True,
                             text=True, timeout=60, check=True).stdout
        return out[out.index("Welcome"):]

    def py_play_output(self, weights, moves):
        status, out, _ = run_main(play.main, weights, stdin=moves.encode())
        self.assertEqual(status, 0)
        return out[out.index("Welcome"):]

    def check_plays_alike(self, weights):
        nn = load(weights)
        for seed in range(SESSIONS):
            moves = scripted_session(nn, random.Random(seed))
            python, c = self.py_play_output(weights, moves), self.c_play_output(weights, moves)
            # The C's lines, then the score, which the C does not print: it counts the games
            # the C's transcript ends.
            score = SCORE.search(python)
            self.assertIsNotNone(score, python[-200:])
            self.assertEqual(transcript_differences(python[:score.start()], c), [],
                             "session %d" % seed)
            self.assertEqual([int(n) for n in score.groups()],
                             [c.count(end) for end in ("You win!", "Computer wins!", "tie!")])

    def test_c_trained_file_plays_the_same_in_python(self):
        weights = os.path.join(self.tmp, "c.bin")
        subprocess.run([self.c_train, "30000", weights, "5"], check=True,
                       stdout=subprocess.DEVNULL, timeout=120)
        self.check_plays_alike(weights)

    def test_python_trained_file_plays_the_same_in_c(self):
        weights = os.path.join(self.tmp, "py.bin")
        self.assertEqual(run_main(train.main, "1000", weights, "--seed", "11")[0], 0)
        self.check_plays_alike(weights)

    def test_q_learning_file_plays_the_same_in_c(self):
        # The file records nothing of the rule: the C's play reads it as is.
        weights = os.path.join(self.tmp, "q.bin")
        self.assertEqual(run_main(train.main, "300", weights, "--seed", "11",
                                  "--method", "q-learning")[0], 0)
        self.check_plays_alike(weights)

    def test_untrained_file_plays_the_same(self):
        # Untrained, the net often prefers occupied cells: '*' and '#' split.
        weights = os.path.join(self.tmp, "zero.bin")
        subprocess.run([self.c_train, "0", weights, "3"], check=True,
                       stdout=subprocess.DEVNULL)
        self.check_plays_alike(weights)

    def test_training_output_has_the_c_shape(self):
        # The same lines in the same order (but one); a short Python run prints its
        # progress line more often, so repeated shapes count once.
        c_out = os.path.join(self.tmp, "shape_c.bin")
        py_out = os.path.join(self.tmp, "shape_py.bin")
        c_lines = subprocess.run([self.c_train, "10000", c_out, "1"], capture_output=True,
                                 text=True, check=True).stdout.splitlines()
        status, out, _ = run_main(train.main, "20", py_out, "--seed", "1")
        self.assertEqual(status, 0)

        def shapes(lines, name):
            found = []
            for line in lines:
                line = re.sub(r" \[.*\]$", "", line)   # our timing suffix
                shape = re.sub(r"\d+", "N", line.replace(name, "FILE"))
                if not found or found[-1] != shape:
                    found.append(shape)
            return found

        # The C announces the training twice ("with N games", then "against N random
        # games..."); the port prints the second line only.
        c_shapes = [s for s in shapes(c_lines, c_out)
                    if s != "Training neural network with N games"]
        self.assertEqual(shapes(out.splitlines(), py_out)[:len(c_shapes)], c_shapes)
        self.assertIn("Games: N, Wins: N (N.N%), Losses: N (N.N%), Ties: N (N.N%)", c_shapes)


if __name__ == "__main__":
    unittest.main()
