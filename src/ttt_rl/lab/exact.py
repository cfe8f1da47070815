"""Exact strength of a network, and the best any learner can do with a
reward, by walking the game tree.

Training samples its win rates; but the net's move is deterministic and
the game is tiny, so every game it can play is walked and counted: exact
win, draw and loss rates against an opponent that picks uniformly among
empty cells; every complete game ("line") against every opponent strategy
(unbeatable: it loses none); in how many positions its move keeps the
minimax value. A policy maps a position (a 9-character string such as
"X...O....") to a move, so the same code measures a net and the optimal
policy of a reward (expectimax). The C has nothing like it: it samples.
"""

from functools import lru_cache

from ..game import BOTH, EMPTY, O, TIE, X, check_game_over, opponent, to_move
from ..nn import get_computer_move

START = EMPTY * 9                     # the empty board as a position string
RESULT_VALUE = {O: 1, TIE: 0, X: -1}  # game values, from O's point of view
TOLERANCE = 1e-12                     # expected rewards this close are equal


def _play(position, cell, symbol):   # the position after `symbol` plays `cell`
    return position[:cell] + symbol + position[cell + 1:]


def _empty_cells(position):   # the empty cells, a list of ints
    return [cell for cell, s in enumerate(position) if s == EMPTY]


@lru_cache(maxsize=None)
def minimax(position):
    """Return the value of `position` for O under perfect play by both: 1
    (O wins), 0 (draw) or -1 (X wins). Memoized: 5478 legal positions."""
    winner = check_game_over(position)
    if winner is not None:
        return RESULT_VALUE[winner]
    values = [minimax(_play(position, c, to_move(position))) for c in _empty_cells(position)]
    return max(values) if to_move(position) == O else min(values)


def correct_moves(position):
    """Return the cells that keep the minimax value of `position`."""
    return [c for c in _empty_cells(position)
            if minimax(_play(position, c, to_move(position))) == minimax(position)]


def net_policy(net):
    """Return the net's policy, position -> move, cached (positions recur)."""
    cache = {}

    def policy(position):
        if position not in cache:
            cache[position] = get_computer_move(net, list(position))
        return cache[position]
    return policy


def evaluate_policy(policy, start=START, side=O):
    """Measure `policy` playing `side` from `start` (any legal position).
    Returns a dict: win, draw, loss (floats summing to 1, against a random
    opponent); lines, lines_lost (complete games against every opponent
    strategy, and how many it loses); positions, optimal_positions (where
    it moves in those lines, and where its move keeps the minimax value);
    unbeatable (bool); losing_lines (move lists, X first); side."""
    mine, losing_lines, other = set(), [], opponent(side)

    def walk(position, moves):   # -> P(win), P(draw), P(loss), lines, lines lost
        winner = check_game_over(position)
        if winner is not None:
            if winner == other:
                losing_lines.append(moves)
            return winner == side, winner == TIE, winner == other, 1, winner == other
        if to_move(position) == other:
            # Every opponent move is a line of its own; a random opponent
            # picks each with probability 1 / (empty cells).
            cells = _empty_cells(position)
            win, draw, loss, lines, lost = (sum(c) for c in zip(
                *[walk(_play(position, c, other), moves + [c]) for c in cells]))
            return win / len(cells), draw / len(cells), loss / len(cells), lines, lost
        mine.add(position)   # the policy's turn: one move, one child
        move = policy(position)
        return walk(_play(position, move, side), moves + [move])

    win, draw, loss, lines, lost = walk(start, [])
    optimal = sum(minimax(_play(p, policy(p), side)) == minimax(p) for p in mine)
    return {"side": side, "win": float(win), "draw": float(draw), "loss": float(loss),
            "lines": lines, "lines_lost": int(lost), "positions": len(mine),
            "optimal_positions": optimal, "unbeatable": lost == 0,
            "losing_lines": losing_lines}


def evaluate_network(net, side=O):
    """Return evaluate_policy's dict for the net playing `side`. For BOTH,
    `sides` holds the dicts as O and as X; the net is unbeatable if both
    are, lines and positions are their sums, win, draw and loss means."""
    if side != BOTH:
        return evaluate_policy(net_policy(net), side=side)
    sides = [evaluate_policy(net_policy(net), side=s) for s in (O, X)]
    result = {k: sum(r[k] for r in sides) for k in ("lines", "lines_lost", "positions",
                                                      "optimal_positions")}
    result.update({k: sum(r[k] for r in sides) / 2 for k in ("win", "draw", "loss")})
    return dict(result, side=BOTH, sides=sides, unbeatable=not result["lines_lost"],
                losing_lines=sides[0]["losing_lines"] + sides[1]["losing_lines"])


