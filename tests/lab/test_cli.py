"""What every command promises (lab/cli.py, docs/failures.md): a bad command line is argparse's
usage and one error line, exit 2; a file that is not a readable weights file is one line naming
it, exit 1; a first Ctrl-C stops after the game and saves, exit 130, a second one saves
nothing and tears no file; a closed pipe is quiet; flags that do not go together are refused."""

import math
import os
import shlex
import struct
import subprocess
import sys

from ttt_rl import play, train, ttt
from ttt_rl.lab import ttt_eval

from ..helpers import C_FILE, SRC, TempDirTest, ctrl_c_after, read, run_main


class CommandLineTest(TempDirTest):

    def test_a_bad_command_line_is_one_error_line_and_exit_2(self):
        for main, argv in ((train.main, ["abc"]), (train.main, ["10", "--seed", "x"]),
                           (train.main, ["10", "--method", "sarsa"]),
                           (train.main, ["10", "--epsilon", "0.1"]),   # not q-learning
                           (train.main, ["10", "--jobs", "2"]),        # needs --runs
                           (train.main, ["10", "--method", "policy-iteration", "--side", "O"]),
                           (play.main, ["--side", "both"]),
                           (ttt.main, ["--learning-rate", "0"]),
                           (ttt_eval.main, [])):
            status, out, err = run_main(main, *argv)
            self.assertEqual(status, 2, argv)
            self.assertNotIn("Traceback", err)
            self.assertRegex(err.splitlines()[-1], r"^ttt-\w+: error: ", argv)
            self.assertFalse(os.listdir(self.tmp))

    def test_self_play_implies_both_sides_and_q_learning(self):
        status, out, err = run_main(train.main, "20", self.path("s.bin"), "--opponent", "self",
                                    "--seed", "1")
        self.assertEqual((status, err), (0, ""))
        self.assertIn("Training neural network by self-play, 20 games...", out)
        self.assertIn("Exact as X vs random O", out)   # both sides evaluated


class BadWeightsFileTest(TempDirTest):
    """Missing, a folder, the wrong size, text, truncated, NaN: one line naming the file."""

    def bad_files(self):
        files = {"missing.bin": None, "folder": "dir", "text.bin": b"hello\n",
                 "truncated.bin": read(C_FILE)[:-4],
                 "nan.bin": struct.pack("<f", math.nan) + read(C_FILE)[4:]}
        for name, data in files.items():
            if data == "dir":
                os.mkdir(self.path(name))
            elif data is not None:
                with open(self.path(name), "wb") as f:
                    f.write(data)
        return [self.path(name) for name in files]

    def test_every_command_says_one_line(self):
        for path in self.bad_files():
            for main, argv, expected in (
                    (play.main, [path], 1), (ttt.main, ["1", "--init", path], 1),
                    (train.main, ["1", self.path("o.bin"), "--init", path], 1),
                    (ttt_eval.main, [path], 2)):
                status, out, err = run_main(main, *argv)
                self.assertEqual(status, expected, (main.__module__, path))
                self.assert_one_line(err, "^ttt-[a-z]+: error: .*%s" % os.path.basename(path))


class CtrlCTest(TempDirTest):

    def test_a_first_ctrl_c_stops_after_the_game_and_saves(self):
        out_file = self.copy_of_c_file("net.bin")
        for after in (7, 50):   # mid-run, and at the very last game
            with ctrl_c_after(after):
                status, out, err = run_main(train.main, "50", out_file, "--seed", "1")
            self.assertEqual(status, 130)
            self.assertIn("Ctrl-C: stopping after this game", err)
            self.assertIn("Neural network saved to", out)
            if after < 50:
                self.assertIn("Stopped by Ctrl-C after 7 of 50.", out)
            self.assertNotEqual(read(out_file), read(C_FILE))
        self.assertEqual(sorted(os.listdir(self.tmp)), ["net.bin", "net.bin.bak"])

    def test_a_second_ctrl_c_saves_nothing_and_tears_nothing(self):
        out_file = self.copy_of_c_file("net.bin")
        with ctrl_c_after(5, presses=2):
            status, out, err = run_main(train.main, "50", out_file, "--seed", "1")
        self.assertEqual(status, 130)
        self.assertIn("interrupted", err)
        self.assertEqual(read(out_file), read(C_FILE))
        self.assertEqual(os.listdir(self.tmp), ["net.bin"])   # no temporary file left


class ClosedPipeTest(TempDirTest):

    def test_output_into_a_closed_pipe_is_quiet(self):
        for args in (["train", "5000", self.path("p.bin"), "--seed", "1"],
                     ["lab.ttt_eval", C_FILE, C_FILE]):
            command = shlex.join([sys.executable, "-m", "ttt_rl." + args[0]] + args[1:])
            proc = subprocess.run(command + " | head -c 1 > /dev/null", shell=True, timeout=60,
                                  capture_output=True, env=dict(os.environ, PYTHONPATH=SRC))
            self.assertEqual(proc.stderr, b"", args)


class HostileInputTest(TempDirTest):
    """Cases a reviewer found: each is one line (or argparse's), never a traceback."""

    def test_odd_names_and_streams(self):
        cases = [(train.main, ["10", ""], 1),                     # an empty OUTPUT
                 (train.main, ["10", self.path("a.bin"), "--curve", self.path("a.bin")], 2),
                 (train.main, ["1", "--method", "policy-iteration", "--eval-every", "1"], 2),
                 (play.main, [C_FILE, "--save", self.path("s.bin")], 2),   # no --learn
                 (ttt.main, ["1", "--init", C_FILE, "--hidden", "7"], 2)]
        for main, argv, expected in cases:
            status, out, err = run_main(main, *argv)
            self.assertEqual(status, expected, argv)
            self.assertNotIn("Traceback", err)
        self.assertEqual(os.listdir(self.tmp), [])
        proc = subprocess.run([sys.executable, "-m", "ttt_rl.train", "5", self.path("c.bin"),
                               "--seed", "1"], stdin=subprocess.DEVNULL, capture_output=True,
                              env=dict(os.environ, PYTHONPATH=SRC), pass_fds=(),
                              preexec_fn=lambda: os.close(0))   # a closed stdin
        self.assertEqual((proc.returncode, proc.stderr), (0, b""))

    def test_runs_without_a_seed_draw_one(self):
        status, out, err = run_main(train.main, "3", self.path("r.bin"), "--runs", "2")
        self.assertEqual((status, err), (0, ""))
        seed = int(out.split("Seed: ")[1].split()[0])
        self.assertIn("seeds %d to %d" % (seed, seed + 1), out)

    def test_a_backup_that_cannot_be_written_keeps_the_net(self):
        target = self.copy_of_c_file("y.bin")
        os.mkdir(target + ".bak")
        status, out, err = run_main(train.main, "5", target, "--seed", "1")
        self.assertEqual(status, 1)
        self.assert_one_line(err, "cannot replace .*y.bin: .*; the data is in .*y.bin.\\d+.tmp")
        kept = err.split("the data is in ")[1].strip()
        self.assertEqual(len(read(kept)), 11236)
        self.assertEqual(read(target), read(C_FILE))
