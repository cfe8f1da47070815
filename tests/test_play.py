"""ttt-play (play.py): the C's transcript, a game on either side, bad moves, and a --learn
session whose games are saved however it ends."""

import contextlib
import functools
import io
import os
import random
import signal
import subprocess
import unittest
from unittest import mock

from ttt_rl import connect4, play
from ttt_rl.expert_iteration import policy_and_value, search_move
from ttt_rl.nn import init_neural_network
from ttt_rl.game import O, X
from ttt_rl.play import LEGEND, play_game
from ttt_rl.weights import load, to_bytes

from .helpers import C_FILE, DATA, TempDirTest, read, run_main
from .transcript import transcript_differences

# X moves for one game against c_trained.bin (the first game of its fixture).
with open(os.path.join(DATA, "c_trained.moves")) as _f:
    ONE_GAME = _f.read().split("y\n")[0]


def fixture(name):
    with open(os.path.join(DATA, name)) as f:
        return f.read()


class TranscriptTest(unittest.TestCase):
    """ttt-play prints what the C play printed, for the same file and moves."""

    def check(self, name):
        path = os.path.join(DATA, name + ".bin")
        status, out, err = run_main(play.main, path, stdin=fixture(name + ".moves").encode())
        self.assertEqual((status, err), (0, ""))
        head, welcome, rest = out.partition("Welcome")
        rest, score, _ = rest.partition("\nScore: ")   # the tally: not in the C
        self.assertTrue(score)
        self.assertEqual(head, "Neural network loaded from %s\n"
                               "Ready to play! Type q to quit.\n%s\n"
                               % (path, LEGEND % ("cell", "taken")))
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


class PlayGameTest(unittest.TestCase):
    """One game: q quits, the input may end, bad moves re-prompt, and the net may play X."""

    def play(self, moves, side=O):
        out = io.StringIO()
        with mock.patch("sys.stdin", io.StringIO(moves)), contextlib.redirect_stdout(out):
            winner, history = play_game(load(C_FILE), side)
        return winner, history, out.getvalue()

    def test_quit_and_end_of_input(self):
        for moves in ("q\n", "4\nQUIT\n", "0\n"):
            with self.assertRaises(EOFError):
                self.play(moves)

    def test_a_bad_move_asks_again(self):
        winner, history, text = self.play("x\n44\n9\n\n\xff\n2\n0\n6\n1\n3\n5\n7\n8\n")
        self.assertEqual(text.count("Invalid move! Type a position from 0 to 8"), 5)
        self.assertEqual(history[0], 2)
        self.assertIn("Position 0 is already taken.", text)   # the net took 0 after 2

    def test_net_as_x_moves_first(self):
        winner, history, text = self.play("4\n0\n1\n2\n3\n5\n6\n7\n8\n", side=X)
        self.assertTrue(text.startswith("Welcome to Tic Tac Toe! You are O, the computer is X."))
        self.assertLess(text.index("Computer placed X at position"), text.index("Your move"))
        self.assertEqual(history[1], 4)   # the net moved first, then 4 was ours
        self.assertTrue(text.endswith("Computer wins!\n" if winner == X else
                                      "You win!\n" if winner == O else "It's a tie!\n"))


