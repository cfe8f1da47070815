"""Learning from games (learn.py): targets, rewards, the C's order, the report after
every game, and that training on a seed is repeatable, keeps its bytes and learns."""

import hashlib
import inspect
import random
import unittest
from unittest import mock

from ttt_rl import connect4, learn, train
from ttt_rl.game import BOTH, EMPTY, O, TIE, X, input_index
from ttt_rl.learn import (DEFAULT_SETTINGS, Settings, learn_from_game, play_random_game,
                          side_of_game, train_against_random)
from ttt_rl.lab.exact import evaluate_network
from ttt_rl.nn import get_computer_move, init_neural_network
from ttt_rl.weights import parameters, to_bytes

from . import oracle
from .helpers import TempDirTest, read, run_main


def record_backprop_calls(history, winner, side=O, settings=DEFAULT_SETTINGS):
    """Run learn_from_game with backprop spied on.

    Returns one (active_inputs, target, reward_scaling) per backprop call:
    the inputs that were on when the network saw the board, the target and
    the scaled reward.
    """
    net = init_neural_network(random.Random(1))
    calls = []

    def spy(net, target, rate, scaled):
        calls.append((list(net.active_inputs), list(target), scaled))
        real_backprop(net, target, rate, scaled)

    real_backprop = learn.backprop
    with mock.patch.object(learn, "backprop", spy):
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
            real = learn.get_computer_move

            def spy(net, board, *rest):
                asked.append(board.count(X) - board.count(O))
                return real(net, board, *rest)

            net = init_neural_network(random.Random(3))
            with mock.patch.object(learn, "get_computer_move", spy):
                for seed in range(30):
                    play_random_game(net, random.Random(seed), side)
            self.assertGreater(len(asked), 60)
            self.assertEqual(set(asked), {extra_x})


class DifferentialTest(unittest.TestCase):
    """The sparse product and the plain C transcription train identically."""

    GAMES = 150

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


def spy_on_games(module, name):
    """Patch module.NAME, a game player returning (winner, history), to record each
    (side, winner) it returns; returns (the patcher, the list)."""
    played, real = [], getattr(module, name)

    def spy(*args, **kwargs):
        winner, history = real(*args, **kwargs)
        call = inspect.signature(real).bind(*args, **kwargs)
        call.apply_defaults()
        played.append((call.arguments["nn_symbol"], winner))
        return winner, history
    return mock.patch.object(module, name, spy), played


def seeded_file(train, seed, games):
    """The bytes of a net that `train(net, games, rng)` trains from `seed`, as ttt-train
    --seed does: the net's weights, then the games, drawn from one random.Random. Each
    rule's repeatability test, in the module named for the rule, uses it."""
    rng = random.Random(seed)
    net = init_neural_network(rng)
    train(net, games, rng)
    return to_bytes(net)


def train_spied(seed, games, side=O, stop_at=None):
    """Train the C's rule from `seed` with play_random_game spied on, the report stopping
    training after game `stop_at`. Returns (the net, the games played, each report's
    arguments (net, games, winner, side), each game's (side, winner))."""
    rng, reports = random.Random(seed), []
    net = init_neural_network(rng)
    patcher, played = spy_on_games(learn, "play_random_game")
    with patcher:
        games = train_against_random(net, games, rng, side,
                                     report=lambda *args: reports.append(args) or
                                     args[1] == stop_at)
    return net, games, reports, played


class TrainAgainstRandomTest(unittest.TestCase):
    """Training is repeatable for a seed, reports every game, stops when told, and learns."""

    def test_seeded_training_is_repeatable(self):
        # The one repeatability test of the C's rule (with the pin below).
        first = seeded_file(train_against_random, 5, 200)
        self.assertEqual(seeded_file(train_against_random, 5, 200), first)
        self.assertNotEqual(seeded_file(train_against_random, 6, 200), first)

    def test_reports_each_game_its_winner_and_side(self):
        net, games, calls, played = train_spied(12, 45)
        self.assertEqual(games, 45)
        self.assertEqual([g for _, g, _, _ in calls], list(range(1, 46)))
        self.assertTrue(all(n is net for n, _, _, _ in calls))
        # Each report names the game just played: its winner, and the net's side, O.
        self.assertEqual([(s, w) for _, _, w, s in calls], played)
        self.assertEqual({s for s, _ in played}, {O})
        self.assertEqual({w for _, w in played}, {X, O, TIE})

    def test_a_report_that_returns_true_stops_training(self):
        _, games, reported, played = train_spied(3, 1000, stop_at=37)
        # Game 37 was learned, then nothing more was played.
        self.assertEqual((games, len(played), reported[-1][1], len(reported)),
                         (37, 37, 37, 37))

    def test_a_short_run_learns(self):
        rng = random.Random(12)
        net = init_neural_network(rng)
        before = evaluate_network(net)["loss"]
        train_against_random(net, 1500, rng)
        self.assertLess(evaluate_network(net)["loss"], before / 2)

    def test_hidden_size_is_a_parameter(self):
        rng = random.Random(1)
        net = init_neural_network(rng, hidden_size=25)
        train_against_random(net, 50, rng)
        self.assertEqual((len(net.b_h), len(net.w_ih[0]), len(net.w_ho)), (25, 25, 25))


