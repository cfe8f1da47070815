"""ttt-play (play.py): the C's transcript, the grid, and every kind of input."""

import io
import os
import unittest

from ttt_rl.game import O, TIE, X
from ttt_rl.weights import load
from ttt_rl.play import Quit, format_probabilities, parse_move, play_game

from .helpers import DATA, run_module
from .transcript import transcript_differences


def fixture(name):
    with open(os.path.join(DATA, name)) as f:
        return f.read()


class TranscriptTest(unittest.TestCase):
    """ttt-play prints what the C play printed, for the same file and moves."""

    def check(self, name):
        path = os.path.join(DATA, name + ".bin")
        proc = run_module("play", path, stdin=fixture(name + ".moves"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stderr, "")
        head, welcome, rest = proc.stdout.partition("Welcome")
        self.assertEqual(head, "Neural network loaded from %s\n"
                               "Ready to play! You are X. Type q to quit.\n" % path)
        expected = fixture(name + ".transcript")
        self.assertEqual(transcript_differences(welcome + rest, expected), [])
        return welcome + rest, expected

    def test_c_trained_file(self):
        actual, expected = self.check("c_trained")
        self.assertEqual(actual, expected)   # this one happens to match exactly

    def test_python_trained_file(self):
        self.check("py_trained")

    def test_comparison_notices_a_wrong_digit(self):
        expected = fixture("c_trained.transcript")
        wrong = expected.replace("Computer placed O at position", "Computer placed O at", 1)
        self.assertNotEqual(transcript_differences(wrong, expected), [])
        row = next(l for l in expected.split("\n") if l.endswith("% ") and "#" in l)
        moved = row.replace("#", "", 1)
        self.assertNotEqual(transcript_differences(expected.replace(row, moved + " "),
                                                   expected), [])


class ProbabilityGridTest(unittest.TestCase):
    """The grid marks the best cell (*) and the move played (#) as the C does."""

    def test_markers_and_trailing_spaces(self):
        probs = [0.5, 0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.025, 0.025]
        text = format_probabilities(probs, chosen=1)
        self.assertEqual(text,
                         "Neural network move probabilities:\n"
                         " 50.0%*  10.0%#  10.0% \n"
                         " 10.0%   5.0%   5.0% \n"
                         "  5.0%   2.5%   2.5% \n"
                         "Sum of all probabilities: 1.00\n\n")

    def test_both_markers_on_one_cell(self):
        text = format_probabilities([0.0] * 8 + [1.0], chosen=8)
        self.assertIn("100.0%*# \n", text)


class MoveInputTest(unittest.TestCase):
    """Any input line gets a clear answer; q quits; the C's prompts stay."""

    def test_parse_move(self):
        board = list("X...O....")
        self.assertEqual(parse_move("3", board), (3, None))
        for text, message in (("", "Please type a position"),
                              ("4 5", "one position at a time"),
                              ("abc", "'abc' is not a position"),
                              ("-1", "'-1' is not a position"),
                              ("\u0665", "is not a position"),     # an Arabic-Indic 5
                              ("9", "9 is off the board"),
                              ("9" * 5000, "off the board"),        # int() would refuse it
                              ("0", "Position 0 is already taken"),
                              ("4", "Position 4 is already taken")):
            move, error = parse_move(text, board)
            self.assertIsNone(move)
            self.assertIn(message, error)
            self.assertLess(len(error), 100)

    def play(self, moves, side=O):
        out = io.StringIO()
        nn = load(os.path.join(DATA, "c_trained.bin"))
        stdin = io.BytesIO(moves if isinstance(moves, bytes) else moves.encode())
        winner, history = play_game(nn, stdin, out, side)
        return winner, history, out.getvalue()

    def test_bad_lines_get_a_message_and_a_new_prompt(self):
        winner, history, text = self.play("\nabc\n4 5\n9\n0\n0\n1\n2\n3\n5\n6\n7\n8\n")
        self.assertIn("Invalid move! Please type a position from 0 to 8 (q quits). Try again.",
                      text)
        self.assertIn("Invalid move! 'abc' is not a position", text)
        self.assertIn("Invalid move! Position 0 is already taken. Try again.", text)
        self.assertIn(winner, (X, O, TIE))
        self.assertEqual(history[0], 0)

    def test_any_bytes_are_a_bad_move_not_a_crash(self):
        # Latin-1, UTF-16 and a UTF-8 byte-order mark before a real move.
        _, history, text = self.play(b"\xe9\xff\n" + "4\n".encode("utf-16")
                                     + b"\n\xef\xbb\xbf0\n1\n2\n3\n5\n6\n7\n8\n")
        self.assertIn("is not a position", text)
        self.assertEqual(history[0], 0)   # the BOM was dropped

    def test_an_endless_line_is_cut_and_skipped(self):
        _, history, text = self.play(b"7" * 100000 + b"\n0\n1\n2\n3\n5\n6\n7\n8\n")
        self.assertEqual(text.count("That line is too long"), 1)
        self.assertEqual(history[0], 0)

    def test_quit_and_end_of_input(self):
        with self.assertRaises(Quit):
            self.play("q\n")
        with self.assertRaises(Quit):
            self.play("4\nQUIT\n")
        with self.assertRaises(EOFError):
            self.play("0\n")

    def test_net_as_x_moves_first(self):
        _, history, text = self.play("4\n0\n1\n2\n3\n5\n6\n7\n8\n", side=X)
        self.assertTrue(text.startswith("Welcome to Tic Tac Toe! You are O, the computer is X."))
        self.assertLess(text.index("Computer placed X at position"), text.index("Your move"))
        self.assertNotEqual(history[0], 4)   # the net moved first, then 4 was ours
        self.assertEqual(history[1], 4)


if __name__ == "__main__":
    unittest.main()
