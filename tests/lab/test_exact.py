"""Exact evaluation (lab/exact.py): tree walks of a policy, a net on both sides, the share of
positions where a policy keeps the minimax value; connect four's measured figures."""

import math
import random
import unittest

from ttt_rl import connect4
from ttt_rl.game import BOTH, EMPTY, O, X, check_game_over, get_random_move
from ttt_rl.expert_iteration import player
from ttt_rl.lab.exact import (C4_PLAYERS, KINDS, c4_kept, c4_positions, c4_results,
                              complete_share, evaluate_network, evaluate_policy, net_policy)
from ttt_rl.nn import init_neural_network
from ttt_rl.policy_iteration import correct_moves, reachable
from ttt_rl.weights import load

from ..helpers import C_FILE


def first_empty(position):
    """A fixed policy for O: the lowest empty cell."""
    return position.index(EMPTY)


class FixedPolicyTest(unittest.TestCase):
    """evaluate_policy counts lines and probabilities exactly, on small and full trees."""

    def test_hand_checked_subtree(self):
        # X to move, cells 6, 7, 8 empty:
        #   X6 -> X wins column 0-3-6.                      (lost line)
        #   X7 -> O takes 6 (first empty), X8: tie.         (O optimal:
        #         O8 instead would let X win with 6)
        #   X8 -> O takes 6, X7: tie. O7 would have won the 1-4-7 column,
        #         so this O move is not optimal.
        result = evaluate_policy(first_empty, start="XOXXOO...")
        self.assertEqual((result["lines"], result["lines_lost"]), (3, 1))
        self.assertEqual(result["positions"], 2)
        self.assertEqual(result["optimal_positions"], 1)
        self.assertAlmostEqual(result["loss"], 1 / 3)
        self.assertAlmostEqual(result["draw"], 2 / 3)
        self.assertEqual(result["win"], 0.0)
        self.assertFalse(result["unbeatable"])

    def test_hand_checked_two_level_subtree(self):
        # X to move, cells 0, 1, 2 empty. X0 wins 0-4-8 at once; X1: O takes
        # 0, then X2 wins 2-4-6; X2 wins 2-4-6 at once. All 3 lines lost.
        result = evaluate_policy(first_empty, start="...OXOXOX")
        self.assertEqual((result["lines"], result["lines_lost"]), (3, 3))
        self.assertEqual(result["positions"], 1)
        self.assertAlmostEqual(result["loss"], 1.0)

    def test_exact_probabilities_match_monte_carlo(self):
        exact = evaluate_policy(first_empty)
        self.assertAlmostEqual(exact["win"] + exact["draw"] + exact["loss"], 1.0, places=12)
        rng = random.Random(99)
        games = 20000
        counts = {X: 0, O: 0, "T": 0}
        for _ in range(games):
            board = [EMPTY] * 9
            x_turn = True
            while check_game_over(board) is None:
                if x_turn:
                    board[get_random_move(board, rng)] = X
                else:
                    board[first_empty("".join(board))] = O
                x_turn = not x_turn
            counts[check_game_over(board)] += 1
        for key, outcome in (("win", O), ("draw", "T"), ("loss", X)):
            p = exact[key]
            standard_error = math.sqrt(p * (1 - p) / games)
            self.assertLess(abs(counts[outcome] / games - p), 4 * standard_error, key)

    def test_first_empty_counts_on_the_full_tree(self):
        # An independent brute-force walk over lists, without memo or sets,
        # for the policy as O (X moves first) and as X (it moves first).
        for side in (O, X):
            other = X if side == O else O
            lines = lost = wins = 0
            positions = set()

            def walk(board):
                nonlocal lines, lost, wins
                winner = check_game_over(board)
                if winner is not None:
                    lines += 1
                    wins += winner == side
                    lost += winner == other
                    return
                mover = X if board.count(X) == board.count(O) else O
                if mover == other:
                    for cell in range(9):
                        if board[cell] == EMPTY:
                            walk(board[:cell] + [other] + board[cell + 1:])
                else:
                    positions.add("".join(board))
                    cell = first_empty("".join(board))
                    walk(board[:cell] + [side] + board[cell + 1:])

            walk([EMPTY] * 9)
            result = evaluate_policy(first_empty, side=side)
            self.assertEqual(result["side"], side)
            self.assertEqual(result["lines"], lines, side)
            self.assertEqual(result["lines_lost"], lost, side)
            self.assertEqual(result["positions"], len(positions), side)
            self.assertGreater(wins, 0)


