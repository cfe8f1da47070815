"""The learning loop (train.py): targets, rewards, repeatability, learning."""

import contextlib
import io
import os
import random
import tempfile
import unittest
from unittest import mock

from ttt_rl import report, train
from ttt_rl.cli import Output
from ttt_rl.evaluate import evaluate_network
from ttt_rl.game import O, TIE, X, input_index
from ttt_rl.nn import init_neural_network
from ttt_rl.train import (DEFAULT_SETTINGS, Settings, learn_from_game, play_random_game,
                          train_against_random)
from ttt_rl.weights import parameters

from . import oracle
from .helpers import DATA


def record_backprop_calls(history, winner, side=O, settings=DEFAULT_SETTINGS):
    """Run learn_from_game with backprop spied on.

    Returns one (active_inputs, target, reward_scaling) per backprop call:
    the inputs that were on when the network saw the board, the target and
    the scaled reward.
    """
    net = init_neural_network(random.Random(1))
    calls = []

    def spy(nn, target, rate, scaled):
        calls.append((list(nn.active_inputs), list(target), scaled))
        real_backprop(nn, target, rate, scaled)

    real_backprop = train.backprop
    with mock.patch.object(train, "backprop", spy):
        learn_from_game(net, history, winner, side, settings)
    return calls


def one_hot(cell):
    target = [0.0] * 9
    target[cell] = 1.0
    return target


class LearnFromGameTest(unittest.TestCase):
    """Each of the net's moves becomes one example; the result sets target and step."""

    def test_win_rewards_every_o_move(self):
        # X0 O4 X1 O2 X3 O6: O wins on the 2-4-6 diagonal.
        calls = record_backprop_calls([0, 4, 1, 2, 3, 6], O)
        self.assertEqual([c[1] for c in calls], [one_hot(4), one_hot(2), one_hot(6)])
        for (_, _, scaled), idx in zip(calls, (1, 3, 5)):
            self.assertAlmostEqual(scaled, 1.0 * (0.5 + 0.5 * idx / 6))
        # The board each O move was learned from: the moves before it.
        self.assertEqual(calls[0][0], [input_index(0, X)])
        self.assertEqual(calls[2][0], sorted([input_index(0, X), input_index(4, O),
                                              input_index(1, X), input_index(2, O),
                                              input_index(3, X)]))

    def test_tie_rewards_with_small_reward(self):
        # X0 O4 X8 O1 X7 O6 X2 O5 X3: a full board without a line.
        history = [0, 4, 8, 1, 7, 6, 2, 5, 3]
        calls = record_backprop_calls(history, TIE)
        self.assertEqual([c[1] for c in calls], [one_hot(m) for m in (4, 1, 6, 5)])
        for (_, _, scaled), idx in zip(calls, (1, 3, 5, 7)):
            self.assertAlmostEqual(scaled, 0.3 * (0.5 + 0.5 * idx / 9))

    def test_loss_spreads_target_over_other_legal_moves(self):
        # X0 O3 X1 O4 X2: X wins the top row.
        calls = record_backprop_calls([0, 3, 1, 4, 2], X)
        self.assertEqual(len(calls), 2)
        first = [0.0] + [1 / 7] * 8
        first[3] = 0.0   # the move played gets nothing
        self.assertEqual(calls[0][1], first)
        second = [0.0, 0.0, 0.2, 0.0, 0.0, 0.2, 0.2, 0.2, 0.2]
        self.assertEqual(calls[1][1], second)
        self.assertAlmostEqual(calls[0][2], -2.0 * (0.5 + 0.5 * 1 / 5))
        self.assertAlmostEqual(calls[1][2], -2.0 * (0.5 + 0.5 * 3 / 5))

    def test_trains_only_on_o_moves(self):
        # One example per O move (odd index), seen on the board just before
        # it; X's moves are never targets.
        for history, winner in (([0, 4, 1, 2, 3, 6], O), ([0, 4, 8, 1, 7, 6, 2, 5, 3], TIE)):
            calls = record_backprop_calls(history, winner)
            self.assertEqual([len(c[0]) for c in calls],
                             list(range(1, len(history), 2)))
            self.assertEqual([c[1].index(1.0) for c in calls], history[1::2])

    def test_x_side_trains_only_x_moves(self):
        # The C's nn_moves_even = 0 path. X0 O4 X1 O5 X2: X wins the top row.
        history = [0, 4, 1, 5, 2]
        calls = record_backprop_calls(history, X, side=X)
        self.assertEqual([c[1] for c in calls], [one_hot(0), one_hot(1), one_hot(2)])
        self.assertEqual([len(c[0]) for c in calls], [0, 2, 4])   # boards before X's moves
        for (_, _, scaled), idx in zip(calls, (0, 2, 4)):
            self.assertAlmostEqual(scaled, 1.0 * (0.5 + 0.5 * idx / 5))
        # The same game is a loss for O: O's two moves, spread targets.
        calls = record_backprop_calls(history, X, side=O)
        self.assertEqual(len(calls), 2)
        self.assertLess(calls[0][2], 0)

    def test_settings_set_rewards_and_rate(self):
        settings = Settings(learning_rate=0.5, reward_win=2.0, reward_tie=-1.0, reward_loss=-3.0)
        history = [0, 4, 8, 1, 7, 6, 2, 5, 3]   # a tie
        calls = record_backprop_calls(history, TIE, settings=settings)
        # A negative tie reward pushes O's moves down, like a loss. O's last
        # move had one other empty cell.
        self.assertEqual(calls[-1][1], [0.0] * 3 + [1.0] + [0.0] * 5)
        self.assertAlmostEqual(calls[-1][2], -1.0 * (0.5 + 0.5 * 7 / 9))

    def test_negative_tie_reward_for_x_moving_last(self):
        # X's last move fills the board: no other cell is left to push
        # towards (the C divides by zero here); the target is all zeros.
        history = [0, 4, 8, 1, 7, 6, 2, 5, 3]
        settings = DEFAULT_SETTINGS._replace(reward_tie=-1.0)
        calls = record_backprop_calls(history, TIE, side=X, settings=settings)
        self.assertEqual(calls[-1][1], [0.0] * 9)

    def test_net_moves_on_its_own_turns(self):
        # X moves first: the net as X is asked on boards with as many X as
        # O, the net as O on boards with one X more.
        for side, extra_x in ((X, 0), (O, 1)):
            asked = []
            real = train.get_computer_move

            def spy(nn, board):
                asked.append(board.count(X) - board.count(O))
                return real(nn, board)

            net = init_neural_network(random.Random(3))
            with mock.patch.object(train, "get_computer_move", spy):
                for seed in range(30):
                    play_random_game(net, random.Random(seed), side)
            self.assertGreater(len(asked), 60)
            self.assertEqual(set(asked), {extra_x})


