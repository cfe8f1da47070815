"""ttt-rl (ttt.py): train, say how strong the net is, then play and learn
from every game, as antirez's ttt.c."""

import os
import unittest
from unittest import mock

from ttt_rl import ttt

from .helpers import TempDirTest, ctrl_c_after, read, run_main, run_module

FULL_GAME = b"4\n0\n1\n2\n3\n5\n6\n7\n8\n"   # X's moves, skipping taken cells


class TttCommandTest(TempDirTest):
    """ttt-rl trains, gives the exact verdict before the first game, and learns."""

    def test_trains_then_says_the_verdict_then_plays(self):
        with mock.patch("sys.argv", ["ttt-rl"]):   # as the console script
            status, out, err = run_main(ttt.main, "50", "--seed", "1",
                                        stdin=FULL_GAME + b"n\n")
        self.assertEqual((status, err), (0, ""))
        self.assertLess(out.index("Training complete!"), out.index("Every X strategy:"))
        self.assertLess(out.index("Every X strategy:"), out.index("Welcome to Tic Tac Toe!"))
        # 50 games make a beatable net: said in words, with what to run instead.
        self.assertRegex(out, r"\nThis net can be beaten as O: it loses \d+ lines against "
                              r"some X strategy .*\nFor an unbeatable net, try: ttt-rl "
                              r"200000 --method=q-learning\nYou are X")
        self.assertIn("The network learned from this game.", out)
        self.assertTrue(out.endswith(
            "Learned from 50 training games and 1 of yours.\n"
            "Not kept: run again with --save FILE to keep what it learned.\n"), out[-200:])
        self.assertEqual(os.listdir(self.tmp), [])

    def test_the_next_step_keeps_the_users_flags(self):
        # Issue 27, class 13: the side, the hidden units and the rewards stay.
        with mock.patch("sys.argv", ["ttt-rl"]):
            status, out, _ = run_main(ttt.main, "50", "--seed", "1", "--side", "X",
                                      "--hidden", "9", "--reward-win", "2", stdin=b"q\n")
        self.assertEqual(status, 0)
        advice = next(l for l in out.splitlines() if l.startswith("For an unbeatable net"))
        words = advice[len("For an unbeatable net, try: "):].split()
        self.assertEqual(words[0], "ttt-rl")
        args = ttt.rl_parser().parse_args(words[1:])
        self.assertEqual((args.games, args.method, args.side, args.hidden, args.reward_win),
                         (200000, "q-learning", "X", 9, 2.0))

    def test_save_keeps_what_it_learned_from_play(self):
        target = self.path("me.bin")
        run_main(ttt.main, "50", "--seed", "1", "--save", target, stdin=b"q\n")
        without_play = read(target)
        status, out, _ = run_main(ttt.main, "50", "--seed", "1", "--save", target,
                                  stdin=FULL_GAME + b"n\n")
        self.assertEqual(status, 0)
        self.assertIn("Neural network saved to %s" % target, out)
        self.assertNotEqual(read(target), without_play)   # learned from the game

    def test_first_ctrl_c_saves_without_playing(self):
        target = self.path("me.bin")
        with ctrl_c_after(20, ttt):
            status, out, _ = run_main(ttt.main, "1000", "--seed", "1", "--save", target,
                                      stdin=FULL_GAME)
        self.assertEqual(status, 130)
        self.assertIn("Stopped by Ctrl-C after 20 of 1000 games.", out)
        self.assertNotIn("Welcome", out)
        # The file holds exactly the first 20 games.
        run_main(ttt.main, "20", "--seed", "1", "--save", self.path("twenty.bin"), stdin=b"q\n")
        self.assertEqual(read(target), read(self.path("twenty.bin")))

    def test_python_dash_m(self):
        proc = run_module("__main__", "30", "--seed", "2", stdin="q\n")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("You are X. Type q to quit.", proc.stdout)


if __name__ == "__main__":
    unittest.main()
