"""The lab's command (lab/ttt_eval.py): ttt-eval's figures, its JSON, the side, exit statuses,
one bad file among good ones; a connect-four file's measured figures, in a list that may mix
the games."""

import functools
import json
import os
import random
import re
import unittest
from unittest import mock

from ttt_rl import connect4
from ttt_rl.game import O
from ttt_rl.lab import exact, ttt_eval
from ttt_rl.nn import init_neural_network
from ttt_rl.weights import to_bytes

# The keys README's table of ttt-eval documents, after "file".
JSON_KEYS = ("side", "win", "draw", "loss", "lines", "lines_lost", "positions",
             "optimal_positions", "unbeatable", "complete_kept", "complete_positions")

from ..helpers import C_FILE, TempDirTest, run_main


class EvalCommandTest(TempDirTest):
    """ttt-eval's output: replayable losses, documented JSON keys, the side."""

    def test_the_summary(self):
        status, out, err = run_main(ttt_eval.main, C_FILE)
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(out.splitlines()[0], C_FILE)
        self.assertIn("  Exact as O vs random X: win 80.9", out)
        self.assertNotIn("Limit: ", out)   # retired: the limit of a side is not printed

    def test_both_sides(self):
        status, out, err = run_main(ttt_eval.main, C_FILE, "--side", "both")
        self.assertEqual((status, err), (0, ""))   # no warning: it plays both sides
        self.assertIn("  Exact as O vs random X: ", out)
        self.assertIn("  Exact as X vs random O: ", out)
        self.assertIn("  Under any play: keeps the minimax value in 3242 of 4520 positions "
                      "(71.7%)\n", out)
        status, out, _ = run_main(ttt_eval.main, C_FILE, "--side", "both", "--json")
        obj = json.loads(out)
        self.assertEqual((obj["side"], obj["lines_lost"], obj["complete_positions"]),
                         ("both", 85, 4520))

    def test_json_has_exactly_the_documented_keys(self):
        path = C_FILE
        status, out, _ = run_main(ttt_eval.main, path, path, "--json")
        self.assertEqual(status, 0)
        objects = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(len(objects), 2)
        for obj in objects:
            self.assertEqual(sorted(obj), sorted(("file",) + JSON_KEYS))
            self.assertEqual(obj["file"], path)
            self.assertAlmostEqual(obj["win"] + obj["draw"] + obj["loss"], 1.0)
            self.assertIsInstance(obj["lines"], int)
            self.assertIs(obj["unbeatable"], obj["lines_lost"] == 0)
            self.assertEqual(obj["side"], O)
            self.assertLessEqual(obj["optimal_positions"], obj["positions"])
            self.assertLessEqual(obj["complete_kept"], obj["complete_positions"])

    def test_side_x_is_named(self):
        status, out, err = run_main(ttt_eval.main, C_FILE, "--side", "X")
        self.assertEqual(status, 0)
        self.assertEqual(err, "")
        self.assertIn("Exact as X vs random O: ", out)
        self.assertIn("Every O strategy: ", out)
        status, out, err = run_main(ttt_eval.main, C_FILE, "--side", "x")   # as it is written
        self.assertEqual((status, out), (2, ""))
        self.assertRegex(err.splitlines()[-1], "^ttt-eval: error: argument --side: invalid")

    def test_a_bad_file_does_not_stop_the_others(self):
        status, out, err = run_main(ttt_eval.main, "/nonexistent.bin", C_FILE)
        self.assertEqual(status, 2)   # could not check: not the same as beatable
        self.assert_one_line(err, "^ttt-eval: error: cannot read /nonexistent.bin")
        self.assertIn(C_FILE, out)

    def test_json_file_names_that_are_not_utf8(self):
        name = os.fsdecode(os.path.join(os.fsencode(self.tmp), b"\xff.bin"))
        self.copy_of_c_file(os.path.basename(name))
        status, out, _ = run_main(ttt_eval.main, name, "--json")
        self.assertEqual(status, 0)
        self.assertTrue(json.loads(out)["file"].endswith("\\xff.bin"))
        out.encode("utf-8")   # no lone surrogate

    def test_exit_status(self):
        self.assertEqual(run_main(ttt_eval.main, C_FILE)[0], 0)
        self.assertEqual(run_main(ttt_eval.main, "--check", C_FILE)[0], 1)
        # A file that cannot be read was not checked: 2, whatever the others.
        for argv in (["/nonexistent.bin"], ["--check", "/nonexistent.bin", C_FILE],
                     ["--check", C_FILE, "/nonexistent.bin"]):
            status, out, _ = run_main(ttt_eval.main, *argv)
            self.assertEqual(status, 2, argv)
        status, out, _ = run_main(ttt_eval.main, "/nonexistent.bin")
        self.assertEqual((status, out), (2, ""))


