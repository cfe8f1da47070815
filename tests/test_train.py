"""ttt-train (train.py): the C's lines, the same file for the same seed,
paths checked before training, and a first Ctrl-C that keeps the work."""

import os
import re
import signal
import unittest

from ttt_rl import train
from ttt_rl.weights import file_size

from .helpers import DATA, TempDirTest, ctrl_c_after, read, run_main, run_module


class TrainCommandTest(TempDirTest):
    """ttt-train prints the C's lines and writes the same file for the same seed."""

    def test_output_in_the_c_format(self):
        status, out, err = run_main(train.main, "20", self.path("w.bin"), "--seed", "3")
        self.assertEqual((status, err), (0, ""))
        lines = out.splitlines()
        self.assertEqual(lines[:2], ["Training neural network with 20 games",
                                     "Training neural network against 20 random games..."])
        progress = [l for l in lines if l.startswith("Games: ")]
        self.assertEqual(len(progress), 10)   # a short run: about 10 lines
        self.assertRegex(progress[0], r"^Games: 2, Wins: \d+ \(\d+\.\d%\), Losses: \d+ "
                                      r"\(\d+\.\d%\), Ties: \d+ \(\d+\.\d%\) \[last 2 games; ")
        i = lines.index("Training complete!")
        self.assertEqual(lines[i - 1:i + 2], ["", "Training complete!",
                                              "Neural network saved to %s" % self.path("w.bin")])
        self.assertRegex(out, r"Every X strategy: \d+ lines, \d+ lost")

    def test_the_committed_fixture_is_reproduced(self):
        # tests/data/py_trained.bin came from `ttt-train 2000 FILE --seed 7`,
        # and must come out byte for byte on every Python (make test-all).
        status, _, _ = run_main(train.main, "2000", self.path("w.bin"), "--seed", "7")
        self.assertEqual(status, 0)
        self.assertEqual(read(self.path("w.bin")), read(os.path.join(DATA, "py_trained.bin")))

    def test_options_before_positionals_and_either_case_side(self):
        status, _, err = run_main(train.main, "--seed", "1", "--side", "x", "10",
                                  self.path("x.bin"))
        self.assertEqual((status, err), (0, ""))
        status, _, err = run_main(train.main, "10", "--seed", "1", self.path("y.bin"),
                                  "--side", "X")
        self.assertEqual(status, 0)
        self.assertEqual(read(self.path("x.bin")), read(self.path("y.bin")))

    def test_hidden_units(self):
        status, _, _ = run_main(train.main, "30", self.path("w.bin"), "--hidden", "25",
                                "--seed", "2")
        self.assertEqual(status, 0)
        self.assertEqual(os.path.getsize(self.path("w.bin")), file_size(25))
        # --init takes the file's size; a different --hidden is refused.
        status, _, err = run_main(train.main, "10", self.path("v.bin"), "--init",
                                  self.path("w.bin"), "--hidden", "30")
        self.assertEqual(status, 1)
        self.assertIn("does not match", err)
        status, _, _ = run_main(train.main, "10", self.path("v.bin"), "--init",
                                self.path("w.bin"))
        self.assertEqual(os.path.getsize(self.path("v.bin")), file_size(25))

    def test_init_continues_from_a_file(self):
        status, _, _ = run_main(train.main, "0", self.path("z.bin"), "--init",
                                os.path.join(DATA, "c_trained.bin"))
        self.assertEqual(status, 0)
        self.assertEqual(read(self.path("z.bin")), read(os.path.join(DATA, "c_trained.bin")))

    def test_replacing_a_file_keeps_a_backup_and_says_both_verdicts(self):
        target = self.copy_of_c_file("w.bin")
        status, out, _ = run_main(train.main, "10", target, "--seed", "1")
        self.assertEqual(status, 0)
        self.assertRegex(out, r"Replaced %s \(was: loses 14 lines, 81\.0%% wins; now: "
                              r"loses \d+ lines, [\d.]+%% wins\); the old file is %s\.bak"
                         % (re.escape(target), re.escape(target)))
        self.assertEqual(read(target + ".bak"), read(os.path.join(DATA, "c_trained.bin")))

    def test_weights_that_overflow_are_not_saved(self):
        target = self.copy_of_c_file("w.bin")
        status, _, err = run_main(train.main, "50", target, "--seed", "1",
                                  "--learning-rate", "1e300")
        self.assertEqual(status, 1)
        self.assert_one_line(err, "error: a weight is not a finite float32 .*too large")
        self.assertEqual(read(target), read(os.path.join(DATA, "c_trained.bin")))
        self.assertEqual(os.listdir(self.tmp), ["w.bin"])

    def test_paths_are_checked_before_training(self):
        self.copy_of_c_file("w.csv")
        for args, reason in (([self.path("no/x.bin")], "does not exist"),
                             ([self.path("w.bin"), "--curve", self.path("w.svg"),
                               "--init", self.path("missing.bin")], "cannot read"),
                             ([self.path("w.bin"), "--curve", self.path("w.csv"),
                               "--init", self.path("w.csv")], "is the --init file")):
            status, out, err = run_main(train.main, "100000000", *args)
            self.assertEqual((status, out), (1, ""), args)
            self.assert_one_line(err, reason)
        self.assertEqual(read(self.path("w.csv")), read(os.path.join(DATA, "c_trained.bin")))

    def test_first_ctrl_c_saves_what_was_trained(self):
        target = self.copy_of_c_file("w.bin")
        with ctrl_c_after(30, train):
            status, out, err = run_main(train.main, "1000", target, "--seed", "4")
        self.assertEqual(status, 130)
        self.assertIn("Stopped by Ctrl-C after 30 of 1000 games.", out)
        self.assertIn("Neural network saved to %s" % target, out)
        self.assertRegex(out, r"Every X strategy: \d+ lines")
        self.assertEqual(read(target + ".bak"), read(os.path.join(DATA, "c_trained.bin")))
        # The file holds exactly the first 30 games.
        run_main(train.main, "30", self.path("thirty.bin"), "--seed", "4")
        self.assertEqual(read(target), read(self.path("thirty.bin")))

    def test_second_ctrl_c_writes_nothing(self):
        target = self.copy_of_c_file("w.bin")
        with ctrl_c_after(30, train, presses=2):
            status, _, err = run_main(train.main, "1000", target, "--seed", "4")
        self.assertEqual(status, 130)
        self.assertEqual(err, "ttt-train: interrupted; %s was not written\n" % target)
        self.assertEqual(read(target), read(os.path.join(DATA, "c_trained.bin")))
        self.assertEqual(os.listdir(self.tmp), ["w.bin"])


