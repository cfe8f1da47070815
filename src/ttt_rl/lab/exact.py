"""The strength of a network, and the words that say it.

Tic-tac-toe's is exact, where the C samples: the net's move is deterministic and the game tiny,
so every game it can play is walked (policy_iteration.game_tree(), 4,520 positions) and each
move checked against minimax. A policy maps a position ("X...O....") to a cell, 0-8. Connect
four's is measured (c4_results): seeded games against two players, and the kept share on
positions a solver scored once (data/c4_positions.txt).
"""

import random
from functools import cache
from importlib import resources

from .. import connect4
from ..game import BOTH, O, TIE, X, check_game_over, opponent, to_move
from ..expert_iteration import player
from ..learn import play_against_random
from ..nn import get_computer_move
from ..policy_iteration import START, correct_moves, game_tree
from ..weights import rules_of


def net_policy(net):
    """Return the net's policy, position -> move, cached (positions recur)."""
    return cache(lambda position: get_computer_move(net, list(position)))


def evaluate_policy(policy, start=START, side=O):
    """Measure `policy` as `side` from `start`; return a dict: side; win, draw, loss against a
    random opponent; lines (games against every opponent strategy), lines_lost, unbeatable;
    positions (those it moves in), optimal_positions (those where it keeps the minimax value)."""
    mine, other = set(), opponent(side)

    def walk(position):   # -> P(win), P(draw), P(loss), lines, lines lost
        winner = check_game_over(position)
        if winner is not None:
            return winner == side, winner == TIE, winner == other, 1, int(winner == other)
        if to_move(position) == side:
            mine.add(position)   # the policy's turn: one move, one child
            move = policy(position)
            return walk(position[:move] + side + position[move + 1:])
        # Each opponent move starts lines of its own; a random opponent picks each equally.
        below = [walk(after) for after, _ in game_tree()[position].values()]
        win, draw, loss, lines, lost = map(sum, zip(*below))
        return win / len(below), draw / len(below), loss / len(below), lines, lost

    win, draw, loss, lines, lost = walk(start)
    return {"side": side, "win": float(win), "draw": float(draw), "loss": float(loss),
            "lines": lines, "lines_lost": lost, "positions": len(mine),
            "optimal_positions": sum(policy(p) in correct_moves(p) for p in mine),
            "unbeatable": not lost}


def evaluate_network(net, side=O):
    """Return evaluate_policy's dict for the net as `side`. For BOTH, `sides` holds the dicts as
    O and as X, and win, draw and loss are their means, the counts their sums."""
    if side != BOTH:
        return evaluate_policy(net_policy(net), side=side)
    sides = [evaluate_policy(net_policy(net), side=s) for s in (O, X)]
    result = {k: sides[0][k] + sides[1][k] for k in sides[0] if k not in ("side", "unbeatable")}
    result.update({k: result[k] / 2 for k in ("win", "draw", "loss")})   # means, not sums
    return dict(result, side=BOTH, sides=sides, unbeatable=not result["lines_lost"])


def complete_share(policy, side=O):
    """Return (kept, positions): of the positions with `side` to move reachable under any play
    (both sides: all 4,520), those where the policy's move keeps the minimax value."""
    found = [p for p in game_tree() if side in (BOTH, to_move(p))]
    return sum(policy(p) in correct_moves(p) for p in found), len(found)


def verdict(result):
    """Return 'unbeatable, 87.8% wins' or 'loses 10 lines, 83.7% wins' (both sides: 'as O ...;
    as X ...')."""
    if "sides" in result:
        return "; ".join("as %s %s" % (r["side"], verdict(r)) for r in result["sides"])
    lost = result["lines_lost"]
    return "%s, %.1f%% wins" % ("loses %d line%s" % (lost, "s" * (lost != 1)) if lost
                                else "unbeatable", 100 * result["win"])


def describe(net, side=O, search=0):
    """Return (lines, result): ttt-eval's lines for `net` and their figures. Tic-tac-toe's as
    `side` (both: each): evaluate_network's dict with complete_share's figures, complete_kept
    and complete_positions. Connect four's: c4_results of the net alone, game "connect4", and
    with `search` > 0, with_search: the same through its search (C4_SEARCH_GAMES games)."""
    if rules_of(net) is connect4:
        result = dict(game="connect4", **c4_results(player(net)))
        lines = c4_lines(result)
        if search:
            searched = dict(c4_results(player(net, search), C4_SEARCH_GAMES), search=search)
            result["with_search"] = searched
            lines += c4_lines(searched, "With its search, %d simulations a move" % search)
        return lines, result
    result = evaluate_network(net, side)
    kept, positions = complete_share(net_policy(net), side)
    result.update(complete_kept=kept, complete_positions=positions)
    return summary_lines(result) + [
        "Under any play: keeps the minimax value in %d of %d positions (%.1f%%)"
        % (kept, positions, 100 * kept / positions)], result