class PinnedBytesTest(TempDirTest):
    """The C's rule writes the same file as it always has, on every interpreter."""

    def test_ttt_train_3000_seed_1_keeps_its_bytes(self):
        # `ttt-train 3000 --seed 1`: the bytes saved since before the opponent, BOTH and the
        # per-game report existed; the defaults must not move a bit.
        status, _, err = run_main(train.main, "3000", self.path("w.bin"), "--seed", "1")
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(hashlib.sha1(read(self.path("w.bin"))).hexdigest(),
                         "6955e2bc20a6aba82cbe11a370065af6cc001f66")


class OpponentTest(unittest.TestCase):
    """The other side's moves come from opponent(board, rng), with the training rng."""

    def test_the_opponent_moves_for_the_other_side(self):
        for side in (X, O):
            calls = []

            def first_empty(board, rng):
                calls.append((board.count(X) - board.count(O), rng))
                return board.index(EMPTY)

            rng = random.Random(4)
            net = init_neural_network(rng)
            train_against_random(net, 6, rng, side, opponent=first_empty)
            self.assertTrue(calls)
            # The opponent moves on the other side's turns, with the same rng.
            self.assertEqual({c[0] for c in calls}, {1 if side == X else 0})
            self.assertTrue(all(c[1] is rng for c in calls))


class BothSidesTest(unittest.TestCase):
    """With BOTH the net plays X in even games and O in odd ones, and learns each."""

    def test_side_of_game(self):
        self.assertEqual([side_of_game(BOTH, g) for g in range(4)], [X, O, X, O])
        self.assertEqual({side_of_game(s, g) for s in (X,) for g in range(3)}, {X})
        self.assertEqual({side_of_game(s, g) for s in (O,) for g in range(3)}, {O})

    def test_plays_x_then_o_and_reports_the_side_it_played(self):
        _, _, reports, played = train_spied(9, 40, BOTH)
        self.assertEqual([side for side, _ in played], [X, O] * 20)
        # Each report has the side the net played that game, so that a caller can count
        # the net's own wins and losses (lab.curve.Reporter does).
        self.assertEqual([(s, w) for _, _, w, s in reports], played)
        results = {"win" if w == s else TIE if w == TIE else "loss" for s, w in played}
        self.assertEqual(results, {"win", "loss", TIE})   # the side matters to count them

    def test_one_net_learns_both_sides(self):
        rng = random.Random(12)
        net = init_neural_network(rng)
        before = [evaluate_network(net, side)["loss"] for side in (X, O)]
        train_against_random(net, 1500, rng, BOTH)
        after = [evaluate_network(net, side)["loss"] for side in (X, O)]
        self.assertLess(after[0], before[0] / 2)
        self.assertLess(after[1], before[1] / 2)


class ConnectFourTest(unittest.TestCase):
    """The same rule on connect four (rules=connect4): a move is a column, the inputs are the
    mover's, and one net plays X in even games and O in odd ones."""

    def test_a_win_raises_the_last_move_played_and_a_loss_lowers_it(self):
        moves = [3, 0, 3, 1, 3, 2, 3]   # X wins up column 3; O played 0, 1, 2
        for side, sign in ((X, 1), (O, -1)):
            net = init_neural_network(random.Random(4), 12, connect4)
            board, before = connect4.init_game(), []   # the net's positions and moves
            for ply, column in enumerate(moves):
                if ply % 2 == (side == O):
                    before.append((list(board), column))
                connect4.play_move(board, column, X if ply % 2 == 0 else O)
            position, column = before[-1]   # its step is the last: nothing moves it after
            get_computer_move(net, position, connect4)
            p = net.outputs[column]
            learn_from_game(net, moves, X, side, rules=connect4)
            get_computer_move(net, position, connect4)
            self.assertEqual(net.outputs[column] > p, sign > 0, (side, column))

    def test_training_plays_both_sides_and_repeats_with_a_seed(self):
        nets, sides = [], []
        for _ in range(2):
            rng = random.Random(5)
            net = init_neural_network(rng, 12, connect4)
            train_against_random(net, 6, rng, BOTH, rules=connect4,
                                 report=lambda net, g, w, side: sides.append(side))
            nets.append(to_bytes(net))
        self.assertEqual(nets[0], nets[1])
        self.assertEqual(sides[:6], [X, O, X, O, X, O])


if __name__ == "__main__":
    unittest.main()
