"""The lab's command (lab/ttt_eval.py): ttt-eval's replayable losses, its
JSON, the side, exit statuses, one bad file among good ones."""

import json
import os
import unittest

from ttt_rl.game import O
from ttt_rl.lab import ttt_eval

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
        self.assertIn("Limit: an O that never loses wins at most 91.64% against a random X.",
                      out)

    def test_shown_losses_replay_as_wins_in_ttt_play(self):
        from ttt_rl.play import main as play_main
        status, out, _ = run_main(ttt_eval.main, C_FILE, "--show-losses")
        self.assertEqual(status, 0)
        lost = [line.split("lost: ")[1] for line in out.splitlines()
                if line.startswith("  lost: ")]
        self.assertIn("14 lost: beatable", out)
        self.assertEqual(len(lost), 14)
        for line in (lost[0], lost[-1]):
            x_moves = [move.split()[1] for move in line.split(", ") if move.startswith("X")]
            _, played, _ = run_main(play_main, C_FILE,
                                    stdin=("\n".join(x_moves) + "\nn\n").encode())
            self.assertIn("You win!", played, line)
            self.assertNotIn("Invalid move", played, line)

    def test_both_sides(self):
        status, out, err = run_main(ttt_eval.main, C_FILE, "--side", "both")
        self.assertEqual((status, err), (0, ""))   # no warning: it plays both sides
        self.assertIn("  Exact as O vs random X: ", out)
        self.assertIn("  Exact as X vs random O: ", out)
        self.assertIn("  Under any play: keeps the minimax value in 3242 of 4520 positions "
                      "(71.7%)\n", out)
        self.assertEqual([line.split(" at most ")[1] for line in out.splitlines()
                          if line.startswith("Limit: ")],
                         ["91.64% against a random X.", "99.48% against a random O."])
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

    def test_side_x_is_named_with_its_limit(self):
        status, out, err = run_main(ttt_eval.main, C_FILE, "--side", "x")
        self.assertEqual(status, 0)
        self.assertEqual(err, "")
        self.assertIn("Exact as X vs random O: ", out)
        self.assertIn("Every O strategy: ", out)
        self.assertIn("Limit: an X that never loses wins at most 99.48% against a random O.",
                      out)

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
        self.assertEqual(out.count("Limit: "), 1)
        status, out, _ = run_main(ttt_eval.main, "/nonexistent.bin")
        self.assertEqual((status, out), (2, ""))   # no limit without a net


if __name__ == "__main__":
    unittest.main()