def summary_lines(result):
    """Return the exact evaluation `result` in words, as a list of lines (ttt-eval's figures)."""
    if "sides" in result:
        return [line for r in result["sides"] for line in summary_lines(r)]
    side, other = result["side"], opponent(result["side"])
    kept, positions = result["optimal_positions"], max(result["positions"], 1)
    return ["Exact as %s vs random %s: win %.3f%%, draw %.3f%%, loss %.3f%%"
            % (side, other, *(100 * result[k] for k in ("win", "draw", "loss"))),
            "Every %s strategy: %d lines, %d lost: %s" % (
                other, result["lines"], result["lines_lost"],
                "unbeatable" if result["unbeatable"] else "beatable"),
            "Optimal moves: %d of %d positions (%.1f%%)"
            % (kept, positions, 100 * kept / positions)]


C4_GAMES = 1000          # seeded games a side against each player, the net alone
C4_SEARCH_GAMES = 200    # the same with its search (a move costs a search)
C4_PLAYERS = {"random": connect4.get_random_move, "tactical": connect4.get_tactical_move}
KINDS = ("win", "block", "quiet")   # connect4.threat's, in the order they are printed


@cache
def c4_positions():
    """Return the kept set, a tuple of (board, the columns that keep the game's value, kind):
    positions of random games where some column changes the value (bench/c4_positions.py)."""
    text = resources.files("ttt_rl").joinpath("data", "c4_positions.txt").read_text()
    positions = []
    for line in text.splitlines():
        if line and not line.startswith("#"):
            moves, keep = line.split()[:2]
            board = connect4.init_game()
            for ply, column in enumerate(moves):
                connect4.play_move(board, int(column), X if ply % 2 == 0 else O)
            positions.append((board, {int(c) for c in keep}, connect4.threat(board)[0]))
    return tuple(positions)


def c4_kept(player, positions=None):
    """Return {"all": share, "win": share, "block": share, "quiet": share}: of `positions`
    (default c4_positions()), the share where player(board) -> column keeps the value."""
    hits = {k: [] for k in KINDS}
    for board, keep, what in c4_positions() if positions is None else positions:
        hits[what].append(player(board) in keep)
    hits = dict(all=[hit for k in KINDS for hit in hits[k]], **hits)
    return {k: sum(v) / max(len(v), 1) for k, v in hits.items()}


def c4_results(player, games=C4_GAMES):
    """Return connect four's figures of `player` (board -> column): {"random": {X: [wins,
    draws, losses], O: [...]}, "tactical": {...}, "kept": c4_kept's}; `games` a side against
    each player, drawn from random.Random(0): the same on every run."""
    results = {name: {} for name in C4_PLAYERS}
    for name, opponent_move in C4_PLAYERS.items():
        for side in (X, O):
            rng = random.Random(0)
            winners = [play_against_random(player, rng, side, opponent_move, connect4)[0]
                       for _ in range(games)]
            results[name][side] = [winners.count(w) for w in (side, TIE, opponent(side))]
    return dict(results, kept=c4_kept(player))


def c4_lines(results, title="The net alone"):
    """Return c4_results in words, as a list of lines under `title`."""
    lines = [title]
    for name in C4_PLAYERS:
        for side, order in ((X, "first"), (O, "second")):
            won, drawn, lost = (100 * n / sum(results[name][side]) for n in results[name][side])
            lines.append("Against the %s player as %s (%s), %d games: %.1f%% won, %.1f%% drawn, "
                         "%.1f%% lost" % (name, side, order, sum(results[name][side]), won,
                                          drawn, lost))
    kept = results["kept"]
    return lines + ["Keeps the perfect-play value in %.1f%% of %d positions; by kind: %s" % (
        100 * kept["all"], len(c4_positions()), ", ".join(
            "%s %.1f%%" % (k, 100 * kept[k]) for k in KINDS))]
