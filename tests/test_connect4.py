"""Connect four's rules and encoding (connect4.py): every way to win, gravity, a full column,
a draw, the 84 inputs from the mover's side, the tactical player."""

import random
import unittest

from ttt_rl import connect4
from ttt_rl.connect4 import (COLUMNS, EMPTY, LINES, O, ROWS, TIE, X, board_to_inputs,
                             check_game_over, display_board, get_random_move,
                             get_tactical_move, init_game, is_position, is_winning_move,
                             landing_cell, legal_moves, mirror, play_move)

from .helpers import assert_every_line_wins


def board_after(moves):
    """The board after `moves` (a string of columns), X first."""
    board = init_game()
    for ply, column in enumerate(moves):
        play_move(board, int(column), X if ply % 2 == 0 else O)
    return board


class RulesTest(unittest.TestCase):

    def test_there_are_69_lines_of_four_in_four_directions(self):
        across = [line for line in LINES if line[1] - line[0] == 1]
        down = [line for line in LINES if line[1] - line[0] == COLUMNS]
        diagonals = [line for line in LINES if line[1] - line[0] in (COLUMNS - 1, COLUMNS + 1)]
        self.assertEqual((len(across), len(down), len(diagonals), len(LINES)), (24, 21, 24, 69))

    def test_every_line_wins_for_both_players_and_three_of_four_does_not(self):
        assert_every_line_wins(self, connect4)
        for symbol in (X, O):
            for line in LINES:
                board = init_game()
                for cell in line:
                    board[cell] = symbol
                board[line[1]] = connect4.opponent(symbol)
                self.assertIsNone(check_game_over(board), line)
                self.assertFalse(is_winning_move(board, line[0]), line)

    def test_pieces_fall_to_the_lowest_empty_cell(self):
        board = board_after("33")
        bottom = COLUMNS * (ROWS - 1)
        self.assertEqual((board[bottom + 3], board[bottom - COLUMNS + 3]), (X, O))
        self.assertEqual(board.count(EMPTY), 40)
        self.assertEqual(landing_cell(board, 3), bottom - 2 * COLUMNS + 3)
        self.assertEqual(landing_cell(board, 0), bottom)

    def test_a_full_column_is_not_a_legal_move(self):
        board = board_after("000000")
        self.assertEqual(legal_moves(board), [1, 2, 3, 4, 5, 6])
        self.assertEqual(board[0], O)   # the top cell of column 0: taken
        rng = random.Random(1)
        self.assertTrue(all(get_random_move(board, rng) != 0 for _ in range(200)))

    def test_a_full_board_without_four_is_a_draw(self):
        # Columns filled in pairs 0-1, 2-3, 4-5, then 6, with a shift that breaks every line.
        moves = "010101" "101010" "232323" "323232" "454545" "545454" "666666"
        board = board_after(moves)
        self.assertNotIn(EMPTY, board)
        self.assertEqual(check_game_over(board), TIE)
        self.assertEqual(legal_moves(board), [])

    def test_play_move_says_when_the_mover_wins(self):
        board = board_after("001122")   # X on 0, 1, 2 of the bottom row; O above
        self.assertTrue(play_move(board, 3, X))
        self.assertEqual(check_game_over(board), X)
        board = board_after("010101")   # three X in column 0, three O in column 1
        self.assertFalse(play_move(board, 2, X))
        self.assertTrue(play_move(board, 1, O))   # O's fourth, upwards in column 1

    def test_a_game_in_progress_is_not_over(self):
        self.assertIsNone(check_game_over(board_after("3344")))

    def test_is_position_accepts_a_game_in_progress_and_nothing_else(self):
        for moves in ("", "3", "3344", "010101"):   # as a list and as a string
            self.assertTrue(is_position(board_after(moves)), moves)
            self.assertTrue(is_position("".join(board_after(moves))), moves)
        floating = board_after("3")
        floating[28 + 2] = O   # above an empty cell
        too_many = board_after("33")
        too_many[33] = too_many[34] = X   # three X, one O
        for board in (floating, too_many, board_after("0011223"),   # X has four
                      board_after("010101" "101010" "232323" "323232" "454545" "545454"
                              "666666"),   # full
                      init_game()[:-1], init_game() + [EMPTY], init_game()[:-1] + ["Z"]):
            self.assertFalse(is_position(board), board)
            self.assertFalse(is_position("".join(board)), board)


class EncodingTest(unittest.TestCase):

    def test_inputs_are_two_per_cell_from_the_side_of_the_mover(self):
        board = board_after("3")   # X at the bottom of column 3; O to move
        cell = COLUMNS * (ROWS - 1) + 3
        inputs = board_to_inputs(board)
        self.assertEqual(len(inputs), 84)
        self.assertEqual([i for i, x in enumerate(inputs) if x], [2 * cell + 1])   # the other's
        board = board_after("34")   # X to move: its piece is (1, 0), O's is (0, 1)
        inputs = board_to_inputs(board)
        self.assertEqual([i for i, x in enumerate(inputs) if x], [2 * cell, 2 * (cell + 1) + 1])

    def test_mirror_reflects_columns(self):
        self.assertEqual(mirror(board_after("0")), board_after("6"))
        self.assertEqual(mirror(mirror(board_after("0126"))), board_after("0126"))

    def test_display_board_prints_six_rows_and_the_column_numbers(self):
        text = display_board(board_after("3"))
        self.assertEqual(text.splitlines(), ["......."] * 5 + ["...X...", "0123456", ""])


class TacticalPlayerTest(unittest.TestCase):

    def test_it_wins_at_once_when_it_can(self):
        board = board_after("001122")   # X to move, three on the bottom row
        self.assertEqual(get_tactical_move(board, random.Random(1)), 3)

    def test_it_blocks_the_other_players_win(self):
        board = board_after("0011226")   # O to move; X threatens column 3
        self.assertEqual(get_tactical_move(board, random.Random(1)), 3)

    def test_otherwise_it_plays_a_random_open_column(self):
        moves = {get_tactical_move(init_game(), random.Random(seed)) for seed in range(50)}
        self.assertEqual(moves, set(range(COLUMNS)))


if __name__ == "__main__":
    unittest.main()
