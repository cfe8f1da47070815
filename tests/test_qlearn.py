"""Q-learning (qlearn.py): the exploration schedule, the one-step targets,
that only the chosen action's value moves, the report after every game, that a
seed repeats and keeps its bytes, and that it learns."""

import hashlib
import math
import random
import unittest
from unittest import mock

from ttt_rl import qlearn, train
from ttt_rl.game import BOTH, O, TIE, X, board_to_inputs, get_random_move, init_game
from ttt_rl.lab.exact import evaluate_network
from ttt_rl.learn import play_against_random
from ttt_rl.nn import NeuralNetwork, forward_pass, init_neural_network, softmax
from ttt_rl.qlearn import (DEFAULT_Q_SETTINGS, SOFTMAX, TD_ERROR_BOUND, QSettings, best_value,
                           epsilon_at, exploration_at, learning_rate_at, play_q_game,
                           q_learn_from_game, q_update, softmax_move, train_q_learning)
from ttt_rl.weights import from_bytes, parameters, to_bytes

from .helpers import TempDirTest, read, run_main
from .test_learn import seeded_file, spy_on_games

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
        for _ in range(300):   # both games, in turn, on one net
            q_learn_from_game(net, tie, TIE, X)
            q_learn_from_game(net, X_WINS, X, X)
        self.assertAlmostEqual(q_value(net, board_after(tie[:8]), 5), 0.3, places=2)
        self.assertAlmostEqual(q_value(net, board_after(X_WINS[:4]), 8), 1.0, places=2)


class TrainQLearningTest(unittest.TestCase):
    """A seeded run repeats exactly, reports every game, explores, and learns."""

    def test_repeatable(self):
        # The one repeatability test of Q-learning (with the pin below).
        self.assertEqual(seeded_file(train_q_learning, 7, 30),
                         seeded_file(train_q_learning, 7, 30))

    def test_reports_each_game_and_stops_when_told(self):
        calls = []
        rng = random.Random(2)
        patcher, played = spy_on_games(qlearn, "play_q_game")
        with patcher:
            games = train_q_learning(init_neural_network(rng), 100, rng, BOTH,
                                     report=lambda n, g, w, s: calls.append((g, s, w)) or g == 9)
        self.assertEqual(games, 9)
        self.assertEqual([g for g, _, _ in calls], list(range(1, 10)))
        # Its side (X in even games with BOTH) and the winner of the game just played.
        self.assertEqual([(s, w) for _, s, w in calls], played)
        self.assertEqual([s for s, _ in played], [X, O] * 4 + [X])

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


class PinnedBytesTest(TempDirTest):
    """Q-learning writes the same file as it always has, on every interpreter."""

    def test_ttt_train_300_q_learning_seed_1_keeps_its_bytes(self):
        # The defaults (and TD_ERROR_BOUND, which must not bind here) must not move a bit.
        status, _, err = run_main(train.main, "300", self.path("q.bin"), "--seed", "1",
                                  "--method", "q-learning")
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(hashlib.sha1(read(self.path("q.bin"))).hexdigest(),
                         "a3407a07e2a897dd3ba88dc9a2b726aca9e263fd")


def large_network(seed, scale=2.0):
    """A 18-100-9 net with every parameter uniform in [-scale, scale)."""
    rng = random.Random(seed)

    def draw(n):
        return [rng.uniform(-scale, scale) for _ in range(n)]
    return NeuralNetwork([draw(100) for _ in range(18)], [draw(9) for _ in range(100)],
                         draw(100), draw(9))


