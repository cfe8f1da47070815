"""Monte Carlo Tree Search (mcts.py): UCT wins when it can, blocks when it
must, plays legal moves, repeats for a seed, and does not lose as O."""

import random
import unittest

from ttt_rl.game import EMPTY, O, X, check_game_over, to_move
from ttt_rl import connect4
from ttt_rl.mcts import mcts_move, mcts_opponent, puct_visits


def board_from(text):
    """'XO.|...|..X' or 'XO.......' -> list of 9 cells."""
    return list(text.replace("|", ""))


class MctsMoveTest(unittest.TestCase):
    """mcts_move(board, rng, playouts) -> a cell for whoever is to move."""

    def test_takes_an_immediate_win(self):
        # X to move can win at 2; O to move can win at 5 (rather than block 2).
        for text, win in (("XX.|OO.|...", 2), ("XX.|OO.|X..", 5)):
            for seed in range(5):
                self.assertEqual(mcts_move(board_from(text), random.Random(seed), 200), win, text)

    def test_blocks_an_immediate_loss(self):
        # O to move must block X's top row at 2; X to move must block O's at 2.
        for text, block in (("XX.|.O.|...", 2), ("OO.|X..|X..", 2)):
            for seed in range(5):
                self.assertEqual(mcts_move(board_from(text), random.Random(seed), 200), block,
                                 text)

    def test_plays_a_legal_move_for_the_player_to_move(self):
        rng = random.Random(4)
        for _ in range(30):
            board = [EMPTY] * 9
            for _ in range(rng.randrange(8)):   # a random position, game on
                if check_game_over(board) is not None:
                    break
                board[mcts_move(board, rng, 5)] = to_move(board)
            if check_game_over(board) is None:
                self.assertEqual(board[mcts_move(board, rng, 20)], EMPTY, board)

    def test_a_seed_repeats_the_move(self):
        moves = {mcts_move([EMPTY] * 9, random.Random(seed), 30) for seed in range(8)}
        self.assertGreater(len(moves), 1)   # a few playouts: the seed decides
        for seed in range(8):
            self.assertEqual(mcts_move([EMPTY] * 9, random.Random(seed), 30),
                             mcts_move([EMPTY] * 9, random.Random(seed), 30))

    def test_a_finished_game_has_no_move(self):
        with self.assertRaises(ValueError):
            mcts_move(board_from("XXX|OO.|..."), random.Random(1), 10)

    def test_the_opponent_function_is_mcts_move(self):
        board = board_from("X..|.O.|...")
        self.assertEqual(mcts_opponent(50)(board, random.Random(3)),
                         mcts_move(board, random.Random(3), 50))


class NeverLosesTest(unittest.TestCase):
    """With 1000 playouts UCT as O loses no line after X opens in a corner,
    an edge or the centre (each O move seeded by its position: a fixed
    policy). All 9 openings take 1.6 s; none is lost either."""

    def test_loses_no_line_after_each_kind_of_opening(self):
        lost = []

        def walk(board, moves):
            winner = check_game_over(board)
            if winner is not None:
                if winner == X:
                    lost.append(moves)
                return
            mover = to_move(board)
            if mover == O:
                cells = [mcts_move(board, random.Random("".join(board)), 1000)]
            else:
                cells = [c for c in range(9) if board[c] == EMPTY]
            for cell in cells:
                walk(board[:cell] + [mover] + board[cell + 1:], moves + [cell])

        for first in (0, 1, 4):
            walk([X if cell == first else EMPTY for cell in range(9)], [first])
        self.assertEqual(lost, [])


class PuctTest(unittest.TestCase):
    """PUCT (puct_visits) on connect four: the visits go where the search finds the result."""

    @staticmethod
    def board_after(moves):
        board = connect4.init_game()
        for ply, column in enumerate(moves):
            connect4.play_move(board, int(column), X if ply % 2 == 0 else O)
        return board

    def uniform(self, board):   # a uniform prior, and random games as the judge
        return [1 / 7] * 7, None

    def test_it_blocks_a_win_and_takes_one(self):
        values = []
        for moves, column in (("0011226", 3), ("001122", 3)):   # O must block; X can win
            visits, value = puct_visits(self.board_after(moves), random.Random(1), self.uniform,
                                        200, connect4)
            self.assertEqual(visits.index(max(visits)), column, (moves, visits))
            self.assertEqual(sum(visits), 200)   # a first walk expands the root
            values.append(value)
        # Its value, the mean result for the player to move: X, who can win, expects to; O,
        # who must block, expects less.
        self.assertGreater(values[1], 0.5)
        self.assertLess(values[0], values[1])

    def test_a_full_column_gets_no_visit_and_the_prior_steers_the_rest(self):
        board = self.board_after("000000")
        prior = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
        visits, _ = puct_visits(board, random.Random(2), lambda b: (prior, None), 50, connect4)
        self.assertEqual(visits[0], 0)
        self.assertEqual(visits.index(max(visits)), 6)

    def test_a_value_judges_a_new_position_in_place_of_a_random_game(self):
        # The judge says column 5's position is lost for the player who moved there (its
        # value for the player to move is +1) and every other is won: one visit is enough.
        def judge(board):
            moved_to_5 = board[connect4.landing_cell(board, 5) + 7] == X if board[40] != "." \
                else False
            return [1 / 7] * 7, 1.0 if moved_to_5 else -1.0
        visits, _ = puct_visits(connect4.init_game(), random.Random(3), judge, 100, connect4)
        self.assertEqual(visits[5], min(visits))
        self.assertEqual(sum(visits), 100)

    def test_root_noise_changes_the_prior_by_its_weight(self):
        prior = [1.0, 0, 0, 0, 0, 0, 0]
        noise = [0, 0, 0, 0, 0, 0, 1.0]
        visits, value = puct_visits(connect4.init_game(), random.Random(4),
                                    lambda b: (prior, 0.0), 40, connect4, noise)
        # Prior 0.75 on column 0 and 0.25 on column 6 (NOISE_WEIGHT): only they are visited.
        self.assertEqual([v > 0 for v in visits], [True] + [False] * 5 + [True])
        self.assertGreater(visits[0], visits[6])
        self.assertEqual(value, 0.0)   # every position judged 0: the mean is 0


if __name__ == "__main__":
    unittest.main()
