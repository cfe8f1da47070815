"""ttt-train (train.py): the C's lines, the file it writes, --hidden and --init, a net
that cannot be saved, and every method's verdict at the end."""

import os
import unittest

from ttt_rl import connect4, train
from ttt_rl.weights import file_size, load

from .helpers import C_FILE, ROOT, TempDirTest, read, run_main


class TrainCommandTest(TempDirTest):

    def test_output_in_the_c_format(self):
        status, out, err = run_main(train.main, "20", self.path("w.bin"), "--seed", "3")
        self.assertEqual((status, err), (0, ""))
        lines = out.splitlines()
        self.assertEqual(lines[:2], ["Training neural network against 20 random games...",
                                     "Games: 2" + lines[1][len("Games: 2"):]])   # one line
        progress = [l for l in lines if l.startswith("Games: ")]
        self.assertEqual(len(progress), 10)   # a short run: about 10 lines
        self.assertRegex(progress[0], r"^Games: 2, Wins: \d+ \(\d+\.\d%\), Losses: \d+ "
                                      r"\(\d+\.\d%\), Ties: \d+ \(\d+\.\d%\) \[")
        i = lines.index("Training complete!")
        self.assertEqual(lines[i + 1], "Neural network saved to %s" % self.path("w.bin"))
        self.assertRegex(out, r"Every X strategy: \d+ lines, \d+ lost")
        self.assertRegex(out, r"\(20 games, \d+ a second\)")   # a plain integer rate
        self.assertIn("This net can be beaten. For a complete player: `ttt-train 200 --method "
                      "policy-iteration` (README, Quick start).", out)
        self.assertEqual(len(load(self.path("w.bin")).b_h), 100)

    def test_the_seed_of_a_run_is_printed_to_repeat_it(self):
        status, out, _ = run_main(train.main, "5", self.path("a.bin"))
        seed = out.split("Seed: ")[1].split()[0]
        self.assertEqual(status, 0)
        status, _, _ = run_main(train.main, "5", "--seed", seed, self.path("b.bin"))   # intermixed
        self.assertEqual(status, 0)
        self.assertEqual(read(self.path("a.bin")), read(self.path("b.bin")))

    def test_no_games_says_the_net_is_untrained_and_what_to_run(self):
        status, out, err = run_main(train.main, "0", self.path("zero.bin"), "--seed", "1")
        self.assertEqual((status, err), (0, ""))
        self.assertIn("\nNo games: the net is untrained (random weights).\n", out)
        self.assertTrue(out.endswith("This net can be beaten. For a complete player: `ttt-train "
                                     "200 --method policy-iteration` (README, Quick start).\n"))
        self.assertNotIn("Training complete!", out)

    def test_hidden_units_and_init(self):
        status, _, _ = run_main(train.main, "30", self.path("w.bin"), "--hidden", "25",
                                "--seed", "2")
        self.assertEqual(status, 0)
        self.assertEqual(os.path.getsize(self.path("w.bin")), file_size(25))
        # --init takes the file's size, and 0 games write the file it started from.
        status, _, _ = run_main(train.main, "0", self.path("v.bin"), "--init",
                                self.path("w.bin"))
        self.assertEqual((status, read(self.path("v.bin"))), (0, read(self.path("w.bin"))))
        status, _, err = run_main(train.main, "0", self.path("u.bin"), "--init", C_FILE,
                                  "--hidden", "25")
        self.assertEqual(status, 2)   # a command line that does not fit its file
        self.assertRegex(err.splitlines()[-1], "--hidden 25 does not match --init .*c_trained")

    def test_weights_that_overflow_are_not_saved(self):
        target = self.copy_of_c_file("w.bin")
        status, _, err = run_main(train.main, "50", target, "--seed", "1",
                                  "--learning-rate", "1e300")
        self.assertEqual(status, 1)
        self.assert_one_line(err, "not a finite float32")
        self.assertEqual(read(target), read(C_FILE))

    def test_the_curve_is_written_as_csv(self):
        status, out, _ = run_main(train.main, "20", self.path("w.bin"), "--seed", "1",
                                  "--curve", self.path("c.csv"))
        self.assertEqual(status, 0)
        with open(self.path("c.csv")) as f:
            rows = f.read().splitlines()
        self.assertTrue(rows[0].startswith("games,wins,losses,ties,exact_win"))
        self.assertEqual([r.split(",")[0] for r in rows[1:]], ["0", "1", "2", "5", "10", "20"])


class MethodsTest(TempDirTest):
    """Each method trains and ends with its exact verdict (both sides where it learns both)."""

    def test_each_method(self):
        for flags, sides in ((["--method", "q-learning"], ["O"]), (["--side", "X"], ["X"]),
                             (["--opponent", "mcts", "--playouts", "5"], ["O"]),
                             (["--opponent", "self"], ["O", "X"]),
                             (["--side", "both", "--method", "q-learning"], ["O", "X"])):
            status, out, err = run_main(train.main, "10", self.path("m.bin"), "--seed", "1",
                                        *flags)
            self.assertEqual((status, err), (0, ""), flags)
            self.assertEqual([l[len("Exact as "):][0] for l in out.splitlines()
                              if l.startswith("Exact as ")], sides, flags)

    def test_the_policy_iteration_line_per_sweep(self):
        status, out, err = run_main(train.main, "1", self.path("p.bin"), "--seed", "1",
                                    "--method", "policy-iteration")
        self.assertEqual((status, err), (0, ""))
        self.assertRegex(out, r"Sweep 1: \d+ positions not yet stable \[")
        self.assertIn("Exact as X vs random O", out)


class ConnectFourTest(TempDirTest):
    """ttt-train --game connect4: the C's rule by default, c4_nn.bin, the figures at the end."""

    def test_the_cs_rule_writes_c4_nn_bin_and_prints_the_figures(self):
        os.chdir(self.tmp)
        self.addCleanup(os.chdir, ROOT)
        status, out, err = run_main(train.main, "40", "--game", "connect4", "--seed", "1",
                                    "--hidden", "8")
        self.assertEqual((status, err), (0, ""))
        self.assertTrue(out.startswith("Training neural network for connect four against 40 "
                                       "random games..."))
        self.assertEqual(os.path.getsize("c4_nn.bin"), file_size(8, connect4))
        for player in ("random", "tactical"):
            for side in ("X (first)", "O (second)"):
                self.assertIn("Against the %s player as %s, 1000 games: " % (player, side), out)
        self.assertRegex(out, r"Keeps the perfect-play value in \d+\.\d% of 1000 positions")


if __name__ == "__main__":
    unittest.main()
