import random
import unittest

from ttt_rl import game
from ttt_rl.game import (EMPTY, LINES, O, TIE, X, board_to_inputs,
                         check_game_over, display_board, get_random_move,
                         init_game, input_index, is_winning_move, opponent, to_move)

from .helpers import assert_every_line_wins


def board_from(text):
    """'XO.|...|..X' or 'XO.......' -> list of 9 cells."""
    return list(text.replace("|", ""))


class CheckGameOverTest(unittest.TestCase):
    """A line of three wins; a full board without one is a tie."""

    def test_opponent(self):
        self.assertEqual((opponent(X), opponent(O)), (O, X))

    def test_every_line_wins_for_both_players(self):
        assert_every_line_wins(self, game)

    def test_two_in_a_row_is_not_a_win(self):
        for line in LINES:
            board = init_game()
            board[line[0]] = board[line[1]] = X
            board[line[2]] = O
            self.assertIsNone(check_game_over(board))
            self.assertFalse(is_winning_move(board, line[1]))

    def test_full_board_without_line_is_a_tie(self):
        for text in ("XOX|XOO|OXX", "XXO|OOX|XOX", "OXO|XXO|XOX"):
            self.assertEqual(check_game_over(board_from(text)), TIE, text)

    def test_full_board_with_line_is_a_win_not_a_tie(self):
        self.assertEqual(check_game_over(board_from("XXX|OOX|XOO")), X)

    def test_games_in_progress(self):
        for text in ("...|...|...", "X..|...|...", "XO.|.X.|..O", "XOX|OXO|O.."):
            self.assertIsNone(check_game_over(board_from(text)), text)

    def test_works_on_position_strings(self):
        self.assertEqual(check_game_over("OOO.XX.X."), O)

    def test_x_moves_when_both_have_as_many_pieces(self):
        # What lets one net play both sides: the inputs tell whose turn it is.
        for text, mover in ((".........", X), ("X........", O), ("X...O....", X),
                            ("XO.|X.O|..X", O), ("XOX|OXO|OX.", X)):
            self.assertEqual(to_move(board_from(text)), mover, text)


class EncodingTest(unittest.TestCase):
    """Each piece turns on exactly one of the 18 inputs: 2*cell for X, +1 for O."""

    def test_two_inputs_per_cell(self):
        inputs = board_to_inputs(board_from("X.O|...|..X"))
        self.assertEqual(len(inputs), 18)
        self.assertEqual(inputs[0:2], [1.0, 0.0])   # X
        self.assertEqual(inputs[2:4], [0.0, 0.0])   # empty
        self.assertEqual(inputs[4:6], [0.0, 1.0])   # O
        self.assertEqual(inputs[16:18], [1.0, 0.0])
        self.assertEqual(sum(inputs), 3.0)

    def test_empty_board_is_all_zero(self):
        self.assertEqual(board_to_inputs(init_game()), [0.0] * 18)

    def test_input_index_matches_encoding(self):
        for cell in range(9):
            for symbol in (X, O):
                board = init_game()
                board[cell] = symbol
                self.assertEqual(board_to_inputs(board).index(1.0),
                                 input_index(cell, symbol))


class DisplayTest(unittest.TestCase):
    """The board prints as the C prints it, with the position numbers."""

    def test_rows_with_position_numbers(self):
        self.assertEqual(display_board(board_from("X.O|.X.|..O")),
                         "X.O 012\n.X. 345\n..O 678\n\n")


class RandomMoveTest(unittest.TestCase):
    """The random player picks uniformly among empty cells, one random number a move."""

    def test_only_empty_cells_uniformly(self):
        board = board_from("XO.|X.O|..X")
        rng = random.Random(3)
        counts = {}
        for _ in range(8000):
            move = get_random_move(board, rng)
            counts[move] = counts.get(move, 0) + 1
        self.assertEqual(sorted(counts), [2, 4, 6, 7])
        for n in counts.values():   # expected 2000 each, sd about 39
            self.assertLess(abs(n - 2000), 200)

    def test_full_board_raises(self):
        with self.assertRaises(IndexError):
            get_random_move(board_from("XOX|XOO|OXX"), random.Random(1))

    def test_one_random_number_per_move(self):
        # The docstring's promise: one random() call per move, whatever the
        # board, so a seeded game depends only on the seed and the moves.
        for text in (".........", "XO.|X.O|..X", "XOX|OXO|OX."):
            rng, twin = random.Random(8), random.Random(8)
            get_random_move(board_from(text), rng)
            twin.random()
            self.assertEqual(rng.getstate(), twin.getstate(), text)
        self.assertEqual(get_random_move([EMPTY] + [X] * 8, random.Random(5)), 0)


if __name__ == "__main__":
    unittest.main()
