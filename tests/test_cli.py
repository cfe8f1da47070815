import os
import signal
import struct
import subprocess
import sys
import tempfile
import time
import unittest

from .helpers import DATA, SRC, run_module

C_FILE = os.path.join(DATA, "c_trained.bin")


class CliTestCase(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = tmp.name

    def assert_one_line_error(self, proc, pattern, status=None):
        self.assertNotEqual(proc.returncode, 0)
        if status is not None:
            self.assertEqual(proc.returncode, status)
        self.assertNotIn("Traceback", proc.stderr)
        self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)
        self.assertRegex(proc.stderr, pattern)


class TrainCommandTest(CliTestCase):
    """ttt-train prints the C's lines, checks its arguments first, repeats with a seed."""

    def test_bad_game_counts(self):
        for bad in ("abc", "-5", "1.5", ""):
            proc = run_module("train", bad, os.path.join(self.tmp, "x.bin"))
            self.assert_one_line_error(proc, r"^ttt-train: error: argument GAMES", 2)
            self.assertEqual(proc.stdout, "")

    def test_missing_output_folder_is_reported_before_training(self):
        target = os.path.join(self.tmp, "nowhere", "x.bin")
        proc = run_module("train", "100000000", target)
        self.assert_one_line_error(proc, r"cannot write .*nowhere.*: folder .* does not exist", 1)
        self.assertEqual(proc.stdout, "")   # failed before training started

    def test_output_that_is_a_directory(self):
        proc = run_module("train", "10", self.tmp)
        self.assert_one_line_error(proc, r"is a directory", 1)

    def test_output_that_is_a_device(self):
        proc = run_module("train", "10", os.devnull)
        self.assert_one_line_error(proc, r"/dev/null: .*not a regular file", 1)
        self.assertTrue(os.path.exists(os.devnull) and not os.path.isfile(os.devnull))

    def test_bad_seed_and_unknown_option(self):
        self.assert_one_line_error(run_module("train", "10", "--seed", "x"), "--seed", 2)
        self.assert_one_line_error(run_module("train", "--games", "3"), "unrecognized", 2)

    def test_output_in_the_c_format(self):
        out = os.path.join(self.tmp, "w.bin")
        proc = run_module("train", "20000", out, "--seed", "3")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertEqual(lines[:2], ["Training neural network with 20000 games",
                                     "Training neural network against 20000 random games..."])
        for n, line in zip((10000, 20000), lines[2:4]):
            self.assertRegex(line, r"^Games: %d, Wins: \d+ \(\d+\.\d%%\), Losses: \d+ "
                                   r"\(\d+\.\d%%\), Ties: \d+ \(\d+\.\d%%\)( |$)" % n)
        self.assertEqual(lines[4:7], ["", "Training complete!",
                                      "Neural network saved to %s" % out])
        self.assertRegex(lines[7], r"^Training time: ")
        self.assertRegex(lines[8], r"^Exact as O vs random X: win ")
        self.assertEqual(os.path.getsize(out), 11236)
        self.assertEqual(os.listdir(self.tmp), ["w.bin"])

    def test_same_seed_same_file(self):
        paths = [os.path.join(self.tmp, name) for name in ("a.bin", "b.bin", "c.bin")]
        for path, seed in zip(paths, ("42", "42", "43")):
            self.assertEqual(run_module("train", "500", path, "--seed", seed).returncode, 0)
        data = []
        for path in paths:
            with open(path, "rb") as f:
                data.append(f.read())
        self.assertEqual(data[0], data[1])
        self.assertNotEqual(data[0], data[2])

    def test_without_seed_runs_differ(self):
        paths = [os.path.join(self.tmp, name) for name in ("a.bin", "b.bin")]
        for path in paths:
            self.assertEqual(run_module("train", "0", path).returncode, 0)
        with open(paths[0], "rb") as a, open(paths[1], "rb") as b:
            self.assertNotEqual(a.read(), b.read())

    def test_zero_games_saves_the_initial_network(self):
        path = os.path.join(self.tmp, "w.bin")
        proc = run_module("train", "0", path, "--seed", "1")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(os.path.getsize(path), 11236)

    def test_eval_every_and_curve(self):
        path = os.path.join(self.tmp, "w.bin")
        curve = os.path.join(self.tmp, "curve.csv")
        proc = run_module("train", "25000", path, "--seed", "2", "--eval-every", "5000",
                          "--curve", curve)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout.count("Exact at "), 5)
        with open(curve) as f:
            rows = [line.rstrip("\n").split(",") for line in f]
        self.assertEqual(rows[0], ["games", "wins", "losses", "ties", "exact_win",
                                   "exact_draw", "exact_loss", "lines_lost"])
        self.assertEqual([r[0] for r in rows[1:]], ["5000", "10000", "15000", "20000", "25000"])
        self.assertEqual(rows[1][1:4], ["", "", ""])     # no report at 5000
        self.assertEqual(sum(int(x) for x in rows[2][1:4]), 10000)
        self.assertTrue(all(r[7] for r in rows[1:]))    # exact numbers in every row

    def test_help_and_version(self):
        for module in ("train", "play", "evaluate"):
            proc = run_module(module, "--help")
            self.assertEqual(proc.returncode, 0)
            self.assertIn("usage:", proc.stdout)
            proc = run_module(module, "--version")
            self.assertEqual(proc.returncode, 0)
            self.assertRegex(proc.stdout, r"^ttt-\w+ \d+\.\d+\.\d+$")

    def test_ctrl_c_during_training(self):
        path = os.path.join(self.tmp, "w.bin")
        env = dict(os.environ, PYTHONPATH=SRC)
        proc = subprocess.Popen([sys.executable, "-m", "ttt_rl.train", "10000000", path],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=env)
        proc.stdout.readline()   # training has started
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 130)
        self.assertNotIn("Traceback", err)
        self.assertIn("interrupted", err)
        self.assertEqual(os.listdir(self.tmp), [])   # no file, no temp file


