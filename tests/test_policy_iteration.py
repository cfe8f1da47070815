"""Policy iteration (policy_iteration.py): the positions, exact evaluation, the best moves and
the stop rule on hand-checked positions, the set loss's gradient, that a stable policy is
perfect, and that a seeded run repeats. TTT_SLOW=1 also trains a net to the end (~30 CPU s)."""

import math
import os
import random
import unittest
from unittest import mock

from ttt_rl import policy_iteration as pi
from ttt_rl.game import BOARD_CELLS, EMPTY, O, X, board_to_inputs, to_move
from ttt_rl.lab.exact import (complete_share, evaluate_network, evaluate_policy, net_policy,
                              reachable)
from ttt_rl.nn import forward_pass, init_neural_network
from ttt_rl.weights import from_parameters, parameters, to_bytes

# O to move, cells 5 and 7 empty:     X O X
# O at 7 wins (column 1-4-7);         X O .
# O at 5 leaves X 7: a tie.           O . X
ONE_FROM_END = "XOXXO.O.X"
# X to move, cells 0, 1 and 4 empty:  . . O
# each ties against perfect play      O . X
# (see the tie-break test).           X O X
TIE_BREAK = "..OO.XXOX"


def lowest_cell_policy():
    """The policy that plays the lowest empty cell everywhere: a start far from perfect."""
    return {p: p.index(EMPTY) for p in pi.positions()}


def table_policy_iteration(policy, max_sweeps=50):
    """Policy iteration on a table, no net: replace each unstable move by its lowest best one.
    Returns (the stable policy, the sweeps it took)."""
    for sweep in range(1, max_sweeps + 1):
        best = pi.improve(*pi.evaluate(policy))
        unstable = [p for p in best if policy[p] not in best[p]]
        if not unstable:
            return policy, sweep
        policy = dict(policy, **{p: best[p][0] for p in unstable})
    raise AssertionError("no stable policy after %d sweeps" % max_sweeps)


STABLE, STABLE_SWEEPS = table_policy_iteration(lowest_cell_policy())


def minus_log_p(net, board, best):
    """-log P computed directly: the softmax over the legal cells, summed over best."""
    forward_pass(net, board_to_inputs(board))
    legal = [c for c in range(BOARD_CELLS) if board[c] == EMPTY]
    exps = {c: math.exp(net.raw_logits[c]) for c in legal}
    return -math.log(sum(exps[c] for c in best) / sum(exps.values()))


class PositionsTest(unittest.TestCase):
    """Every non-terminal position reachable from the empty board, fewest pieces first."""

    def test_counts_and_order(self):
        found = pi.positions()
        self.assertEqual(len(found), 4520)
        self.assertEqual(len(set(found)), 4520)
        self.assertEqual(sum(to_move(p) == O for p in found), 2097)
        self.assertEqual(set(found), reachable(O) | reachable(X))   # lab/exact.py's walk
        # Fewest pieces first, then in string order: the same order in every run.
        self.assertEqual(found, sorted(found, key=lambda p: (-p.count(EMPTY), p)))
        self.assertEqual(found[0], EMPTY * 9)

    def test_moves_know_which_ones_end_the_game(self):
        moves = pi.game_tree()[ONE_FROM_END]
        self.assertEqual(moves[7], ("XOXXO.OOX", pi.REWARD_WIN))
        self.assertEqual(moves[5], ("XOXXOOO.X", None))
        self.assertEqual(pi.game_tree()["XOXXOOO.X"][7], ("XOXXOOOXX", pi.REWARD_TIE))


