"""What every command promises (lab/cli.py, docs/failures.md): a bad command line is argparse's
usage and one error line, exit 2; a file that is not a readable weights file is one line naming
it, exit 1; a first Ctrl-C stops after the game and saves, exit 130, a second one saves
nothing and tears no file; a closed pipe is quiet; flags that do not go together are refused."""

import math
import os
import random
import shlex
import signal
import struct
import subprocess
import sys

from ttt_rl import connect4, play, train, ttt
from ttt_rl.lab import ttt_eval
from ttt_rl.nn import init_neural_network
from ttt_rl.weights import to_bytes

from ..helpers import C_FILE, SRC, TempDirTest, ctrl_c_after, read, run_main


class CommandLineTest(TempDirTest):

    def test_a_bad_command_line_is_one_error_line_and_exit_2(self):
        for main, argv in ((train.main, ["abc"]), (train.main, ["10", "--seed", "x"]),
                           (train.main, ["10", "--method", "sarsa"]),
                           (train.main, ["10", "--epsilon", "0.1"]),   # not q-learning
                           (train.main, ["10", "--jobs", "2"]),        # needs --runs
                           (train.main, ["10", "--method", "policy-iteration", "--side", "O"]),
                           (train.main, ["10", "--side", "x"]),   # as written: X, O, both
                           (train.main, ["10", "--runs", "2", "--until-unbeatable"]),   # retired
                           (play.main, ["--side", "both"]), (play.main, ["--side", "x"]),
                           (ttt.main, ["--learning-rate", "0"]),
                           (ttt_eval.main, [])):
            status, out, err = run_main(main, *argv)
            self.assertEqual(status, 2, argv)
            self.assertNotIn("Traceback", err)
            self.assertRegex(err.splitlines()[-1], r"^ttt-\w+: error: ", argv)
            self.assertFalse(os.listdir(self.tmp))

    def test_connect_four_refuses_what_is_tic_tac_toes(self):
        c4_file = self.path("c4.bin")
        with open(c4_file, "wb") as f:
            f.write(to_bytes(init_neural_network(random.Random(1), 10, connect4)))
        with open(self.path("v.bin"), "wb") as f:
            f.write(to_bytes(init_neural_network(random.Random(1), 10, connect4, True)))
        c4 = ["10", self.path("o.bin"), "--game", "connect4"]
        for argv, flag in ((c4 + ["--runs", "2"], "--runs"),
                           (c4 + ["--opponent", "mcts"], "--opponent"),
                           (c4 + ["--side", "X"], "--side"),
                           (c4 + ["--method", "q-learning"], "--method"),
                           (c4 + ["--method", "policy-iteration"], "--method"),
                           (["10", self.path("o.bin"), "--method", "expert-iteration"],
                            "--method"),
                           (c4 + ["--init", C_FILE], "--init"),
                           (["10", self.path("o.bin"), "--init", c4_file], "--init"),
                           # a net without a value output for expert iteration, and one with
                           # it for the C's rule; a hidden size whose file would collide
                           (c4 + ["--method", "expert-iteration", "--init", c4_file], "--init"),
                           (c4 + ["--init", self.path("v.bin")], "--init"),
                           (c4 + ["--method", "expert-iteration", "--hidden", "91"], "--hidden"),
                           # a zero is given, and refused as any other value would be
                           (c4 + ["--epsilon", "0"], "--epsilon"),
                           (c4 + ["--gamma", "0"], "--gamma"),
                           (c4 + ["--method", "expert-iteration", "--reward-win", "0"],
                            "--reward-win"),
                           (["10", self.path("o.bin"), "--method", "policy-iteration",
                             "--reward-tie", "0"], "--reward-tie"),
                           (c4 + ["--method", "expert-iteration", "--jobs", "100000"],
                            "argument --jobs:"),
                           (["10", self.path("o.bin"), "--curve", "out.png"], "--curve")):
            status, out, err = run_main(train.main, *argv)
            self.assertEqual((status, out), (2, ""), argv)
            self.assertNotIn("Traceback", err)
            self.assertTrue(err.startswith("usage: ttt-train "), argv)
            self.assertRegex(err.splitlines()[-1], "^ttt-train: error: %s " % flag, argv)
            self.assertEqual(len([l for l in err.splitlines() if "error" in l]), 1, argv)
        self.assertEqual(sorted(os.listdir(self.tmp)), ["c4.bin", "v.bin"])

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
            self.assertIn("Ctrl-C: stopping after this game or sweep (expert iteration: now, "
                          "or after the learning under way), then saving", err)
            self.assertIn("Neural network saved to", out)
            if after < 50:
                self.assertIn("Stopped by Ctrl-C after 7 of 50 games.", out)
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