class TrainProcessTest(TempDirTest):
    """The real console command: bad arguments and stop signals."""

    def test_bad_arguments_are_one_line(self):
        proc = run_module("train", "abc", cwd=self.tmp)   # the real console command
        self.assertEqual(proc.returncode, 2)
        self.assert_one_line(proc.stderr, r"^ttt-train: error: argument GAMES: 'abc' is not")
        for args in (["-5"], ["1.5"], ["10", "--seed", "x"], ["--games", "3"],
                     ["10", "--curve", "c.png"], ["10", "--side", "Y"], ["10", "--runs", "0"],
                     ["10", "--runs", "100000000000000000"], ["10", "--hidden", "0"]):
            status, out, err = run_main(train.main, *args, self.path("w.bin"))
            self.assertEqual((status, out), (2, ""), args)
            self.assert_one_line(err, r"^ttt-train: error: ")
        self.assertEqual(os.listdir(self.tmp), [])

    def test_sigterm_and_sighup_write_nothing(self):
        for sig in (signal.SIGTERM, signal.SIGHUP):
            proc = self.start_module("train", "10000000", self.path("w.bin"), "--seed", "1")
            proc.stdout.readline()   # training has started
            proc.send_signal(sig)
            _, err = proc.communicate(timeout=30)
            proc.stdout.close()
            self.assertEqual(proc.returncode, 128 + sig)
            self.assert_one_line(err, r"^ttt-train: interrupted; .*w\.bin was not written$")
            self.assertEqual(os.listdir(self.tmp), [])


class VerdictTest(TempDirTest):
    """Every run ends with one sentence on the saved net, and what to do next."""

    def test_a_beatable_net_is_said_with_what_to_run(self):
        status, out, _ = run_main(train.main, "20", self.path("w.bin"), "--seed", "3")
        last = out.splitlines()[-2:]
        self.assertRegex(last[0], r"^The saved net can be beaten as O: it loses \d+ lines "
                                  r"against some X strategy \(it wins \d+\.\d\d% against a "
                                  r"random X\)\.$")
        self.assertEqual(last[1], "For an unbeatable net, try: ttt-train 20 %s --runs 16 "
                                  "--until-unbeatable, or ttt-train 200000 %s --method "
                                  "q-learning" % (self.path("w.bin"), self.path("w.bin")))

    def test_q_learning_and_the_curve_say_what_they_did(self):
        status, out, _ = run_main(train.main, "30", self.path("q.bin"), "--seed", "1",
                                  "--method", "q-learning", "--curve", self.path("q.csv"))
        self.assertEqual(status, 0)
        self.assertIn("Learning rule: Q-learning (learning rate 0.01, epsilon 0.3", out)
        self.assertTrue(out.endswith("Learning curve written to %s\n" % self.path("q.csv")))


if __name__ == "__main__":
    unittest.main()