class EvaluateImproveTest(unittest.TestCase):
    """R(s), the random-opponent tie-break and best(s) on positions checked by hand."""

    def test_one_move_from_the_end(self):
        for move, result in ((7, 1.0), (5, 0.0)):
            policy = dict(STABLE, **{ONE_FROM_END: move})
            results, _ = pi.evaluate(policy)
            self.assertEqual(results[ONE_FROM_END], result)
            best = pi.improve(*pi.evaluate(policy))
            # The win is best whatever the policy plays; 5, a tie, is never among the best.
            self.assertEqual(best[ONE_FROM_END], (7,))

    def test_the_tie_break_prefers_the_moves_that_win_more_against_a_random_reply(self):
        # Every move ties against perfect play, so G is 0 for all three. X at 0 or 4 threatens
        # a line (0-4-8): O blocks and it is a tie, or O plays the other cell and X wins, 1/2.
        # X at 1 threatens nothing, and either reply ties: 0. Best: 0 and 4.
        results, random_results = pi.evaluate(STABLE)
        moves = pi.game_tree()[TIE_BREAK]
        self.assertEqual([-results[moves[c][0]] for c in (0, 1, 4)], [0.0, 0.0, 0.0])
        self.assertEqual([-random_results[moves[c][0]] for c in (0, 1, 4)], [0.5, 0.0, 0.5])
        self.assertEqual(pi.improve(results, random_results)[TIE_BREAK], (0, 4))

    def test_a_change_makes_its_position_unstable_and_reaches_only_earlier_ones(self):
        # The stable policy, but a tie instead of the win one move from the end.
        policy = dict(STABLE, **{ONE_FROM_END: 5})
        best = pi.improve(*pi.evaluate(policy))
        unstable = [p for p in best if policy[p] not in best[p]]
        self.assertIn(ONE_FROM_END, unstable)
        # Values flow backwards only: positions with as many pieces or more cannot change.
        for position in unstable:
            self.assertTrue(position == ONE_FROM_END or
                            position.count(EMPTY) > ONE_FROM_END.count(EMPTY), position)
        # The net whose policy this is is unstable there: it reports so, then takes steps.
        net, calls = init_neural_network(random.Random(4)), []
        before = to_bytes(net)
        with mock.patch.object(pi, "greedy_policy", lambda _net: policy):
            result = pi.train_policy_iteration(
                net, 1, random.Random(4), report=lambda *args: calls.append(args))
        self.assertEqual(result, (1, len(unstable)))
        self.assertEqual(calls, [(net, 1, len(unstable))])
        self.assertNotEqual(to_bytes(net), before)


class StablePolicyTest(unittest.TestCase):
    """A stable policy keeps the minimax value everywhere, and the tie-break wins the most."""

    def test_table_policy_iteration_stops(self):
        self.assertLess(STABLE_SWEEPS, 20)

    def test_stable_means_minimax_in_every_position(self):
        self.assertEqual(complete_share(STABLE.__getitem__, O), (2097, 2097))
        self.assertEqual(complete_share(STABLE.__getitem__, X), (2423, 2423))

    def test_stable_wins_the_most_a_never_losing_player_can(self):
        as_o = evaluate_policy(STABLE.__getitem__, side=O)
        as_x = evaluate_policy(STABLE.__getitem__, side=X)
        self.assertTrue(as_o["unbeatable"] and as_x["unbeatable"])
        self.assertAlmostEqual(as_o["win"], 0.916402, places=6)
        self.assertAlmostEqual(as_x["win"], 0.994792, places=6)

    def test_a_stable_net_policy_stops_before_any_step(self):
        net = init_neural_network(random.Random(3))
        before, calls = to_bytes(net), []
        with mock.patch.object(pi, "greedy_policy", lambda _net: STABLE):
            result = pi.train_policy_iteration(
                net, 5, random.Random(3), report=lambda *args: calls.append(args))
        self.assertEqual(result, (1, 0))
        self.assertEqual(calls, [(net, 1, 0)])
        self.assertEqual(to_bytes(net), before)


