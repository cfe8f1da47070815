"""ttt-train (train.py): the C's lines, the same file for the same seed,
paths checked before training, a first Ctrl-C that keeps the work, and a
printed next step that keeps the user's flags."""

import hashlib
import os
import shlex
import signal
import unittest
from unittest import mock

from ttt_rl import train
from ttt_rl.weights import file_size, load

from .helpers import C_FILE, DATA, TempDirTest, ctrl_c_after, read, run_main


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
        # The save is said first, then the verdict of what was saved.
        i = lines.index("Training complete!")
        self.assertEqual(lines[i - 1:i + 2], ["", "Training complete!",
                                              "Neural network saved to %s" % self.path("w.bin")])
        self.assertRegex("\n".join(lines[i + 2:]), r"Every X strategy: \d+ lines, \d+ lost")
        self.assertEqual(len(load(self.path("w.bin")).b_h), 100)

    def test_the_same_seed_writes_the_same_bytes(self):
        # tests/data/py_trained.bin came from `ttt-train 2000 FILE --seed 7`;
        # both files must come out byte for byte on every Python (make test-all).
        status, _, _ = run_main(train.main, "2000", self.path("w.bin"), "--seed", "7")
        self.assertEqual(status, 0)
        self.assertEqual(read(self.path("w.bin")), read(os.path.join(DATA, "py_trained.bin")))
        status, _, _ = run_main(train.main, "3000", self.path("s1.bin"), "--seed", "1")
        self.assertEqual(status, 0)
        self.assertEqual(hashlib.sha256(read(self.path("s1.bin"))).hexdigest(),
                         "af13bc9af6b082bf9f68471fbf312b32b8da5d141b4edd7b05d371a7e075711b")

    def test_hidden_units_and_init(self):
        status, _, _ = run_main(train.main, "30", self.path("w.bin"), "--hidden", "25",
                                "--seed", "2")
        self.assertEqual(status, 0)
        self.assertEqual(os.path.getsize(self.path("w.bin")), file_size(25))
        # --init takes the file's size.
        status, _, _ = run_main(train.main, "10", self.path("v.bin"), "--init",
                                self.path("w.bin"), "--seed", "2")
        self.assertEqual(status, 0)
        self.assertEqual(os.path.getsize(self.path("v.bin")), file_size(25))
        self.assertNotEqual(read(self.path("v.bin")), read(self.path("w.bin")))

    def test_init_with_no_games_writes_the_file_it_started_from(self):
        status, out, _ = run_main(train.main, "0", self.path("z.bin"), "--init", C_FILE)
        self.assertEqual(status, 0)
        self.assertIn("No game was played", out)
        self.assertEqual(read(self.path("z.bin")), read(C_FILE))

    def test_weights_that_overflow_are_not_saved(self):
        target = self.copy_of_c_file("w.bin")
        status, _, err = run_main(train.main, "50", target, "--seed", "1",
                                  "--learning-rate", "1e300")
        self.assertEqual(status, 1)
        self.assertIn("not a finite float32", err)
        self.assertEqual(read(target), read(C_FILE))

    def test_paths_are_checked_before_training(self):
        self.copy_of_c_file("w.csv")
        for args, reason in (([self.path("no/x.bin")], "No such file"),
                             ([self.path("w.bin"), "--init", self.path("missing.bin")],
                              "cannot read"),
                             ([self.path("w.bin"), "--curve", self.path("w.csv"),
                               "--init", self.path("w.csv")], "is the --init file")):
            # A run of 10**8 games would take hours: it must fail before.
            status, out, err = run_main(train.main, "100000000", *args)
            self.assertEqual((status, out), (1, ""), args)
            self.assertIn(reason, err)
        self.assertEqual(read(self.path("w.csv")), read(C_FILE))
        self.assertEqual(os.listdir(self.tmp), ["w.csv"])

    def test_first_ctrl_c_saves_what_was_trained(self):
        target = self.path("w.bin")
        with ctrl_c_after(30, train):
            status, out, err = run_main(train.main, "1000", target, "--seed", "4")
        self.assertEqual(status, 130)
        self.assertIn("Stopped by Ctrl-C after 30 of 1000 games.", out)
        self.assertIn("Neural network saved to %s" % target, out)
        self.assertRegex(out, r"Every X strategy: \d+ lines")
        # The file holds exactly the first 30 games.
        run_main(train.main, "30", self.path("thirty.bin"), "--seed", "4")
        self.assertEqual(read(target), read(self.path("thirty.bin")))

    def test_second_ctrl_c_writes_nothing(self):
        target = self.copy_of_c_file("w.bin")
        with ctrl_c_after(30, train, presses=2):
            status, _, err = run_main(train.main, "1000", target, "--seed", "4")
        self.assertEqual(status, 130)
        self.assertEqual(err, "ttt-train: interrupted; %s was not written\n" % target)
        self.assertEqual(read(target), read(C_FILE))
        self.assertEqual(os.listdir(self.tmp), ["w.bin"])