class DifferentialTest(unittest.TestCase):
    """The sparse product and the plain C transcription train identically."""

    GAMES = 3000

    def test_same_games_and_weights_as_the_oracle(self):
        net = init_neural_network(random.Random(2024))
        slow = oracle.OracleNet(net)
        rng_fast, rng_slow = random.Random(77), random.Random(77)
        counts_fast = {X: 0, O: 0, TIE: 0}
        counts_slow = {X: 0, O: 0, TIE: 0}
        for game in range(self.GAMES):
            w_fast, h_fast = play_random_game(net, rng_fast)
            w_slow, h_slow = oracle.play_random_game(slow, rng_slow)
            self.assertEqual(h_fast, h_slow, "game %d" % game)
            counts_fast[w_fast] += 1
            counts_slow[w_slow] += 1
        self.assertEqual(counts_fast, counts_slow)
        self.assertGreater(counts_fast[X], 0)   # all three results occurred
        self.assertGreater(counts_fast[TIE], 0)
        # Same additions in the same order: the same weights, bit for bit.
        self.assertEqual(parameters(net), slow.flat())


class Recorder:
    """A reporter for train_against_random that keeps what it is given."""

    def __init__(self, interval):
        self.interval, self.calls = interval, []

    def report(self, nn, games, counts):
        self.calls.append((games, counts[O], counts[X], counts[TIE]))


class TrainingTest(unittest.TestCase):
    """Training is repeatable for a seed, and it learns."""

    def test_seeded_training_is_repeatable(self):
        runs = []
        for seed in (5, 5, 6):
            rng = random.Random(seed)
            net = init_neural_network(rng)
            train_against_random(net, 300, rng)
            runs.append(parameters(net))
        self.assertEqual(runs[0], runs[1])
        self.assertNotEqual(runs[0], runs[2])

    def test_seeded_run_reproduces_the_committed_file(self):
        # tests/data/py_trained.bin came from `ttt-train 2000 FILE --seed 7`.
        # The same bytes on every Python (make test-all runs this on each).
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "w.bin")
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(train.main(["2000", path, "--seed", "7"]), 0)
            with open(path, "rb") as made, open(os.path.join(DATA, "py_trained.bin"),
                                                 "rb") as committed:
                self.assertEqual(made.read(), committed.read())

    def test_short_run_learns(self):
        rng = random.Random(12)
        net = init_neural_network(rng)
        exact_before = evaluate_network(net)["loss"]
        recorder = Recorder(1000)
        train_against_random(net, 4500, rng, reporter=recorder)
        self.assertEqual([r[0] for r in recorder.calls], [1000, 2000, 3000, 4000, 4500])
        self.assertEqual([sum(r[1:]) for r in recorder.calls], [1000] * 4 + [500])
        first_losses, last_losses = recorder.calls[0][2], recorder.calls[3][2]
        self.assertLess(last_losses, first_losses / 2)
        self.assertLess(evaluate_network(net)["loss"], exact_before / 2)

    def test_reporter_with_exact_evaluation_changes_nothing(self):
        results = []
        for eval_every in (0, 100):
            rng = random.Random(8)
            net = init_neural_network(rng)
            reporter = report.Reporter(Output(io.StringIO(), "test", "test"), 400,
                                      eval_every=eval_every)
            train_against_random(net, 400, rng, reporter=reporter)
            results.append(parameters(net))
            text = reporter.out.stream.getvalue()
        self.assertEqual(text.count("Exact at "), 4)
        self.assertEqual(results[0], results[1])


class CommandLineHelpersTest(unittest.TestCase):
    """The C's progress numbers, and readable durations."""

    def test_percent_rounds_like_c_float32(self):
        self.assertEqual("%.1f" % report.percent(15), "0.2")
        self.assertEqual("%.1f" % report.percent(7987), "79.9")
        self.assertEqual("%.1f" % report.percent(10000), "100.0")

    def test_format_seconds(self):
        self.assertEqual([report.format_seconds(s) for s in (4.4, 185, 3725)],
                         ["4s", "3m05s", "1h02m"])


if __name__ == "__main__":
    unittest.main()
