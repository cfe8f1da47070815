"""The shipped connect-four positions (src/ttt_rl/data/c4_positions.txt, made by
bench/c4_positions.py): the file's form and content without a solver, and, where the perfect
solver bitbully is installed (.ci/run installs it in a venv of its own), 50 of its positions
solved again. The package never imports bitbully."""

import importlib.util
import os
import random
import re
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILE = os.path.join(ROOT, "src", "ttt_rl", "data", "c4_positions.txt")
SCRIPT = os.path.join(ROOT, "bench", "c4_positions.py")
COLUMNS, ROWS = 7, 6
LINE = re.compile(r"^([0-6]{6,30}) ([0-6]{1,6}) ([WDL])$")

try:
    import bitbully
except ImportError:
    bitbully = None


def read_file():
    """Return (the header lines, [(moves, keep, value)])."""
    with open(FILE, encoding="utf-8") as f:
        lines = f.read().splitlines()
    header = [line for line in lines if line.startswith("#")]
    return header, [tuple(line.split(" ")) for line in lines if not line.startswith("#")]


def play(moves):
    """The board after `moves` (7 columns, pieces from the bottom up, 0 for X); raises
    ValueError if a move is into a full column or after the game is over."""
    board = [[] for _ in range(COLUMNS)]
    for ply, ch in enumerate(moves):
        column = int(ch)
        if len(board[column]) == ROWS:
            raise ValueError("move %d: column %d is full" % (ply + 1, column))
        if any(wins(board, c) for c in range(COLUMNS)):
            raise ValueError("move %d: the game is already won" % (ply + 1))
        board[column].append(ply % 2)
    return board


def load_script():
    """Return bench/c4_positions.py as a module (it imports bitbully only when run)."""
    spec = importlib.util.spec_from_file_location("c4_positions", SCRIPT)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script


# The game as the script plays it, independently of the package's connect4.py.
SCRIPT_MODULE = load_script()
open_columns = SCRIPT_MODULE.open_columns


def wins(board, column):
    """Whether `column` has a top piece that is in a four."""
    return bool(board[column]) and SCRIPT_MODULE.four_through(board, column)


class FileTest(unittest.TestCase):
    """The file as ttt-eval reads it: no solver needed."""

    @classmethod
    def setUpClass(cls):
        cls.header, cls.rows = read_file()

    def board(self, moves):
        try:
            return play(moves)
        except ValueError as e:
            self.fail("%s: %s" % (moves, e))

    def test_the_header_says_what_it_is_and_how_it_was_made(self):
        text = "\n".join(self.header)
        self.assertTrue(self.header)
        for words in ("MOVES KEEP VALUE", "bench/c4_positions.py", "--seed 2026", "bitbully 0."):
            self.assertIn(words, text)

    def test_every_line_has_the_form_moves_keep_value(self):
        self.assertGreaterEqual(len(self.rows), 400)
        for row in self.rows:
            self.assertRegex(" ".join(row), LINE)

    def test_positions_are_distinct_legal_and_not_over(self):
        seen = set()
        for moves, _, _ in self.rows:
            board = self.board(moves)   # no move into a full column, none after a four
            self.assertFalse(any(wins(board, c) for c in range(COLUMNS)), moves)
            self.assertTrue(open_columns(board), moves)
            key = tuple(map(tuple, board))
            self.assertNotIn(key, seen, moves)   # distinct boards, however reached
            seen.add(key)

    def test_keep_is_a_strict_subset_of_the_open_columns(self):
        for moves, keep, value in self.rows:
            columns = open_columns(self.board(moves))
            self.assertEqual(list(keep), sorted(set(keep)), moves)   # increasing, no repeat
            self.assertTrue(set(int(c) for c in keep) < set(columns), moves)
            self.assertNotEqual(value, "L", moves)   # a lost position: every column loses

    def test_moves_6_to_30_and_both_movers(self):
        lengths = [len(moves) for moves, _, _ in self.rows]
        self.assertTrue(6 <= min(lengths) and max(lengths) <= 30)
        self.assertEqual({n % 2 for n in lengths}, {0, 1})   # X to move and O to move

    def test_the_positions_are_the_scripts_random_games_in_order(self):
        """The positions are drawn by bench/c4_positions.py's random_position from seed 2026:
        the file is a subsequence of its candidates (the solver only drops some)."""
        script, rng = SCRIPT_MODULE, random.Random(2026)
        wanted = [moves for moves, _, _ in self.rows]
        found = 0
        for _ in range(100000):
            candidate = script.random_position(rng)
            if candidate is not None and candidate[0] == wanted[found]:
                found += 1
                if found == len(wanted):
                    break
        self.assertEqual(found, len(wanted))


@unittest.skipUnless(bitbully, "bitbully is not installed (.ci/run installs it in a venv)")
class SolverTest(unittest.TestCase):
    """50 positions, spread over the file, solved again by bitbully: a score's sign is the
    column's value for the player to move (above 0 a win, 0 a draw, below 0 a loss)."""

    def test_50_positions_against_bitbully(self):
        _, rows = read_file()
        agent = bitbully.BitBully()
        for moves, keep, value in rows[::len(rows) // 50][:50]:
            scores = agent.score_all_moves(bitbully.Board(moves))
            signs = {c: (s > 0) - (s < 0) for c, s in scores.items()}
            self.assertEqual(sorted(signs), open_columns(play(moves)), moves)
            best = max(signs.values())
            self.assertEqual("".join(str(c) for c in sorted(signs) if signs[c] == best), keep,
                             moves)
            self.assertEqual({1: "W", 0: "D", -1: "L"}[best], value, moves)

    def test_the_scores_mean_what_the_file_says(self):
        """X to move wins at once in column 0 ("010101"); X must block in column 0
        ("606050"); O to move wins at once (the score is the mover's)."""
        agent = bitbully.BitBully()
        win = agent.score_all_moves(bitbully.Board("010101"))
        self.assertGreater(win[0], 0)
        self.assertTrue(all(win[c] < 0 for c in range(2, 7)))
        block = agent.score_all_moves(bitbully.Board("606050"))
        self.assertEqual(max(block, key=block.get), 0)
        self.assertTrue(all(block[c] < 0 for c in range(1, 7)))
        self.assertGreater(agent.score_all_moves(bitbully.Board("6060501"))[0], 0)
        self.assertEqual(agent.score_all_moves(bitbully.Board("60605016"))[0], 0)   # a draw


if __name__ == "__main__":
    unittest.main()