class ErrorClippingTest(unittest.TestCase):
    """|Q(s,a) - y| is clipped to TD_ERROR_BOUND: large nets learn without overflow."""

    def test_a_far_target_moves_the_net_as_the_bound_does(self):
        board, move = board_after([4]), 0
        q = q_value(init_neural_network(random.Random(6)), board, move)
        nets = [init_neural_network(random.Random(6)) for _ in range(3)]
        q_update(nets[0], board, move, 1e9, 0.01)
        q_update(nets[1], board, move, q + TD_ERROR_BOUND, 0.01)
        q_update(nets[2], board, move, q + TD_ERROR_BOUND / 2, 0.01)
        self.assertEqual(parameters(nets[0]), parameters(nets[1]))
        self.assertNotEqual(parameters(nets[1]), parameters(nets[2]))

    def test_a_near_target_is_kept_exactly(self):
        seen = []
        real = qlearn.backprop

        def spy(net, targets, rate, scale, outputs):
            seen.append(targets[2])
            real(net, targets, rate, scale, outputs)

        net = init_neural_network(random.Random(6))
        with mock.patch.object(qlearn, "backprop", spy):
            q_update(net, board_after([4, 0]), 2, -1.7, 0.01)
        self.assertEqual(seen, [-1.7])

    def test_weights_uniform_in_2_stay_finite_and_loadable(self):
        # Without the bound these overflow to inf/NaN within a few games.
        net, rng = large_network(1), random.Random(1)
        for _ in range(20):   # random games on both sides
            winner, moves = play_against_random(lambda b: get_random_move(b, rng), rng, O)
            q_learn_from_game(net, moves, winner)
        self.assertTrue(all(math.isfinite(w) for w in parameters(net)))
        net = large_network(2)
        train_q_learning(net, 2000, random.Random(2))
        self.assertTrue(all(math.isfinite(w) for w in parameters(net)))
        self.assertEqual(len(from_bytes(to_bytes(net)).b_h), 100)   # it saves and loads


class SoftmaxExplorationTest(unittest.TestCase):
    """explore="softmax" draws moves from the softmax of the values at a falling temperature."""

    def test_settings_default_to_epsilon_greedy(self):
        # The documented defaults (ttt-train --help, README), written out: a change to a
        # constant in qlearn.py fails here.
        six = QSettings(0.01, 1.0, 0.3, -2.0, 0.3, 1.0)   # built as before the new fields
        self.assertEqual((six.explore, six.temperature), ("epsilon", 1.0))
        self.assertEqual(DEFAULT_Q_SETTINGS,
                         (0.01, 1.0, 0.3, -2.0, 0.3, 1.0, "epsilon", 1.0))

    def test_draws_each_empty_cell_as_often_as_its_softmax(self):
        net, board = init_neural_network(random.Random(8)), board_after([4, 0, 8])
        forward_pass(net, board_to_inputs(board))
        cells = [c for c in range(9) if board[c] == "."]
        expected = softmax([net.raw_logits[c] / 0.2 for c in cells])
        rng, counts = random.Random(3), dict.fromkeys(cells, 0)
        for _ in range(4000):
            counts[softmax_move(net, board, rng, 0.2)] += 1   # KeyError if taken
        for cell, p in zip(cells, expected):
            self.assertLess(abs(counts[cell] / 4000 - p), 0.03, cell)
        self.assertGreater(max(expected) - min(expected), 0.1)   # not uniform

    def test_at_temperature_zero_it_plays_the_best_move(self):
        net, board = init_neural_network(random.Random(8)), board_after([4, 0, 8])
        forward_pass(net, board_to_inputs(board))
        best = max((q, c) for c, q in enumerate(net.raw_logits) if board[c] == ".")[1]
        rng = random.Random(1)
        self.assertEqual({softmax_move(net, board, rng, t) for t in (0.0, 1e-4)}, {best})

    def test_the_temperature_falls_like_epsilon(self):
        soft = DEFAULT_Q_SETTINGS._replace(explore=SOFTMAX, temperature=0.5)
        self.assertEqual(exploration_at(0, 1000, soft), 0.5)
        self.assertAlmostEqual(exploration_at(400, 1000, soft), 0.25)
        self.assertEqual(exploration_at(800, 1000, soft), 0.0)
        self.assertEqual(exploration_at(400, 1000, DEFAULT_Q_SETTINGS), epsilon_at(400, 1000))

    def test_learns_with_softmax_exploration(self):
        rng = random.Random(1)
        net = init_neural_network(rng)
        before = evaluate_network(net)
        train_q_learning(net, 600, rng, settings=DEFAULT_Q_SETTINGS._replace(explore=SOFTMAX))
        after = evaluate_network(net)
        self.assertGreater(after["win"] - after["loss"], before["win"] - before["loss"] + 0.2)


if __name__ == "__main__":
    unittest.main()