class ConnectFourTest(TempDirTest):
    """ttt-play on a connect-four file: the game known from its size, a column a move."""

    def test_a_whole_game_with_the_grid_of_seven_columns(self):
        net = init_neural_network(random.Random(1), 10, connect4)
        with open(self.path("c4.bin"), "wb") as f:
            f.write(to_bytes(net))
        # The person drops in columns 0, 1, 2, ... in turn, until the game ends.
        moves = "".join("%d\n" % (c % 7) for c in range(42))
        status, out, err = run_main(play.main, self.path("c4.bin"), "--side", "O",
                                    stdin=(moves + "n\n").encode())
        self.assertEqual((status, err), (0, ""))
        self.assertIn("Welcome to Connect Four! You are X, the computer is O.", out)
        self.assertIn("Enter columns as numbers from 0 to 6 (see picture).", out)
        self.assertIn(".......\n" * 6 + "0123456\n", out)   # the empty board
        grids = [line for line in out.splitlines() if line.endswith("% ")]
        self.assertTrue(grids and all(line.count("%") == 7 for line in grids), grids)
        self.assertTrue(all(line.count("#") == 1 for line in grids))
        self.assertRegex(out, r"Computer placed O at column [0-6]\n")
        self.assertRegex(out, r"(You win!|Computer wins!|It's a tie!)\n")

    def test_search_plays_the_searchs_column_and_shows_both_grids(self):
        net = init_neural_network(random.Random(1), 10, connect4, value_head=True)
        with open(self.path("v.bin"), "wb") as f:
            f.write(to_bytes(net))
        status, out, err = run_main(play.main, self.path("v.bin"), "--side", "X", "--search",
                                    "30", stdin=b"q\n")
        self.assertEqual((status, err), (0, ""))
        grids = [line for line in out.splitlines() if line.endswith("% ")]
        self.assertEqual([line.count("#") for line in grids], [0, 1])   # # on the search's
        self.assertRegex(out, r"The net's value of this position for X: [+-]\d\.\d\d \(-1 a "
                              r"loss, \+1 a win\)\nThe search's visit shares, 30 simulations:")
        column = search_move(functools.partial(policy_and_value, net), connect4.init_game(),
                             30, random.Random(0))[0]
        self.assertIn("Computer placed X at column %d\n" % column, out)
        status, out, err = run_main(play.main, C_FILE, "--search", "30", stdin=b"q\n")
        self.assertEqual((status, out), (2, ""))
        self.assertIn("ttt-play: error: --search is for connect four: ", err)

    def test_learn_is_for_tic_tac_toe(self):
        with open(self.path("c4.bin"), "wb") as f:
            f.write(to_bytes(init_neural_network(random.Random(1), 10, connect4)))
        status, out, err = run_main(play.main, self.path("c4.bin"), "--learn")
        self.assertEqual((status, out), (1, ""))
        self.assertEqual(err, "ttt-play: error: %s is a connect-four net: --learn is for "
                              "tic-tac-toe\n" % self.path("c4.bin"))


class PlayCommandTest(TempDirTest):
    """Plain play never writes; --learn saves (with .bak) however the session ends."""

    def test_plain_play_never_writes(self):
        path = self.copy_of_c_file()
        status, out, err = run_main(play.main, path, stdin=(ONE_GAME + "n\n").encode())
        self.assertEqual((status, err), (0, ""))
        self.assertIn("Score: you 0, the net 1, ties 0.", out)
        self.assertEqual(os.listdir(self.tmp), ["net.bin"])
        self.assertEqual(read(path), read(C_FILE))

    def test_learn_saves_with_a_backup_on_no_end_of_input_and_q(self):
        learned = None
        for ending in ("n\n", "", "q\n"):
            path = self.copy_of_c_file()
            status, out, err = run_main(play.main, path, "--learn",
                                        stdin=(ONE_GAME + ending).encode())
            self.assertEqual((status, err), (0, ""), ending)
            self.assertIn("The network learned from this game.", out)
            self.assertEqual(read(path + ".bak"), read(C_FILE))
            self.assertNotEqual(read(path), read(C_FILE))
            learned = learned or read(path)
            self.assertEqual(read(path), learned)   # the same game, the same lesson

    def test_learn_with_save_keeps_the_original(self):
        path, other = self.copy_of_c_file(), self.path("other.bin")
        status, out, _ = run_main(play.main, path, "--learn", "--save", other,
                                  "--method", "q-learning", stdin=(ONE_GAME + "n\n").encode())
        self.assertEqual(status, 0)
        self.assertIn("Learning by the q-learning rule", out)
        self.assertEqual(read(path), read(C_FILE))
        self.assertEqual(len(read(other)), 11236)

    def test_ctrl_c_ends_the_session_and_saves_what_was_learned(self):
        path = self.copy_of_c_file()
        proc = self.start_module("play", path, "--learn", stdin=subprocess.PIPE)
        proc.stdin.write((ONE_GAME + "y\n").encode())
        proc.stdin.flush()
        while b"Welcome" not in proc.stdout.readline():   # the first game
            pass
        while b"Welcome" not in proc.stdout.readline():   # learned; the next one waits
            pass
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 130, err)
        self.assertNotIn(b"Traceback", err)
        self.assertEqual(read(path + ".bak"), read(C_FILE))
        self.assertNotEqual(read(path), read(C_FILE))


if __name__ == "__main__":
    unittest.main()
