"""Exact evaluation (lab/exact.py): minimax, tree walks, correct moves, the
limit of a never-losing player, and the optimum of a reward (expectimax)."""

import functools
import math
import random
import unittest

from ttt_rl.game import BOTH, EMPTY, O, X, check_game_over, get_random_move, to_move
from ttt_rl.lab.exact import (START, best_safe_win_rate, complete_share, correct_moves,
                              evaluate_network, evaluate_policy, minimax,
                              net_policy, reachable)
from ttt_rl.weights import load

from ..helpers import C_FILE

C_REWARD = (1.0, 0.3, -2.0)      # ttt.c: win, tie, loss
C_README_REWARD = (1.0, 0.2, -1.0)


def first_empty(position):
    """A fixed policy for O: the lowest empty cell."""
    return position.index(EMPTY)


class MinimaxTest(unittest.TestCase):
    """minimax gives the game-theoretic value of a position, for O."""

    def test_known_values(self):
        self.assertEqual(minimax(START), 0)           # perfect play draws
        self.assertEqual(minimax("OOO.XX.X."), 1)     # finished: O won
        self.assertEqual(minimax("XXX.OO..."), -1)    # finished: X won
        # O to move, X threatens 8 (0-4-8) and 6 (2-4-6) at once: a fork.
        self.assertEqual(minimax("XOX.XO..."), -1)
        # O to move and can complete 6-7-8: won.
        self.assertEqual(minimax("XX..X.OO."), 1)
        # X in a corner, O answers on the adjacent edge: X forces a win.
        self.assertEqual(minimax("XO......."), -1)
        self.assertEqual(minimax("X...O...."), 0)


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
        self.assertEqual(result["losing_lines"], [[6]])
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
        self.assertEqual(result["losing_lines"], [[0], [1, 0, 2], [2]])
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
            losing = []

            def walk(board, moves):
                nonlocal lines, lost, wins
                winner = check_game_over(board)
                if winner is not None:
                    lines += 1
                    wins += winner == side
                    if winner == other:
                        lost += 1
                        losing.append(moves)
                    return
                mover = X if board.count(X) == board.count(O) else O
                if mover == other:
                    for cell in range(9):
                        if board[cell] == EMPTY:
                            walk(board[:cell] + [other] + board[cell + 1:], moves + [cell])
                else:
                    positions.add("".join(board))
                    cell = first_empty("".join(board))
                    walk(board[:cell] + [side] + board[cell + 1:], moves + [cell])

            walk([EMPTY] * 9, [])
            result = evaluate_policy(first_empty, side=side)
            self.assertEqual(result["side"], side)
            self.assertEqual(result["lines"], lines, side)
            self.assertEqual(result["lines_lost"], lost, side)
            self.assertEqual(result["positions"], len(positions), side)
            self.assertEqual(result["losing_lines"], losing, side)
            self.assertGreater(wins, 0)
        # As X, the first-empty policy plays 0, 1, 2...: a random O that
        # never blocks loses to the top row.
        self.assertEqual(evaluate_policy(first_empty, side=X)["losing_lines"][0][:2], [0, 1])


class LimitTest(unittest.TestCase):
    """The best win rate of a player that never loses, computed by search."""

    def test_never_losing_o_wins_at_most_91_64_percent(self):
        self.assertEqual(round(best_safe_win_rate(), 4), 0.9164)

    def test_never_losing_x_wins_at_most_99_48_percent(self):
        self.assertEqual(round(best_safe_win_rate(side=X), 4), 0.9948)

    def test_limit_from_a_won_position(self):
        # O to move with 6-7-8 open: a never-losing O wins for sure.
        self.assertEqual(best_safe_win_rate("XX..X.OO."), 1.0)

    def test_the_limit_is_a_search_over_never_losing_moves(self):
        # best_safe_win_rate is an expected reward that makes any loss unacceptable. Searched
        # here directly: at the player's turn the best of the moves that keep at least a draw
        # under perfect play, at the random opponent's the mean. Equal to the last bit.
        @functools.lru_cache(maxsize=None)
        def safe_win(position, side):
            winner = check_game_over(position)
            if winner is not None:
                return float(winner == side)
            mover = to_move(position)
            children = [position[:c] + mover + position[c + 1:]
                        for c in range(9) if position[c] == EMPTY]
            if mover != side:
                return sum(safe_win(child, side) for child in children) / len(children)
            sign = 1 if side == O else -1   # minimax values are O's
            return max(safe_win(child, side) for child in children if sign * minimax(child) >= 0)

        for side in (O, X):
            self.assertEqual(best_safe_win_rate(side=side), safe_win(START, side), side)
        self.assertEqual(best_safe_win_rate("X...O....", O), safe_win("X...O....", O))


class NetworkTest(unittest.TestCase):
    """A net is measured as its policy; both sides add up."""

    def test_both_sides(self):
        net = load(C_FILE)
        as_o, as_x = evaluate_network(net, O), evaluate_network(net, X)
        self.assertEqual(as_o, evaluate_policy(net_policy(net), side=O))
        both = evaluate_network(net, BOTH)
        self.assertEqual((both["side"], both["sides"]), (BOTH, [as_o, as_x]))
        for key in ("lines", "lines_lost", "positions", "optimal_positions", "losing_lines"):
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


class CorrectMovesTest(unittest.TestCase):
    """Correct moves keep the minimax value."""

    def test_correct_moves(self):
        self.assertEqual(correct_moves("X........"), [4])
        self.assertEqual(correct_moves("....X...."), [0, 2, 6, 8])
        self.assertEqual(correct_moves("XX..O...."), [2])


if __name__ == "__main__":
    unittest.main()
