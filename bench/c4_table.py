"""Connect four's table in the README: every row measured the same way, by ttt-eval's own code.

    python3 bench/c4_table.py PLAYER [--search N] [--games G]

PLAYER is `random` (a random open column), `tactical` (win at once, else block, else random:
connect4.get_tactical_move), `uniform` (the search alone: PUCT with a uniform prior, each new
position judged by one random game to the end; needs --search), or a weights file (the net
alone, or with --search N its search, as `ttt-eval FILE --search N` measures it). Prints one
Markdown row: the wins against the random and the tactical player, first / second (G seeded
games a side; default ttt-eval's: 1,000 without a search, 200 with one), the kept share on
the 1,000 positions (all, win, block, quiet), and the mean time a move on those positions
(on the interpreter that runs it).
PyPy runs it several times faster than CPython.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "src"))

from ttt_rl import connect4  # noqa: E402
from ttt_rl.expert_iteration import player, search_move  # noqa: E402
from ttt_rl.game import O, X  # noqa: E402
from ttt_rl.lab import exact  # noqa: E402
from ttt_rl.weights import load  # noqa: E402


def uniform(board):
    """The search alone's guide: the same probability for every open column, no value."""
    legal = connect4.legal_moves(board)
    return [1 / len(legal) if column in legal else 0.0 for column in range(7)], None


def player_of(name, search):
    """Return the player `name` stands for: board -> column."""
    rng = random.Random(0)
    if name == "random":
        return lambda board: connect4.get_random_move(board, rng)
    if name == "tactical":
        return lambda board: connect4.get_tactical_move(board, rng)
    if name == "uniform":
        return lambda board: search_move(uniform, board, search, random.Random(0))[0]
    return player(load(name), search)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("player", metavar="PLAYER")
    parser.add_argument("--search", type=int, default=0, metavar="N")
    parser.add_argument("--games", type=int, metavar="G")
    args = parser.parse_args()
    if args.player == "uniform" and not args.search:
        parser.error("uniform is the search alone: give --search N")
    player = player_of(args.player, args.search)
    exact.c4_positions()   # read once, before the clock starts
    start = time.perf_counter()
    kept = exact.c4_kept(player)
    per_move = (time.perf_counter() - start) / len(exact.c4_positions())
    games = args.games or (exact.C4_SEARCH_GAMES if args.search else exact.C4_GAMES)
    results = exact.c4_results(player, games)
    share = {name: ["%.1f%%" % (100 * results[name][side][0] / games) for side in (X, O)]
             for name in exact.C4_PLAYERS}
    print("| %s%s | %s | %s | %s | %s |" % (
        args.player, " + search %d" % args.search if args.search else "",
        " / ".join(share["random"]), " / ".join(share["tactical"]),
        " | ".join("%.1f%%" % (100 * kept[k]) for k in ("all",) + exact.KINDS),
        "%.1f ms" % (1000 * per_move)), flush=True)


if __name__ == "__main__":
    main()
