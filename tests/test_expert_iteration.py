"""Expert iteration (expert_iteration.py): self-play by the search, targets that are its
visit distribution, learning that moves the net towards them, and a seed that repeats."""

import functools
import random
import unittest

from ttt_rl import connect4
from ttt_rl.connect4 import O, TIE, X
from ttt_rl.expert_iteration import (learn_positions, policy_and_value, search_move,
                                     self_play_game, train_expert_iteration)
from ttt_rl.nn import init_neural_network
from ttt_rl.weights import to_bytes


def new_net(seed=1, hidden=20):
    return init_neural_network(random.Random(seed), hidden, connect4, value_head=True)


class SelfPlayTest(unittest.TestCase):

    def test_a_game_is_legal_and_its_targets_are_distributions_over_open_columns(self):
        positions, winner = self_play_game(new_net(), 7, simulations=20)
        boards = [board for board, _, _ in positions]
        searched = []
        for board, target, value_target in positions:
            self.assertAlmostEqual(sum(target), 1.0)
            full = set(range(7)) - set(connect4.legal_moves(board))
            self.assertEqual([target[c] for c in full], [0.0] * len(full))
            # (z + q) / 2: z the game's result for the player to move there, q the search's
            # value there, in [-1, 1]
            mover = connect4.to_move(board)
            z = 0.0 if winner == TIE else 1.0 if winner == mover else -1.0
            q = 2 * value_target - z
            self.assertLessEqual(abs(q), 1.0 + 1e-12)
            searched.append(q)
        self.assertGreater(len(set(searched)), len(positions) // 2)   # a search's mean, not z
        # Every position is learned, from the empty board on: each board is the one before
        # with one piece more, dropped by the rules.
        board = list(boards[0])
        self.assertEqual(board, connect4.init_game())
        for ply, after in enumerate(boards[1:]):
            cell = next(i for i in range(42) if boards[ply][i] != after[i])
            connect4.play_move(board, cell % 7, connect4.to_move(board))
            self.assertEqual(board, after)
            self.assertIsNone(connect4.check_game_over(board))
        self.assertIn(winner, (X, O, TIE))

    def test_a_column_that_wins_at_once_is_played_with_a_one_hot_target(self):
        positions, winner = next(game for game in (self_play_game(new_net(), seed, 10)
                                                   for seed in range(10)) if game[1] != TIE)
        last_board, last_target, value_target = positions[-1]
        self.assertEqual(value_target, 1.0)   # z = 1, and q = 1: taken without a search
        self.assertEqual(sorted(last_target), [0.0] * 6 + [1.0])
        self.assertEqual(connect4.winning_column(last_board, winner), last_target.index(1.0))

    def test_the_same_seed_plays_the_same_game(self):
        net = new_net()
        self.assertEqual(self_play_game(net, 5, 15), self_play_game(net, 5, 15))


class OlderNetTest(unittest.TestCase):

    def test_a_net_without_a_value_head_is_searched_with_random_games_as_the_judge(self):
        # 1.6's expert-iteration files (84-H-7): policy_and_value gives no value, and the
        # search judges each new position by one random game to the end.
        net = init_neural_network(random.Random(2), 10, connect4)
        probs, value = policy_and_value(net, connect4.init_game())
        self.assertIsNone(value)
        self.assertAlmostEqual(sum(probs), 1.0)
        evaluate = functools.partial(policy_and_value, net)
        first = search_move(evaluate, connect4.init_game(), 40, random.Random(5))
        self.assertEqual(sum(first[1]), 40)
        self.assertEqual(search_move(evaluate, connect4.init_game(), 40, random.Random(5)), first)


class LearningTest(unittest.TestCase):

    def test_learning_moves_the_policy_towards_the_target(self):
        net, board = new_net(), connect4.init_game()
        target = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]
        (before, value) = policy_and_value(net, board)
        for _ in range(20):
            learn_positions(net, [(board, target, -1.0)], random.Random(1), learning_rate=0.05)
        after, value_after = policy_and_value(net, board)
        self.assertGreater(after[3], before[3] + 0.2)
        self.assertLess(value_after, value - 0.2)   # and the value towards z = -1

    def test_the_search_takes_a_win_at_once_and_else_plays_its_most_visited_column(self):
        board = connect4.init_game()
        for column in "001122":   # X to move wins in column 3
            connect4.play_move(board, int(column), connect4.to_move(board))
        evaluate = functools.partial(policy_and_value, new_net())
        self.assertEqual(search_move(evaluate, board, 50, random.Random(1)), (3, None, 1.0))
        column, visits, value = search_move(evaluate, connect4.init_game(), 30, random.Random(1))
        self.assertEqual((sum(visits), column), (30, visits.index(max(visits))))
        # Its value is the player to move's: with a judge that says X wins every position,
        # 1 with X to move, -1 with O.
        def x_wins(board):
            return [1 / 7] * 7, 1.0 if connect4.to_move(board) == X else -1.0
        board = connect4.init_game()
        self.assertEqual(search_move(x_wins, board, 30, random.Random(1))[2], 1.0)
        connect4.play_move(board, 3, X)
        self.assertEqual(search_move(x_wins, board, 30, random.Random(1))[2], -1.0)

    def test_a_seed_gives_the_same_net_and_play_games_is_called_per_round(self):
        calls = []

        def play_games(net, seeds):
            calls.append(len(seeds))
            return [self_play_game(net, seed, 5) for seed in seeds]

        nets = []
        for play in (None, play_games):
            net = new_net()
            games = train_expert_iteration(net, 4, random.Random(9), simulations=5,
                                           play_games=play)
            nets.append(to_bytes(net))
        self.assertEqual(games, 4)
        self.assertEqual(calls, [4])
        self.assertEqual(nets[0], nets[1])

    def test_play_games_returning_none_stops_with_the_net_unchanged(self):
        net = new_net()
        before = to_bytes(net)
        games = train_expert_iteration(net, 10, random.Random(1), simulations=5,
                                       play_games=lambda net, seeds: None)
        self.assertEqual((games, to_bytes(net)), (0, before))


if __name__ == "__main__":
    unittest.main()
