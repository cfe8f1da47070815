"""Q-learning (qlearn.py): the exploration schedule, the one-step targets,
that only the chosen action's value moves, and that it learns."""

import random
import unittest

from ttt_rl.game import O, TIE, X, board_to_inputs, init_game
from ttt_rl.lab.exact import evaluate_network
from ttt_rl.nn import forward_pass, init_neural_network
from ttt_rl.qlearn import (DEFAULT_Q_SETTINGS, best_value, epsilon_at, learning_rate_at,
                           play_q_game, q_learn_from_game, train_q_learning)
from ttt_rl.weights import parameters

# X0 O4 X1 O2 X3 O6: O wins on the 2-4-6 diagonal with its third move.
O_WINS = [0, 4, 1, 2, 3, 6]
# X0 O1 X4 O2 X8: X wins on the 0-4-8 diagonal; O moved twice.
X_WINS = [0, 1, 4, 2, 8]


def q_value(net, board, cell):
    """Q(board, cell): the net's logit for `cell`."""
    forward_pass(net, board_to_inputs(board))
    return net.raw_logits[cell]


def board_after(moves):
    board = init_game()
    for i, cell in enumerate(moves):
        board[cell] = X if i % 2 == 0 else O
    return board


class ScheduleTest(unittest.TestCase):

    def test_epsilon_falls_linearly_to_zero_after_80_percent(self):
        self.assertEqual(epsilon_at(0, 1000), 0.3)
        self.assertAlmostEqual(epsilon_at(400, 1000), 0.15)
        self.assertEqual(epsilon_at(800, 1000), 0.0)
        self.assertEqual(epsilon_at(999, 1000), 0.0)
        self.assertEqual(epsilon_at(0, 0), 0.0)

    def test_the_learning_rate_falls_to_a_tenth_over_the_greedy_games(self):
        self.assertEqual(learning_rate_at(0, 1000), 0.01)
        self.assertEqual(learning_rate_at(800, 1000), 0.01)   # epsilon is 0 from here
        self.assertAlmostEqual(learning_rate_at(900, 1000), 0.0055)
        self.assertAlmostEqual(learning_rate_at(1000, 1000), 0.001)
        self.assertEqual(learning_rate_at(0, 1, 0.5), 0.5)


class QLearnFromGameTest(unittest.TestCase):
    """Each step moves Q(s, a) towards its target, and nothing else at the output."""

    def test_only_the_chosen_actions_move_at_the_output(self):
        net = init_neural_network(random.Random(1))
        before = list(net.b_o)
        q_learn_from_game(net, O_WINS, O)
        moved = [k for k in range(9) if net.b_o[k] != before[k]]
        self.assertEqual(moved, [2, 4, 6])   # O's moves; every other logit's error is 0

    def test_targets_reward_at_the_end_and_the_next_value_before(self):
        net = init_neural_network(random.Random(2))
        for _ in range(400):   # the same lost game, again and again
            q_learn_from_game(net, X_WINS, X)
        # The last step's target is the loss reward...
        self.assertAlmostEqual(q_value(net, board_after(X_WINS[:3]), 2), -2.0, places=2)
        # ...and the first step's is the best value of the next position
        # (gamma 1: no discount).
        first = q_value(net, board_after(X_WINS[:1]), 1)
        self.assertAlmostEqual(first, best_value(net, board_after(X_WINS[:3])), places=2)

    def test_a_tie_and_a_win_give_their_rewards_as_x(self):
        net = init_neural_network(random.Random(3))
        tie = [4, 0, 8, 2, 1, 7, 6, 3, 5]   # X moves last and fills the board
        for _ in range(300):
            q_learn_from_game(net, tie, TIE, X)
        self.assertAlmostEqual(q_value(net, board_after(tie[:8]), 5), 0.3, places=2)


class TrainQLearningTest(unittest.TestCase):
    """A seeded run repeats exactly, explores, and learns."""

    def test_repeatable(self):
        nets = []
        for _ in range(2):
            rng = random.Random(7)
            net = init_neural_network(rng)
            train_q_learning(net, 30, rng)
            nets.append(parameters(net))
        self.assertEqual(nets[0], nets[1])

    def test_epsilon_is_the_share_of_random_moves(self):
        frozen = DEFAULT_Q_SETTINGS._replace(learning_rate=1e-300)   # learns nothing

        def replies(epsilon):
            """O's answers to each first X move, over 40 games."""
            net, seen = init_neural_network(random.Random(5)), {}
            for seed in range(40):
                _, moves = play_q_game(net, random.Random(seed), epsilon, settings=frozen)
                seen.setdefault(moves[0], set()).add(moves[1])
            return seen
        # Greedy: one answer to each opening. Exploring: several.
        self.assertTrue(all(len(a) == 1 for a in replies(0.0).values()))
        self.assertTrue(any(len(a) > 1 for a in replies(1.0).values()))

    def test_learns_against_a_random_player(self):
        rng = random.Random(1)
        net = init_neural_network(rng)
        before = evaluate_network(net)
        train_q_learning(net, 600, rng)
        after = evaluate_network(net)
        self.assertGreater(after["win"] - after["loss"], before["win"] - before["loss"] + 0.2)


if __name__ == "__main__":
    unittest.main()
