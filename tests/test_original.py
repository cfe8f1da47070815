"""Playing like ttt.c: ttt-rl, ttt-play --learn, --side X, --init, q."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from ttt_rl.evaluate import evaluate_network
from ttt_rl.game import X
from ttt_rl.weights import load

from .helpers import DATA, SRC, run_module

C_FILE = os.path.join(DATA, "c_trained.bin")
# X moves for one game against c_trained.bin (the first game of its fixture).
with open(os.path.join(DATA, "c_trained.moves")) as _f:
    ONE_GAME = _f.read().split("y\n")[0]


class Base(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = tmp.name

    def copy_of_c_file(self):
        path = os.path.join(self.tmp, "net.bin")
        shutil.copy(C_FILE, path)
        return path

    def read(self, path):
        with open(path, "rb") as f:
            return f.read()


class PlayLearnTest(Base):
    """--learn changes the file after a game; plain ttt-play never writes it."""

    def test_plain_play_never_writes(self):
        path = self.copy_of_c_file()
        before = os.stat(path)
        proc = run_module("play", path, stdin=ONE_GAME + "n\n")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.read(path), self.read(C_FILE))
        self.assertEqual(os.stat(path).st_mtime_ns, before.st_mtime_ns)
        self.assertNotIn("learned", proc.stdout)

    def test_learn_updates_the_file(self):
        path = self.copy_of_c_file()
        proc = run_module("play", path, "--learn", stdin=ONE_GAME + "n\n")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("The network learned from this game.", proc.stdout)
        self.assertIn("Learned from 1 game; saved to %s" % path, proc.stdout)
        self.assertNotEqual(self.read(path), self.read(C_FILE))
        self.assertEqual(sorted(os.listdir(self.tmp)), ["net.bin"])

    def test_learn_with_save_keeps_the_original(self):
        path = self.copy_of_c_file()
        other = os.path.join(self.tmp, "other.bin")
        proc = run_module("play", path, "--learn", "--save", other, stdin=ONE_GAME + "q\n")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.read(path), self.read(C_FILE))
        self.assertNotEqual(self.read(other), self.read(C_FILE))

    def test_save_needs_learn(self):
        proc = run_module("play", C_FILE, "--save", os.path.join(self.tmp, "x.bin"))
        self.assertEqual(proc.returncode, 2)
        self.assertIn("--save needs --learn", proc.stderr)


class FriendlierPlayTest(Base):
    """q quits, a missing file names the fix, --help explains the grid."""

    def test_q_quits_at_any_prompt(self):
        for stdin in ("q\n", "4\nquit\n", ONE_GAME + "Q\n"):
            proc = run_module("play", C_FILE, stdin=stdin)
            self.assertEqual(proc.returncode, 0, stdin)
            self.assertEqual(proc.stderr, "")

    def test_missing_file_names_the_fix(self):
        proc = run_module("play", os.path.join(self.tmp, "ttt_nn.bin"))
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(len(proc.stderr.splitlines()), 1)
        self.assertIn("No such file or directory; train one first: ttt-train", proc.stderr)

    def test_help_explains_the_markers_and_shows_examples(self):
        proc = run_module("play", "--help")
        self.assertIn("* marks", proc.stdout)
        self.assertIn("# the move", proc.stdout)
        for module in ("train", "play", "evaluate", "rl"):
            text = run_module(module, "--help").stdout
            self.assertGreaterEqual(text.split("examples:")[1].count("\n  ttt-"), 2, module)

    def test_start_up_says_the_sides_once(self):
        proc = run_module("play", C_FILE, stdin="q\n")
        self.assertEqual(proc.stdout.count("You are X, the computer is O."), 1)


class SideXTest(Base):
    """The net as X: trained on even moves, moves first, evaluated as X."""

    def test_train_and_evaluate_as_x(self):
        path = os.path.join(self.tmp, "x.bin")
        proc = run_module("train", "3000", path, "--side", "X", "--seed", "1")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("Exact as X vs random O", proc.stdout)
        as_x = evaluate_network(load(path), X)
        self.assertGreater(as_x["win"], 0.7)   # against a random O, after 3000 games
        proc = run_module("evaluate", path, "--side", "X", "--json")
        self.assertIn('"side": "X"', proc.stdout)

    def test_play_as_x_moves_first(self):
        proc = run_module("play", C_FILE, "--side", "X", stdin="q\n")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("You are O, the computer is X.", proc.stdout)
        self.assertLess(proc.stdout.index("Computer placed X"), proc.stdout.index("Your move"))


class InitTest(Base):
    """--init starts from a file; a seeded run from it is repeatable."""

    def test_zero_games_from_a_file_gives_the_file(self):
        path = os.path.join(self.tmp, "same.bin")
        proc = run_module("train", "0", path, "--init", C_FILE, "--seed", "1")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.read(path), self.read(C_FILE))

    def test_continued_training_is_repeatable(self):
        outputs = []
        for name in ("a.bin", "b.bin"):
            path = os.path.join(self.tmp, name)
            proc = run_module("train", "500", path, "--init", C_FILE, "--seed", "4")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            outputs.append(self.read(path))
        self.assertEqual(outputs[0], outputs[1])
        self.assertNotEqual(outputs[0], self.read(C_FILE))

    def test_bad_init_file(self):
        proc = run_module("train", "10", os.path.join(self.tmp, "w.bin"),
                          "--init", os.path.join(self.tmp, "nope.bin"))
        self.assertEqual(proc.returncode, 1)
        self.assertRegex(proc.stderr, r"^ttt-train: error: cannot read .*nope\.bin")
        self.assertEqual(os.listdir(self.tmp), [])


class TttRlTest(Base):
    """ttt-rl trains, then plays and learns, and writes nothing unless asked."""

    def test_trains_then_plays(self):
        proc = run_module("rl", "2000", "--seed", "1", stdin="4\n0\n1\n2\n3\n5\n6\n7\n8\nn\n",
                          cwd=self.tmp)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("Training complete!", proc.stdout)
        self.assertIn("Welcome to Tic Tac Toe!", proc.stdout)
        self.assertIn("The network learned from this game.", proc.stdout)
        self.assertEqual(os.listdir(self.tmp), [])

    def test_python_dash_m_and_save(self):
        path = os.path.join(self.tmp, "rl.bin")
        proc = subprocess.run([sys.executable, "-m", "ttt_rl", "1000", "--seed", "2",
                               "--save", path], input="q\n", capture_output=True, text=True,
                              env=dict(os.environ, PYTHONPATH=SRC), timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(os.path.getsize(path), 11236)


if __name__ == "__main__":
    unittest.main()
