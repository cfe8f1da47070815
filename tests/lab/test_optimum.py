"""The optimum of a reward (lab/optimum.py), computed by expectimax, checked
against hand-made positions and the never-losing limit of exact.py."""

import unittest

from ttt_rl.game import O, X
from ttt_rl.lab.exact import START, best_safe_win_rate
from ttt_rl.lab.optimum import expected_reward, optimal_policy, optimum

C_REWARD = (1.0, 0.3, -2.0)      # ttt.c: win, tie, loss
C_README_REWARD = (1.0, 0.2, -1.0)


class OptimumTest(unittest.TestCase):
    """What each reward asks for, exactly."""

    def test_the_c_reward_asks_for_an_unbeatable_o(self):
        best = optimum(C_REWARD)
        self.assertTrue(best["unbeatable"])
        # ...and the best such O: the never-losing limit, 91.64%.
        self.assertAlmostEqual(best["win"], best_safe_win_rate(), places=12)
        self.assertAlmostEqual(best["win"], 0.9164, places=4)

    def test_a_tie_worth_nothing_asks_for_risk(self):
        for reward in ((1.0, 0.0, -2.0), C_README_REWARD):
            best = optimum(reward)
            self.assertEqual((best["lines_lost"], round(best["win"], 4)), (4, 0.9291), reward)

    def test_as_x(self):
        best = optimum(C_REWARD, X)
        self.assertTrue(best["unbeatable"])
        self.assertAlmostEqual(best["win"], best_safe_win_rate(side=X), places=12)

    def test_expectimax_on_small_positions(self):
        # O to move can win at once (6-7-8): the reward of a win.
        self.assertEqual(expected_reward("XX..X.OO.", O, C_REWARD), 1.0)
        # X to move, one cell left: it makes no line, a tie.
        self.assertEqual(expected_reward("XOXXOOOX.", O, C_REWARD), 0.3)
        # O to move must block at 2; then X (random) has 4 cells: the
        # expectation averages them. The policy blocks.
        self.assertEqual(optimal_policy(C_REWARD)("XX..O...."), 2)
        # Any reward's value lies between the loss and the win reward.
        self.assertTrue(-2.0 <= expected_reward(START, O, C_REWARD) <= 1.0)


if __name__ == "__main__":
    unittest.main()