class ClosedOutputTest(CliTestCase):
    """A reader that goes away ends ttt-play and ttt-eval quietly."""

    def test_closed_pipe_ends_quietly(self):
        # Like `ttt-eval FILE | true`: the reader is gone before any output.
        env = dict(os.environ, PYTHONPATH=SRC)
        for module, args in (("evaluate", [C_FILE, "--show-losses"]),
                             ("play", [C_FILE])):
            proc = subprocess.Popen([sys.executable, "-m", "ttt_rl." + module, *args],
                                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True, env=env)
            proc.stdout.close()
            err = proc.stderr.read()
            proc.stderr.close()
            self.assertEqual(proc.wait(timeout=30), 1, module)
            self.assertEqual(err, "", module)


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path


class BadWeightsTest(CliTestCase):
    """ttt-play and ttt-eval refuse bad files with one clear line."""

    def bad_files(self):
        nan = [0.0] * 2809
        nan[5] = float("nan")
        inf = [0.0] * 2809
        inf[2808] = float("inf")
        return [
            (os.path.join(self.tmp, "missing.bin"), "No such file"),
            (self.tmp, "Is a directory"),
            (write(os.path.join(self.tmp, "empty.bin"), b""), "it is empty"),
            (write(os.path.join(self.tmp, "short.bin"), b"\0" * 11232), "truncated"),
            (write(os.path.join(self.tmp, "long.bin"), b"\0" * 20000), "it has more than 11236 bytes"),
            (write(os.path.join(self.tmp, "nan.bin"), struct.pack("<2809f", *nan)),
             "parameter 5 is nan"),
            (write(os.path.join(self.tmp, "inf.bin"), struct.pack("<2809f", *inf)),
             "parameter 2808 is inf"),
        ]

    def test_play(self):
        for path, reason in self.bad_files():
            proc = run_module("play", path, stdin="4\n")
            self.assert_one_line_error(proc, r"^ttt-play: error: .*" + reason, 1)
            self.assertEqual(proc.stdout, "")

    def test_eval(self):
        for path, reason in self.bad_files():
            proc = run_module("evaluate", path)
            self.assert_one_line_error(proc, r"^ttt-eval: error: .*" + reason, 1)

    def test_eval_json_and_show_losses_do_not_mix(self):
        proc = run_module("evaluate", C_FILE, "--json", "--show-losses")
        self.assert_one_line_error(proc, r"not allowed with argument", 2)

    def test_eval_goes_on_after_a_bad_file(self):
        proc = run_module("evaluate", os.path.join(self.tmp, "missing.bin"), C_FILE)
        self.assertEqual(proc.returncode, 1)
        self.assertIn(C_FILE, proc.stdout)


def first_game_moves():
    """The X moves of the first game in the C-trained fixture session."""
    with open(os.path.join(DATA, "c_trained.moves")) as f:
        moves = f.read()
    return moves[:moves.index("y\n")]


class PlayCommandTest(CliTestCase):
    """ttt-play ends cleanly at end of input, on Ctrl-C, and plays again on y."""

    def test_end_of_input_at_any_prompt(self):
        # At the first move, mid-game, and at "Play again?".
        for stdin in ("", "4\n", first_game_moves()):
            proc = run_module("play", C_FILE, stdin=stdin)
            self.assertEqual(proc.returncode, 0, stdin)
            self.assertEqual(proc.stderr, "")
            self.assertTrue(proc.stdout.endswith(": \n"), proc.stdout[-40:])
        self.assertTrue(proc.stdout.endswith("Play again? (y/n): \n"))

    def test_play_again(self):
        game = first_game_moves()
        proc = run_module("play", C_FILE, stdin=game + "\nY\n" + game + "nope\n")
        self.assertEqual(proc.returncode, 0)
        self.assertEqual(proc.stdout.count("Welcome to Tic Tac Toe!"), 2)
        # The empty answer asks again: three prompts for two games.
        self.assertEqual(proc.stdout.count("Play again? (y/n): "), 3)

    def test_ctrl_c_at_the_prompt(self):
        env = dict(os.environ, PYTHONPATH=SRC)
        proc = subprocess.Popen([sys.executable, "-m", "ttt_rl.play", C_FILE],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env)
        proc.stdout.readline()   # loaded: now waiting at the prompt
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
        self.assertEqual(proc.returncode, 130)
        self.assertEqual(err, "ttt-play: interrupted\n")   # one line, no traceback


if __name__ == "__main__":
    unittest.main()