class NetworkTest(unittest.TestCase):
    """A net is measured as its policy; both sides add up."""

    def test_both_sides(self):
        net = load(C_FILE)
        as_o, as_x = evaluate_network(net, O), evaluate_network(net, X)
        self.assertEqual(as_o, evaluate_policy(net_policy(net), side=O))
        both = evaluate_network(net, BOTH)
        self.assertEqual((both["side"], both["sides"]), (BOTH, [as_o, as_x]))
        for key in ("lines", "lines_lost", "positions", "optimal_positions"):
            self.assertEqual(both[key], as_o[key] + as_x[key], key)
        for key in ("win", "draw", "loss"):
            self.assertEqual(both[key], (as_o[key] + as_x[key]) / 2, key)
        self.assertIs(both["unbeatable"], as_o["unbeatable"] and as_x["unbeatable"])


class CompletePlayerTest(unittest.TestCase):
    """The share of every position reachable under any play where a
    policy's move keeps the minimax value."""

    def test_a_hand_checked_position(self):
        # O to move, 6 and 8 empty; X threatens 2-5-8. Blocking at 8 draws, 6 loses. A perfect
        # player but for 6 there misses exactly that position.
        start = "XOXOOX.X."
        self.assertIn(start, reachable(O))
        self.assertEqual(correct_moves(start), [8])
        perfect_but_here = lambda p: 6 if p == start else correct_moves(p)[0]   # noqa: E731
        self.assertEqual(complete_share(perfect_but_here, O), (2096, 2097))

    def test_every_position_and_both_sides(self):
        self.assertEqual((len(reachable(O)), len(reachable(X))), (2097, 2423))
        best = lambda p: correct_moves(p)[0]   # noqa: E731 (a perfect player)
        self.assertEqual(complete_share(best, BOTH), (4520, 4520))
        kept, _ = complete_share(lambda p: p.index(EMPTY), X)   # the first empty cell
        self.assertLess(kept, 2423)


class ConnectFourTest(unittest.TestCase):
    """Connect four's figures: seeded games, alone or with the search, and the kept share on
    the positions a solver scored once, by kind."""

    def test_results_repeat_and_count_every_game(self):
        net = init_neural_network(random.Random(1), 10, connect4, value_head=True)
        for search in (0, 3):
            first = c4_results(player(net, search), games=4)
            self.assertEqual(c4_results(player(net, search), games=4), first)
            self.assertEqual(sorted(first), sorted(list(C4_PLAYERS) + ["kept"]))
            for name in C4_PLAYERS:
                for side in (X, O):
                    self.assertEqual(sum(first[name][side]), 4, (name, side))
            self.assertEqual(sorted(first["kept"]), ["all", "block", "quiet", "win"])

    def test_the_kept_share_by_kind(self):
        # The tactical player keeps the value in every win and block position, and no more
        # than by chance in the quiet ones.
        kept = c4_kept(lambda board: connect4.get_tactical_move(board, random.Random(0)))
        self.assertEqual((kept["win"], kept["block"]), (1.0, 1.0))
        self.assertLess(kept["quiet"], 0.5)
        counts = {k: sum(what == k for _, _, what in c4_positions()) for k in KINDS}
        self.assertAlmostEqual(kept["all"], (counts["win"] + counts["block"]
                                             + kept["quiet"] * counts["quiet"]) / 1000)

    def test_the_kept_set(self):
        positions = c4_positions()
        self.assertGreaterEqual(len(positions), 400)
        for board, keep, what in positions:
            self.assertEqual(len(board), connect4.BOARD_CELLS)
            self.assertIsNone(connect4.check_game_over(board))
            open_columns = set(connect4.legal_moves(board))
            self.assertTrue(keep and keep < open_columns, board)   # some column changes it
            self.assertTrue(6 <= sum(cell != EMPTY for cell in board) <= 30)
            self.assertEqual(what, connect4.threat(board)[0])
        # A win at once always keeps a won game's value: those columns are in keep.
        for board, keep, what in positions:
            if what == "win":
                self.assertIn(connect4.winning_column(board, connect4.to_move(board)), keep)


if __name__ == "__main__":
    unittest.main()
