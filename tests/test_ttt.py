"""ttt-rl (ttt.py): train, say how strong the net is, then play and learn from every game,
as antirez's ttt.c."""

import os
import unittest

from ttt_rl import ttt

from .helpers import TempDirTest, ctrl_c_after, read, run_main, run_module

FULL_GAME = b"4\n0\n1\n2\n3\n5\n6\n7\n8\n"   # X's moves, skipping taken cells


class TttCommandTest(TempDirTest):

    def test_trains_then_says_the_verdict_then_plays(self):
        status, out, err = run_main(ttt.main, "50", "--seed", "1", stdin=FULL_GAME + b"n\n")
        self.assertEqual((status, err), (0, ""))
        self.assertLess(out.index("Training complete!"), out.index("Every X strategy:"))
        self.assertLess(out.index("Every X strategy:"), out.index("Welcome to Tic Tac Toe!"))
        self.assertIn("The network learned from this game.", out)
        self.assertRegex(out, r"Score: you \d, the net \d, ties \d\.\nThe net is not kept: "
                              r"--save FILE keeps it\.\n$")
        self.assertEqual(os.listdir(self.tmp), [])   # no --save: no file

    def test_save_keeps_what_it_learned_from_play(self):
        target = self.path("me.bin")
        run_main(ttt.main, "50", "--seed", "1", "--save", target, stdin=b"q\n")
        without_play = read(target)
        status, out, _ = run_main(ttt.main, "50", "--seed", "1", "--save", target,
                                  stdin=FULL_GAME + b"n\n")
        self.assertEqual(status, 0)
        self.assertIn("Neural network saved to %s (the old file is now %s.bak)" % (target, target),
                      out)
        self.assertNotEqual(read(target), without_play)   # learned from the game
        self.assertEqual(read(target + ".bak"), without_play)

    def test_first_ctrl_c_saves_without_playing(self):
        target = self.path("me.bin")
        with ctrl_c_after(20):
            status, out, _ = run_main(ttt.main, "1000", "--seed", "1", "--save", target,
                                      stdin=FULL_GAME)
        self.assertEqual(status, 130)
        self.assertIn("Stopped by Ctrl-C after 20 games.", out)
        self.assertNotIn("Welcome", out)
        # The file holds exactly the first 20 games.
        run_main(ttt.main, "20", "--seed", "1", "--save", self.path("twenty.bin"), stdin=b"q\n")
        self.assertEqual(read(target), read(self.path("twenty.bin")))

    def test_python_dash_m(self):
        proc = run_module("__main__", "30", "--seed", "2", stdin="q\n")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("\nType q to quit.", proc.stdout)


if __name__ == "__main__":
    unittest.main()
