"""Exact strength of a trained network, and the best any learner can do
with a reward, by walking the game tree.

Training samples its win rates; but the net's move is deterministic and
the game is tiny, so every game it can play is walked and counted: the
exact win, draw and loss probabilities against an opponent that picks
uniformly among empty cells; every complete game ("line") against every
opponent strategy (the net is unbeatable when it loses none); in how many
positions its move keeps the game-theoretic (minimax) value. A policy is a
function from a position (a 9-character string such as "X...O....") to a
move, so the same code measures the net and the optimal policy of a
reward (expectimax). The C has nothing like it: it only samples.
"""

from functools import lru_cache

from ..game import EMPTY, O, TIE, X, check_game_over, opponent
from ..nn import get_computer_move

START = EMPTY * 9          # the empty board as a position string
RESULT_VALUE = {O: 1, TIE: 0, X: -1}  # game values, from O's point of view


def _play(position, cell, symbol):
    """Return `position` with `symbol` placed at `cell`."""
    return position[:cell] + symbol + position[cell + 1:]


def _empty_cells(position):
    """Return the empty cells of `position`, a list of ints."""
    return [cell for cell, s in enumerate(position) if s == EMPTY]


@lru_cache(maxsize=None)
def minimax(position):
    """Return the value of `position` (a 9-character string) for O under
    perfect play by both: 1 (O wins), 0 (draw) or -1 (X wins). Memoized:
    tic-tac-toe has only 5478 legal positions."""
    winner = check_game_over(position)
    if winner is not None:
        return RESULT_VALUE[winner]
    mover = to_move(position)
    values = [minimax(_play(position, c, mover)) for c in _empty_cells(position)]
    return max(values) if mover == O else min(values)


def correct_moves(position):
    """Return the moves (a list of cells) that keep the minimax value of
    `position` for the player to move."""
    mover = to_move(position)
    return [c for c in _empty_cells(position)
            if minimax(_play(position, c, mover)) == minimax(position)]


def net_policy(net):
    """Return the network's policy: position string -> its move (0-8), as
    in play (nn.get_computer_move), cached: positions recur in many lines."""
    cache = {}

    def policy(position):
        if position not in cache:
            cache[position] = get_computer_move(net, list(position))
        return cache[position]
    return policy


def to_move(position):
    """Return X or O: whose turn it is (X moves first)."""
    return X if position.count(X) == position.count(O) else O


def evaluate_policy(policy, start=START, side=O):
    """Measure a policy playing `side` from `start` (any legal position),
    against a random player and against any. Returns a dict: win, draw,
    loss (floats summing to 1, against a uniformly random opponent); lines,
    lines_lost (ints: complete games against every opponent strategy, and
    how many it loses); positions, optimal_positions (ints: positions where
    it moves in those lines, and in how many its move keeps the minimax
    value); unbeatable (bool); losing_lines (move lists, X first); side."""
    mine = set()
    losing_lines = []
    other = opponent(side)

    def walk(position, moves):
        # Returns (P(win), P(draw), P(loss), lines, lines lost) below here.
        winner = check_game_over(position)
        if winner is not None:
            if winner == other:
                losing_lines.append(moves)
            return (winner == side, winner == TIE, winner == other, 1, winner == other)
        if to_move(position) == other:
            # The opponent's turn: every cell is a line of its own, and a
            # random opponent picks each with probability 1/len(cells).
            cells = _empty_cells(position)
            below = [walk(_play(position, c, other), moves + [c]) for c in cells]
            win, draw, loss, lines, lost = (sum(c) for c in zip(*below))
            share = 1.0 / len(cells)
            return win * share, draw * share, loss * share, lines, lost
        # The policy's turn: it answers, so this position has one child.
        mine.add(position)
        move = policy(position)
        return walk(_play(position, move, side), moves + [move])

    win, draw, loss, lines, lost = walk(start, [])
    optimal = sum(minimax(_play(p, policy(p), side)) == minimax(p) for p in mine)
    return {"side": side, "win": float(win), "draw": float(draw), "loss": float(loss),
            "lines": lines, "lines_lost": int(lost),
            "positions": len(mine), "optimal_positions": optimal,
            "unbeatable": lost == 0, "losing_lines": losing_lines}


def evaluate_network(net, side=O):
    """Measure a network playing `side` exactly; returns the dict of
    evaluate_policy."""
    return evaluate_policy(net_policy(net), side=side)


@lru_cache(maxsize=None)
def random_vs_random(position=START):
    """Return {X: p, O: p, TIE: p}: how a game from `position` ends when
    both players pick uniformly among empty cells (X wins 58.5% from the
    empty board: moving first is worth a lot)."""
    winner = check_game_over(position)
    if winner is not None:
        return {X: float(winner == X), O: float(winner == O), TIE: float(winner == TIE)}
    cells, mover = _empty_cells(position), to_move(position)
    below = [random_vs_random(_play(position, c, mover)) for c in cells]
    return {k: sum(b[k] for b in below) / len(cells) for k in (X, O, TIE)}


def strength(result):
    """Return how much better than a random player an evaluated net plays
    its side: 0 for random play, 1 for the best that never loses (win minus
    loss rate against a random opponent, scaled between the two)."""
    side = result["side"]
    odds = random_vs_random()
    base = odds[side] - odds[opponent(side)]
    return (result["win"] - result["loss"] - base) / (best_safe_win_rate(side=side) - base)


@lru_cache(maxsize=None)
def best_safe_win_rate(position=START, side=O):
    """Return the highest P(win) against a random opponent of a player of
    `side` that never loses (it moves only where minimax says it cannot
    lose), from `position`: 0.9164 for O and 0.9948 for X from the start."""
    winner = check_game_over(position)
    if winner is not None:
        return 1.0 if winner == side else 0.0
    cells = _empty_cells(position)
    mover = to_move(position)
    if mover != side:
        return sum(best_safe_win_rate(_play(position, c, mover), side)
                   for c in cells) / len(cells)
    sign = 1 if side == O else -1   # minimax values are O's
    return max(best_safe_win_rate(_play(position, c, side), side) for c in cells
               if sign * minimax(_play(position, c, side)) >= 0)


# The best policy for a reward, by expectimax: at the opponent's turn the
# average over its moves, at ours the best move (Russell and Norvig, AIMA,
# 5.5; Sutton and Barto compute v* with a full model in chapter 4).
TOLERANCE = 1e-12   # expected rewards closer than this count as equal


@lru_cache(maxsize=None)
def expected_reward(position, side, rewards):
    """Return the highest expected reward, `rewards` being (win, tie, loss),
    of a player of `side` against a random opponent from `position`."""
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
    """Return the evaluate_policy dict of the optimal policy for `rewards`
    (win, tie, loss) as `side`, with its expected_reward and the rewards."""
    result = evaluate_policy(optimal_policy(rewards, side), side=side)
    rewards = tuple(float(r) for r in rewards)
    return dict(result, expected_reward=expected_reward(START, side, rewards), rewards=rewards)