class ConnectFourTest(TempDirTest):
    """A connect-four file: its figures against the random and the tactical player, and the
    kept share by kind (20 games a side here, not ttt-eval's 1,000: fast), alone and with its
    search."""

    def setUp(self):
        super().setUp()
        self.c4_file = self.path("c4.bin")
        with open(self.c4_file, "wb") as f:
            f.write(to_bytes(init_neural_network(random.Random(1), 10, connect4, True)))
        results = exact.c4_results   # alone and with its search: 20 games a side
        patch = mock.patch.object(exact, "c4_results", lambda player, games=0:
                                  results(player, 20))
        patch.start()
        self.addCleanup(patch.stop)

    def test_the_figures_in_a_list_that_mixes_the_games(self):
        status, out, err = run_main(ttt_eval.main, self.c4_file, C_FILE)
        self.assertEqual((status, err), (0, ""))
        lines = out.splitlines()
        self.assertEqual(lines[:2], [self.c4_file, "  The net alone"])
        for line, (player, side) in zip(lines[2:6], [(p, s) for p in ("random", "tactical")
                                                     for s in ("X (first)", "O (second)")]):
            self.assertRegex(line, re.escape("  Against the %s player as %s, 20 games: "
                                             % (player, side))
                             + r"\d+\.\d% won, \d+\.\d% drawn, \d+\.\d% lost$")
        self.assertRegex(lines[6], r"^  Keeps the perfect-play value in \d+\.\d% of 1000 "
                                   r"positions; by kind: win \d+\.\d%, block \d+\.\d%, "
                                   r"quiet \d+\.\d%$")
        self.assertEqual(lines[7], C_FILE)   # then the tic-tac-toe net, as before

    def test_the_search_is_measured_beside_the_net_alone(self):
        status, out, err = run_main(ttt_eval.main, self.c4_file, "--search", "2", "--json")
        self.assertEqual((status, err), (0, ""))
        c4 = json.loads(out)
        self.assertEqual(c4["with_search"]["search"], 2)
        self.assertEqual(sum(c4["with_search"]["tactical"]["X"]), 20)
        status, out, err = run_main(ttt_eval.main, C_FILE, "--search", "2")
        self.assertEqual((status, out), (2, ""))
        self.assert_one_line(err, "^ttt-eval: error: .* is a tic-tac-toe net: --search is for "
                                  "connect four$")

    def test_json(self):
        status, out, err = run_main(ttt_eval.main, self.c4_file, "--json", C_FILE)
        self.assertEqual((status, err), (0, ""))
        c4, ttt = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(list(c4), ["file", "game", "random", "tactical", "kept"])
        self.assertEqual((c4["file"], c4["game"]), (self.c4_file, "connect4"))
        for player in ("random", "tactical"):
            self.assertEqual(sorted(c4[player]), ["O", "X"])
            for side in ("X", "O"):
                self.assertEqual(sum(c4[player][side]), 20)
        self.assertTrue(0 <= c4["kept"]["all"] <= 1)
        self.assertEqual(ttt["file"], C_FILE)
        self.assertNotIn("game", ttt)

    def test_check_is_tic_tac_toes(self):
        for argv in (["--check", self.c4_file], ["--check", self.c4_file, C_FILE]):
            status, out, err = run_main(ttt_eval.main, *argv)
            self.assertEqual(status, 2, argv)
            self.assert_one_line(err, "^ttt-eval: error: .*c4.bin is a connect-four net: "
                                      "--check is for tic-tac-toe$")
            self.assertNotIn(self.c4_file, out)

    def test_show_losses_is_retired(self):
        status, _, err = run_main(ttt_eval.main, "--show-losses", self.c4_file)
        self.assertEqual(status, 2)
        self.assertRegex(err.splitlines()[-1], "^ttt-eval: error: unrecognized arguments: "
                                               "--show-losses")


if __name__ == "__main__":
    unittest.main()