# Run a command in a process of its own, with a hook that presses Ctrl-C at one moment.
HOOK = """
import os, signal, sys
from ttt_rl import %s as command
def pressing(real):
    def hook(*args):
        os.kill(os.getpid(), signal.SIGINT)
        return real(*args)
    return hook
%s = pressing(%s)
sys.exit(command.main(sys.argv[1:]))
"""
FULL_GAME = "4\n0\n1\n2\n3\n5\n6\n7\n8\n"   # X's moves, skipping taken cells


class CtrlCUntilSavedTest(TempDirTest):
    """A first Ctrl-C after training, until the save is done, still saves: exit 130."""

    def run_hooked(self, module, hooked, argv, stdin):
        return subprocess.run([sys.executable, "-c", HOOK % (module, hooked, hooked)] + argv,
                              input=stdin.encode(), capture_output=True, timeout=120,
                              env=dict(os.environ, PYTHONPATH=SRC),
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))

    def test_ctrl_c_during_the_verdict_or_the_save_keeps_the_net(self):
        out_file, learned = self.path("out.bin"), self.copy_of_c_file("learned.bin")
        for module, hooked, argv, stdin in (
                ("ttt", "command.summary_lines", ["20", "--seed", "1", "--save", out_file], ""),
                ("ttt", "os.fsync", ["20", "--seed", "1", "--save", out_file], "q\n"),
                ("train", "os.fsync", ["3", out_file, "--runs", "2", "--seed", "1"], ""),
                ("play", "os.fsync", [learned, "--learn"], FULL_GAME + "n\n")):
            if os.path.exists(out_file):
                os.remove(out_file)
            proc = self.run_hooked(module, hooked, argv, stdin)
            self.assertEqual(proc.returncode, 130, (module, hooked, proc.stderr))
            self.assertNotIn(b"Traceback", proc.stderr)
            self.assertIn(b"Ctrl-C: stopping", proc.stderr)
            self.assertEqual(len(read(out_file if module != "play" else learned)), 11236)
        self.assertNotEqual(read(learned), read(C_FILE))   # it learned, and saved
        self.assertEqual(read(learned + ".bak"), read(C_FILE))


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
            self.assertNotIn("Seed: ", out)   # a seed is said once the output is tried
        self.assertEqual(os.listdir(self.tmp), [])
        proc = subprocess.run([sys.executable, "-m", "ttt_rl.train", "5", self.path("c.bin"),
                               "--seed", "1"], stdin=subprocess.DEVNULL, capture_output=True,
                              env=dict(os.environ, PYTHONPATH=SRC), pass_fds=(),
                              preexec_fn=lambda: os.close(0))   # a closed stdin
        self.assertEqual((proc.returncode, proc.stderr), (0, b""))

    def test_a_closed_standard_input_is_the_end_of_input(self):
        out_file = self.path("out.bin")
        for args in (["play", C_FILE], ["ttt", "20", "--seed", "1", "--save", out_file]):
            proc = subprocess.run([sys.executable, "-m", "ttt_rl." + args[0]] + args[1:],
                                  stdin=subprocess.DEVNULL, capture_output=True, timeout=60,
                                  env=dict(os.environ, PYTHONPATH=SRC),
                                  preexec_fn=lambda: os.close(0))
            self.assertEqual((proc.returncode, proc.stderr), (0, b""), args)
            self.assertIn(b"Score: you 0, the net 0, ties 0.", proc.stdout)
        self.assertEqual(len(read(out_file)), 11236)

    def test_ttt_rl_offers_only_what_it_takes(self):
        status, out, _ = run_main(ttt.main, "--help")
        self.assertEqual(status, 0)
        for word in ("policy-iteration", "both", "sweep"):
            self.assertNotIn(word, out)
        for flags in (["--method", "policy-iteration"], ["--side", "both"]):
            status, out, err = run_main(ttt.main, "5", *flags)
            self.assertEqual((status, out), (2, ""), flags)   # not even "Seed: "
            self.assertRegex(err.splitlines()[-1], "^ttt-rl: error: argument --")

    def test_flags_may_come_between_positionals(self):
        status, out, err = run_main(ttt_eval.main, C_FILE, "--json", C_FILE)
        self.assertEqual((status, err, len(out.splitlines())), (0, "", 2))

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
        self.assert_one_line(err, "cannot replace .*y.bin: .*; the data is in .*y.bin.\\w+.tmp")
        kept = err.split("the data is in ")[1].strip()
        self.assertEqual(len(read(kept)), 11236)
        self.assertEqual(read(target), read(C_FILE))