class ModesTest(TempDirTest):
    """Every way to train (README: Both sides, and who you train against)
    repeats exactly for a seed, and each makes another net."""

    def test_each_mode_repeats_for_a_seed(self):
        modes = ([], ["--side", "both", "--method", "q-learning"],
                 ["--side", "both", "--method", "q-learning", "--opponent", "self"],
                 ["--opponent", "mcts", "--playouts", "5"],
                 ["--method", "q-learning", "--explore", "softmax"])
        files = []
        for i, mode in enumerate(modes):
            for copy in ("a", "b"):
                status, out, err = run_main(train.main, "30", self.path("%d%s.bin" % (i, copy)),
                                            "--seed", "1", *mode)
                self.assertEqual((status, err), (0, ""), mode)
            files.append(read(self.path("%da.bin" % i)))
            self.assertEqual(files[-1], read(self.path("%db.bin" % i)), mode)
        self.assertEqual(len(set(files)), len(modes))


class TrainProcessTest(TempDirTest):
    """The real console command, stopped by a signal."""

    def start_training(self):
        proc = self.start_module("train", "10000000", self.path("w.bin"), "--seed", "1")
        for line in proc.stdout:   # ends at EOF if the command died
            if b"random games..." in line:   # training has started
                return proc

    def test_sigterm_writes_nothing(self):
        proc = self.start_training()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 128 + signal.SIGTERM)
        self.assertEqual(err, b"ttt-train: stopped; %s was not written\n"
                         % self.path("w.bin").encode())
        self.assertEqual(os.listdir(self.tmp), [])

    def test_a_closed_terminal_keeps_the_net(self):
        proc = self.start_training()
        proc.send_signal(signal.SIGHUP)   # as a first Ctrl-C: stop after the game, save
        out, err = proc.communicate(timeout=60)
        self.assertEqual((proc.returncode, err), (128 + signal.SIGHUP, b""))
        self.assertIn(b"Stopped by a closed terminal after", out)
        self.assertEqual(sorted(os.listdir(self.tmp)), ["w.bin"])


class VerdictTest(TempDirTest):
    """Every run ends with one sentence on the saved net, and what to do next."""

    def train_as_console_script(self, *argv):
        with mock.patch("sys.argv", ["ttt-train"]):   # as the console script
            return run_main(train.main, *argv)

    def test_a_beatable_net_is_said_with_what_to_run(self):
        path = self.path("w.bin")
        status, out, _ = self.train_as_console_script("20", path, "--seed", "3")
        self.assertEqual(status, 0)
        last = out.splitlines()[-2:]
        self.assertRegex(last[0], r"^The saved net can be beaten as O: it loses \d+ lines "
                                  r"against some X strategy \(it wins \d+\.\d\d% against a "
                                  r"random X\)\.$")
        # (At least the Quick start's 20,000 games a run: 20 could not succeed.)
        self.assertEqual(last[1], "For an unbeatable net, try: ttt-train 20000 %s --runs=16 "
                                  "--until-unbeatable, or ttt-train 200000 %s "
                                  "--method=q-learning" % (path, path))

    def test_the_next_step_keeps_the_users_flags(self):
        # The printed commands train the same kind of net: the same side,
        # hidden units and rewards (issue 27, class 13).
        path = self.path("w.bin")
        status, out, _ = self.train_as_console_script(
            "20", path, "--seed", "3", "--side", "X", "--hidden", "9",
            "--reward-loss", "-3", "--reward-tie", "0.5")
        self.assertEqual(status, 0)
        advice = out.splitlines()[-1]
        self.assertTrue(advice.startswith("For an unbeatable net, try: "), advice)
        commands = advice[len("For an unbeatable net, try: "):].split(", or ")
        self.assertEqual(len(commands), 2, advice)
        for text, method, runs in zip(commands, ("monte-carlo", "q-learning"), (16, None)):
            words = shlex.split(text)
            self.assertEqual(words[0], "ttt-train")
            args = train.train_parser().parse_args(words[1:])
            self.assertEqual((args.output, args.side, args.hidden, args.reward_loss,
                              args.reward_tie, args.method, args.runs),
                             (path, "X", 9, -3.0, 0.5, method, runs), text)

    def test_q_learning_and_the_curve_say_what_they_did(self):
        status, out, _ = run_main(train.main, "30", self.path("q.bin"), "--seed", "1",
                                  "--method", "q-learning", "--curve", self.path("q.csv"))
        self.assertEqual(status, 0)
        self.assertIn("Learning rule: Q-learning (learning rate 0.01, epsilon 0.3", out)
        self.assertTrue(out.endswith("Learning curve written to %s\n" % self.path("q.csv")))
        with open(self.path("q.csv")) as f:
            self.assertGreater(len(f.read().splitlines()), 1)


if __name__ == "__main__":
    unittest.main()
