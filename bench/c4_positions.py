"""The connect-four positions of ttt-eval's "agreement with perfect play" (issue 39):
src/ttt_rl/data/c4_positions.txt, made once with the perfect solver bitbully.

bitbully (PyPI, AGPL) is a maintainer's and a test's dependency only, as Playwright is: the
package never imports it, and ttt-eval reads the shipped file. Run it in a venv of its own:

    python3 -m venv /tmp/bb && /tmp/bb/bin/pip install bitbully
    /tmp/bb/bin/python bench/c4_positions.py            # writes the file (about a minute)
    /tmp/bb/bin/python bench/c4_positions.py --check    # checks solver and file (below)

Conventions: 7 columns x 6 rows, X moves first, a move is a column 0-6 from the left, and a
position is its move sequence from the empty board as a string of digits ("3324").

How the set is made. One random.Random(SEED); for each candidate: a number of moves n drawn
with randint(6, 30), then a random game of up to n moves, each a uniformly random open column
(rng.choice over the open columns, left to right); the candidate is dropped if the game ended
on or before move n (a four, or a full board) or if its position (the board, however reached)
was drawn before. bitbully then scores every open column of the position; a score's sign
is the column's value for the player to move with perfect play on both sides: above 0 a win,
0 a draw, below 0 a loss (an immediately winning column scores highest, a win). The position's
value is its best column's; the columns whose value equals it keep the value. The position is
kept only if at least one open column does not (it changes the game's value). Until COUNT
positions are kept. Each line of the file: `MOVES KEEP VALUE`, e.g. `3324016 023 W`: KEEP the
value-keeping columns in increasing order, VALUE the position's value for the mover: W or D,
never L (in a lost position every column loses, so none changes the value).

--check verifies the use of bitbully on hand positions (an immediate win, a forced block, the
empty board, both movers); cross-checks with this script's own exact alpha-beta search, which
needs no solver, the file's 20 positions nearest the end of the game (5 of them draws) and 20
random positions of 25 to 30 moves; and compares bitbully's values with and without its
opening book on 20 positions of 10 to 13 moves. It writes nothing.
"""

import argparse
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "src", "ttt_rl", "data", "c4_positions.txt")
SEED = 2026
COUNT = 1000
MOVES = (6, 30)            # the range of moves played before a position, both included
COLUMNS, ROWS = 7, 6
BOOK = "12-ply-dist"       # bitbully's opening book (its default); exact values
WDL = {1: "W", 0: "D", -1: "L"}


# --- The game, standard library only: a board is a list of 7 columns, each a list of the
# pieces from the bottom up (0 for X, 1 for O).

def four_through(board, column):
    """Whether the top piece of `column` makes four in a row."""
    row = len(board[column]) - 1
    piece = board[column][row]
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            c, r = column + sign * dc, row + sign * dr
            while 0 <= c < COLUMNS and 0 <= r < len(board[c]) and board[c][r] == piece:
                count += 1
                c, r = c + sign * dc, r + sign * dr
        if count >= 4:
            return True
    return False


def open_columns(board):
    return [c for c in range(COLUMNS) if len(board[c]) < ROWS]


def random_position(rng):
    """A candidate: the moves of a random game of randint(6, 30) moves, or None if the game
    ended on or before its last move."""
    board, moves = [[] for _ in range(COLUMNS)], []
    for ply in range(rng.randint(*MOVES)):
        column = rng.choice(open_columns(board))
        board[column].append(ply % 2)
        moves.append(column)
        if four_through(board, column) or not open_columns(board):
            return None
    return "".join(map(str, moves)), board


# --- The solver.

def solver():
    from bitbully import BitBully
    return BitBully(opening_book=BOOK)


def column_values(agent, moves):
    """{open column: its value for the player to move, 1 win, 0 draw, -1 loss} by bitbully."""
    from bitbully import Board
    scores = agent.score_all_moves(Board(moves))
    return {column: (score > 0) - (score < 0) for column, score in scores.items()}


def make_set(agent, rng, count):
    """Return [(moves, keep, value)] and the number of candidates drawn."""
    rows, seen, drawn = [], set(), 0
    while len(rows) < count:
        drawn += 1
        candidate = random_position(rng)
        if candidate is None:
            continue
        moves, board = candidate
        key = tuple(tuple(column) for column in board)
        if key in seen:
            continue
        seen.add(key)
        values = column_values(agent, moves)
        if sorted(values) != open_columns(board):
            sys.exit("c4_positions: bitbully's columns differ from ours at %s" % moves)
        best = max(values.values())
        keep = [c for c in sorted(values) if values[c] == best]
        if len(keep) < len(values):
            rows.append((moves, "".join(map(str, keep)), WDL[best]))
    return rows, drawn


def header(count, seed, version):
    return "\n".join([
        "# Connect-four positions for ttt-eval's agreement with perfect play (issue 39).",
        "# A line: MOVES KEEP VALUE. MOVES: the moves from the empty board, a digit each, the",
        "# column 0-6 from the left (7 columns x 6 rows, X first). KEEP: the open columns, in",
        "# increasing order, that keep the game's value (win, draw or loss for the player to",
        "# move, perfect play on both sides); at least one open column does not. VALUE: that",
        "# value for the player to move: W or D (in a lost position every column loses).",
        "# Made by: python bench/c4_positions.py --count %d --seed %d" % (count, seed),
        "# with bitbully %s (book %s): random games of randint(6, 30) moves, uniformly" % (
            version, BOOK),
        "# random open columns, positions distinct and not over, in the order drawn.",
    ]) + "\n"


# --- The checks (--check).

