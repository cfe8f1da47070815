"""The best any learner can do with given rewards, computed exactly.

Against a random opponent, a reward (win, tie, loss) defines the best
possible policy: the one with the highest expected reward. The game is
small, so expectimax finds it exactly: at the opponent's turn average over
its moves (each equally likely), at ours take the best move (Russell and
Norvig, "Artificial Intelligence: A Modern Approach", section 5.5; Sutton
and Barto call this computing v* with a full model, chapter 4).

It tells what a reward asks for before any network learns: the C's reward
(1, 0.3, -2) is best served by an O that never loses and wins 91.64% of
its games; with a tie worth 0 the best O wins more often but can be
beaten. No C counterpart.
"""

from functools import lru_cache

from ..game import O, TIE, check_game_over
from .exact import _empty_cells, _play, evaluate_policy, to_move

TOLERANCE = 1e-12   # expected rewards closer than this count as equal


@lru_cache(maxsize=None)
def expected_reward(position, side, rewards):
    """Return the highest expected reward from `position` (a 9-character
    string) for a player of `side` against a uniformly random opponent.

    `rewards` is a tuple (win, tie, loss) of floats. Memoized.
    """
    winner = check_game_over(position)
    if winner is not None:
        win, tie, loss = rewards
        return tie if winner == TIE else win if winner == side else loss
    mover = to_move(position)
    values = [expected_reward(_play(position, c, mover), side, rewards)
              for c in _empty_cells(position)]
    # Chance node: the opponent picks each cell with equal probability.
    # Max node: we pick the best move.
    return max(values) if mover == side else sum(values) / len(values)


def optimal_policy(rewards, side=O):
    """Return the optimal policy for `rewards` (win, tie, loss) as `side`:
    a function from a position string to a move (0-8). On equal expected
    rewards the lowest cell is played, as the network breaks ties."""
    rewards = tuple(float(r) for r in rewards)

    def policy(position):
        cells = _empty_cells(position)
        values = [expected_reward(_play(position, c, side), side, rewards) for c in cells]
        best = max(values)
        return next(c for c, v in zip(cells, values) if v >= best - TOLERANCE)
    return policy


def optimum(rewards, side=O):
    """Return the exact result of the optimal policy for `rewards` (win,
    tie, loss) as `side`: the dict of exact.evaluate_policy (win, draw,
    loss, lines_lost, unbeatable, ...) plus expected_reward (a float)."""
    result = evaluate_policy(optimal_policy(rewards, side), side=side)
    start = "." * 9
    result["expected_reward"] = expected_reward(start, side, tuple(float(r) for r in rewards))
    result["rewards"] = tuple(rewards)
    return result
