"""Exact strength of a trained network, by walking the game tree.

Training reports win rates sampled over the last 10000 random games: noisy,
and blind to rare losing lines. But the network's move is deterministic and
the game is tiny, so we can walk every game it can play and count exactly:

- against an opponent that picks uniformly among empty cells: P(win),
  P(draw), P(loss), as sums over the game tree, not samples;
- against every opponent strategy: every complete game ("line") with the
  opponent playing any legal move and the network answering; the net is
  unbeatable when it loses none of them;
- move quality: in how many of the positions the net meets in those lines
  its move keeps the game-theoretic (minimax) value.

The network plays O (the default, as in the C) or X. A policy is a
function from a position (a 9-character string such as "X...O....") to a
move, so the same code measures the network and the simple fixed policies
used in the tests. The C program has nothing like it: it only samples.
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
    return [cell for cell, s in enumerate(position) if s == EMPTY]


@lru_cache(maxsize=None)
def minimax(position):
    """Return the value of `position` for O under perfect play by both.

    Takes a 9-character position string; whoever has fewer pieces moves
    (X on a tie, since X starts). Returns 1 (O wins), 0 (draw) or -1 (X
    wins). Memoized: tic-tac-toe has only 5478 legal positions.
    """
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
    """Return the network's policy: position string -> the net's move (0-8),
    for whichever side is to move.

    The move is chosen exactly as in play (nn.get_computer_move) and cached
    per position, since the same positions recur in many lines.
    """
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
    """Measure a policy exactly, against a random player and against any.

    Takes the policy, the position to start from (default: the empty board;
    any legal position works, which the tests use on small trees) and the
    side the policy plays (O or X; the opponent is the other). Returns a
    dict: win, draw, loss (floats summing to 1: the policy's outcome
    probabilities against a uniformly random opponent); lines, lines_lost
    (ints: complete games against every opponent strategy, and how many the
    opponent wins); positions, optimal_positions (ints: distinct positions
    with the policy to move in those lines, and in how many its move keeps
    the minimax value); unbeatable (bool); losing_lines (list of move lists,
    X first); side.
    """
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
    """Return the highest P(win) against a uniformly random opponent for a
    player of `side` that never loses, from `position` (default: empty).

    Such a player may only move to positions whose minimax value is not a
    loss for it; among those it picks the move with the best win rate. From
    the empty board this is about 0.9164 for O and 0.9948 for X: no network
    can do better without losing.
    """
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