@lru_cache(maxsize=None)
def reachable(side, position=START):
    """Return the positions with `side` to move reachable under any play."""
    if check_game_over(position) is not None:
        return frozenset()
    mover = to_move(position)
    below = frozenset().union(*(reachable(side, _play(position, c, mover))
                                for c in _empty_cells(position)))
    return below | {position} if mover == side else below


def complete_share(policy, side=O, start=START):
    """Return (kept, positions): in how many of the positions reachable from
    `start` under any play with `side` to move the policy's move keeps the
    minimax value (BOTH: the sums). A complete player keeps it in all."""
    found = [(s, p) for s in ((O, X) if side == BOTH else (side,)) for p in reachable(s, start)]
    return sum(minimax(_play(p, policy(p), s)) == minimax(p) for s, p in found), len(found)


@lru_cache(maxsize=None)
def random_vs_random(position=START):
    """Return {X: p, O: p, TIE: p} when both move at random from `position`."""
    winner = check_game_over(position)
    if winner is not None:
        return {k: float(winner == k) for k in (X, O, TIE)}
    below = [random_vs_random(_play(position, c, to_move(position)))
             for c in _empty_cells(position)]
    return {k: sum(b[k] for b in below) / len(below) for k in (X, O, TIE)}


def strength(result):
    """Return how well an evaluated net plays its side, from 0 (random) to 1
    (the best that never loses): its win minus loss rate, scaled."""
    side, odds = result["side"], random_vs_random()
    base = odds[side] - odds[opponent(side)]
    return (result["win"] - result["loss"] - base) / (best_safe_win_rate(side=side) - base)


@lru_cache(maxsize=None)
def best_safe_win_rate(position=START, side=O):
    """Return the highest P(win) against a random opponent of a `side` that
    never loses, from `position`: 0.9164 for O and 0.9948 for X."""
    winner = check_game_over(position)
    if winner is not None:
        return float(winner == side)
    cells, mover = _empty_cells(position), to_move(position)
    if mover != side:
        return sum(best_safe_win_rate(_play(position, c, mover), side) for c in cells) / len(cells)
    sign = 1 if side == O else -1   # minimax values are O's
    return max(best_safe_win_rate(_play(position, c, side), side) for c in cells
               if sign * minimax(_play(position, c, side)) >= 0)


# The best policy for a reward, by expectimax: at the opponent's turn the
# average over its moves, at ours the best (Russell and Norvig, AIMA, 5.5;
# Sutton and Barto compute v* with a full model in chapter 4).
@lru_cache(maxsize=None)
def expected_reward(position, side, rewards):
    """Return the highest expected reward, `rewards` being (win, tie, loss),
    of a player of `side` against a random opponent from `position`."""
    winner = check_game_over(position)
    if winner is not None:
        return rewards[1] if winner == TIE else rewards[0] if winner == side else rewards[2]
    values = [expected_reward(_play(position, c, to_move(position)), side, rewards)
              for c in _empty_cells(position)]
    return max(values) if to_move(position) == side else sum(values) / len(values)


def optimal_policy(rewards, side=O):
    """Return the optimal policy for `rewards` (win, tie, loss) as `side`;
    on equal expected rewards the lowest cell, as the net breaks ties."""
    rewards = tuple(float(r) for r in rewards)

    def policy(position):
        cells = _empty_cells(position)
        values = [expected_reward(_play(position, c, side), side, rewards) for c in cells]
        return next(c for c, v in zip(cells, values) if v >= max(values) - TOLERANCE)
    return policy


def optimum(rewards, side=O):
    """Return evaluate_policy's dict for the optimal policy of `rewards`,
    with its expected_reward and the rewards."""
    rewards = tuple(float(r) for r in rewards)
    result = evaluate_policy(optimal_policy(rewards, side), side=side)
    return dict(result, expected_reward=expected_reward(START, side, rewards), rewards=rewards)


def rank(result):
    """Sort key of an evaluation, strongest first: unbeatable, fewest lines
    lost, most wins."""
    return not result["unbeatable"], result["lines_lost"], -result["win"]