class SetLossTest(unittest.TestCase):
    """The step on -log P: its gradient with respect to the logits is p - t."""

    def test_gradient_against_finite_differences(self):
        net = init_neural_network(random.Random(5))
        board, best = "X...O..X.", (2, 6)
        # A logit moves exactly as its output bias: dz_k / db_o[k] = 1.
        h, numeric = 1e-6, []
        for k in range(BOARD_CELLS):
            net.b_o[k] += h
            up = minus_log_p(net, board, best)
            net.b_o[k] -= 2 * h
            down = minus_log_p(net, board, best)
            net.b_o[k] += h
            numeric.append((up - down) / (2 * h))
        loss = minus_log_p(net, board, best)
        stepped, rate = from_parameters(parameters(net)), 0.01
        self.assertAlmostEqual(pi.set_loss_step(stepped, board, best, rate), loss, places=12)
        # The step on each output bias is -rate * (p - t)_k: the analytic gradient.
        analytic = [(before - after) / rate for before, after in zip(net.b_o, stepped.b_o)]
        for k in range(BOARD_CELLS):
            self.assertAlmostEqual(analytic[k], numeric[k], places=6, msg="cell %d" % k)
        for k in (0, 4, 7):   # taken cells: no gradient, no step
            self.assertEqual(stepped.b_o[k], net.b_o[k])
        self.assertLess(minus_log_p(stepped, board, best), loss)

    def test_all_legal_moves_best_is_no_loss(self):
        net = init_neural_network(random.Random(6))
        before = to_bytes(net)
        legal = [c for c in range(BOARD_CELLS) if ONE_FROM_END[c] == EMPTY]
        self.assertAlmostEqual(pi.set_loss_step(net, ONE_FROM_END, legal), 0.0, places=12)
        self.assertEqual(to_bytes(net), before)


class ShuffledTest(unittest.TestCase):
    """The order of the steps: a permutation, the same for a seed on every Python."""

    def test_shuffled_is_a_seeded_permutation(self):
        items = list(range(10))
        order = pi.shuffled(items, random.Random(1))
        self.assertEqual(order, [8, 0, 3, 4, 5, 2, 9, 6, 7, 1])   # CPython 3.11 and PyPy 3.9
        self.assertEqual(items, list(range(10)))   # a new list; the items stay in order
        self.assertNotEqual(pi.shuffled(items, random.Random(2)), order)


class TrainTest(unittest.TestCase):
    """A seeded run repeats; a report can stop it; a full run ends stable and perfect."""

    def run_seed(self, seed, sweeps):
        rng = random.Random(seed)
        net = init_neural_network(rng)
        return net, pi.train_policy_iteration(net, sweeps, rng)

    def test_a_seed_repeats_byte_for_byte(self):
        first, result = self.run_seed(1, 1)
        second, again = self.run_seed(1, 1)
        self.assertEqual(result, again)
        self.assertEqual(result[0], 1)
        self.assertGreater(result[1], 0)   # a fresh net is far from stable
        self.assertEqual(to_bytes(first), to_bytes(second))
        self.assertNotEqual(to_bytes(first), to_bytes(init_neural_network(random.Random(1))))

    def test_report_true_stops_before_the_step(self):
        net = init_neural_network(random.Random(2))
        before, calls = to_bytes(net), []

        def report(*args):
            calls.append(args[1:])
            return True
        self.assertEqual(pi.train_policy_iteration(net, 9, random.Random(2), report=report),
                         (1, calls[0][1]))
        self.assertEqual(len(calls), 1)
        self.assertEqual(to_bytes(net), before)

    @unittest.skipUnless(os.environ.get("TTT_SLOW"), "set TTT_SLOW=1 (about 30 CPU s)")
    def test_a_trained_net_is_complete(self):
        net, (sweeps, unstable) = self.run_seed(1, 100)
        self.assertEqual(unstable, 0)
        policy = net_policy(net)
        self.assertEqual(complete_share(policy, O), (2097, 2097))
        self.assertEqual(complete_share(policy, X), (2423, 2423))
        self.assertAlmostEqual(evaluate_network(net, O)["win"], 0.916402, places=6)
        self.assertAlmostEqual(evaluate_network(net, X)["win"], 0.994792, places=6)


if __name__ == "__main__":
    unittest.main()