def exact_value(board, mover, memo):
    """The value for `mover` (to move) of a position that is not over: 1, 0 or -1, by a full
    negamax with alpha-beta on (-1, 0, 1) and a table of exact values. For short games only."""
    key = (mover, tuple(tuple(column) for column in board))
    if key in memo:
        return memo[key]
    columns = open_columns(board)
    best = -1
    for column in sorted(columns, key=lambda c: abs(c - 3)):
        board[column].append(mover)
        if four_through(board, column):
            value = 1
        elif len(columns) == 1 and len(board[column]) == ROWS:
            value = 0   # the board is full
        else:
            value = -exact_value(board, 1 - mover, memo)
        board[column].pop()
        best = max(best, value)
        if best == 1:
            break
    memo[key] = best
    return best


def own_column_values(moves):
    """{open column: value for the mover} by exact_value, as column_values gives them."""
    board = [[] for _ in range(COLUMNS)]
    for ply, ch in enumerate(moves):
        board[int(ch)].append(ply % 2)
    mover, values, memo = len(moves) % 2, {}, {}
    for column in open_columns(board):
        board[column].append(mover)
        if four_through(board, column):
            values[column] = 1
        elif not open_columns(board):
            values[column] = 0
        else:
            values[column] = -exact_value(board, 1 - mover, memo)
        board[column].pop()
    return values


HAND = [   # (moves, what it shows, the values bitbully must give, column by column)
    ("", "the empty board: the centre wins for X, 2 and 4 draw, the rest lose",
     {0: -1, 1: -1, 2: 0, 3: 1, 4: 0, 5: -1, 6: -1}),
    ("010101", "X to move wins at once in column 0; a column far from it lets O win",
     {0: 1, 2: -1, 3: -1, 4: -1, 5: -1, 6: -1}),
    ("606050", "X to move must block O's three in column 0, every other column loses",
     {1: -1, 2: -1, 3: -1, 4: -1, 5: -1, 6: -1}),
    ("6060501", "O to move wins at once in column 0: the score is the mover's (O's)",
     {0: 1}),
    ("60605016", "X to move must block O in column 0, which draws",
     {0: 0, 1: -1, 2: -1, 3: -1, 4: -1, 5: -1, 6: -1}),
]


def read_set(path):
    """The rows of a position file: [(moves, keep, value)]."""
    with open(path, encoding="utf-8") as f:
        return [tuple(line.split()) for line in f if line.strip() and line[0] != "#"]


def check(agent, path, seed, count):
    """Hand positions; the file's `count` positions nearest the end (a quarter of them its
    draws) against exact_value; `count` random positions of 25 to 30 moves against
    exact_value; `count` positions of 10 to 13 moves with and without bitbully's book.
    Return the number of disagreements."""
    from bitbully import BitBully
    bad = 0
    for moves, what, expected in HAND:
        got = column_values(agent, moves)
        ok = all(got[c] == v for c, v in expected.items())
        bad += not ok
        print("%s hand %-9r %s: %s" % ("ok  " if ok else "BAD ", moves, what, got))
    rows = sorted(read_set(path), key=lambda row: -len(row[0]))
    draws = [row for row in rows if row[2] == "D"][:count // 4]
    rows = draws + [row for row in rows if row not in draws][:count - len(draws)]
    start = time.process_time()
    for moves, keep, value in rows:
        values = own_column_values(moves)
        best = max(values.values())
        ours = ("".join(str(c) for c in sorted(values) if values[c] == best), WDL[best])
        bad += ours != (keep, value)
        print("%s file, alpha-beta %s: %s %s" % ("ok  " if ours == (keep, value) else "BAD ",
                                                 moves, keep, value))
    rng, done = random.Random(seed + 1), 0   # other positions than the file's
    while done < count:
        candidate = random_position(rng)
        if candidate is None or len(candidate[0]) < 25:
            continue
        moves = candidate[0]
        ours, theirs = own_column_values(moves), column_values(agent, moves)
        bad += ours != theirs
        done += 1
        print("%s alpha-beta %s: %s" % ("ok  " if ours == theirs else "BAD ", moves,
                                        "".join(WDL[theirs[c]] for c in sorted(theirs))))
    print("own alpha-beta: %d positions, %.1f s" % (2 * count, time.process_time() - start))
    plain, done = BitBully(opening_book=None), 0
    while done < count:   # positions in the book's reach, solved with and without it
        candidate = random_position(rng)
        if candidate is None or not 10 <= len(candidate[0]) <= 13:
            continue
        moves = candidate[0]
        with_book, without = column_values(agent, moves), column_values(plain, moves)
        bad += with_book != without
        done += 1
        print("%s book %s: %s" % ("ok  " if with_book == without else "BAD ", moves,
                                  "".join(WDL[with_book[c]] for c in sorted(with_book))))
    return bad


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=COUNT, help="positions (%(default)s)")
    parser.add_argument("--seed", type=int, default=SEED, help="(%(default)s)")
    parser.add_argument("--output", default=OUTPUT, help="the file (the package's)")
    parser.add_argument("--check", nargs="?", type=int, const=20, metavar="N",
                        help="check the solver and the file instead, N positions a kind (20)")
    args = parser.parse_args(argv)
    import bitbully
    agent = solver()
    if args.check is not None:
        bad = check(agent, args.output, args.seed, args.check)
        print("%d disagreements" % bad)
        return 1 if bad else 0
    start, cpu = time.time(), time.process_time()
    rows, drawn = make_set(agent, random.Random(args.seed), args.count)
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w", encoding="utf-8", newline="\n") as f:
        f.write(header(args.count, args.seed, bitbully.__version__))
        f.writelines("%s %s %s\n" % row for row in rows)
    print("%d positions of %d candidates drawn, %.1f s (%.1f s CPU): %s" % (
        len(rows), drawn, time.time() - start, time.process_time() - cpu, args.output))
    return 0


if __name__ == "__main__":
    sys.exit(main())
