"""The ttt-eval command (lab/ttt_eval.py): replayable losses, the documented
JSON, the side, and one bad file among good ones."""

import json
import os
import unittest

from ttt_rl.game import O
from ttt_rl.lab import ttt_eval
from ttt_rl.lab.text import JSON_KEYS

from ..helpers import C_FILE, TempDirTest, run_main


class EvalCommandTest(TempDirTest):
    """ttt-eval's output: replayable losses, documented JSON keys, the side."""

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


    def test_json_has_exactly_the_documented_keys(self):
        path = C_FILE
        status, out, _ = run_main(ttt_eval.main, path, path, "--json")
        self.assertEqual(status, 0)
        objects = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(len(objects), 2)
        for obj in objects:
            self.assertEqual(tuple(obj), JSON_KEYS)
            self.assertEqual(obj["file"], path)
            self.assertAlmostEqual(obj["win"] + obj["draw"] + obj["loss"], 1.0)
            self.assertIsInstance(obj["lines"], int)
            self.assertIs(obj["unbeatable"], obj["lines_lost"] == 0)
            self.assertEqual(obj["side"], O)

    def test_side_x_is_named_with_its_limit(self):
        status, out, err = run_main(ttt_eval.main, C_FILE, "--side", "x")
        self.assertEqual(status, 0)
        # The file was trained as O: ttt-eval says so, and still answers.
        self.assert_one_line(err, "c_trained.bin: warning: this net plays O much better .*"
                                  "--side O$")
        self.assertIn("Exact as X vs random O: ", out)
        self.assertIn("Every O strategy: ", out)
        self.assertIn("Limit: the C's reward (win 1, tie 0.3, loss -2) is best served by an "
                      "unbeatable X that wins 99.48% against a random O.", out)

    def test_a_bad_file_does_not_stop_the_others(self):
        status, out, err = run_main(ttt_eval.main, "/nonexistent.bin", C_FILE)
        self.assertEqual(status, 1)
        self.assert_one_line(err, "cannot read /nonexistent.bin")
        self.assertIn(C_FILE, out)

    def test_json_file_names_that_are_not_utf8(self):
        name = os.fsdecode(os.path.join(os.fsencode(self.tmp), b"\xff.bin"))
        self.copy_of_c_file(os.path.basename(name))
        status, out, _ = run_main(ttt_eval.main, name, "--json")
        self.assertEqual(status, 0)
        self.assertTrue(json.loads(out)["file"].endswith("\\xff.bin"))
        out.encode("utf-8")   # no lone surrogate


    def test_check_fails_for_a_beatable_net_and_no_limit_without_a_file(self):
        self.assertEqual(run_main(ttt_eval.main, "--check", C_FILE)[0], 1)
        self.assertEqual(run_main(ttt_eval.main, C_FILE)[0], 0)
        status, out, _ = run_main(ttt_eval.main, "/nonexistent.bin")
        self.assertEqual((status, out), (1, ""))


if __name__ == "__main__":
    unittest.main()
