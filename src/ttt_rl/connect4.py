"""The rules of connect four, and how the network sees a board: the C README's first question.

Seven columns, six rows; a piece dropped in a column falls to the lowest empty cell; four in a
row (across, down or diagonal) wins; a full board is a draw. X moves first. A move is a column,
0 to 6 from the left.

A board is a list of 42 cells (EMPTY, X or O), row by row from the top left: cell = 7 x row +
column, row 0 the top row, as display_board prints it. So a column is open exactly when its top
cell, cell `column`, is empty: the test `board[move] == EMPTY` that tic-tac-toe's code uses for
"this move is legal" means the same here, and nn.best_move and learn.learn_from_game serve both
games unchanged.

The names are game.py's where they mean the same (init_game, board_to_inputs, check_game_over,
get_random_move, display_board, play_move, legal_moves); a module with these names is what
nn.py, learn.py and mcts.py take as `rules`. No C counterpart: the C plays tic-tac-toe only.
"""

from .game import EMPTY, O, TIE, X, opponent, to_move

COLUMNS, ROWS = 7, 6
BOARD_CELLS = COLUMNS * ROWS   # 42
INPUT_SIZE = 2 * BOARD_CELLS   # 84: two inputs per cell (board_to_inputs)
OUTPUT_SIZE = COLUMNS          # 7: one score per column
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))   # (rows, columns): across, down, two diagonals


def ray(cell, step_row, step_col):
    """Return the cells (up to 3) from `cell` in the direction (step_row, step_col), nearest
    first, stopping at the edge: the cells that can make four with `cell` on that side."""
    row, col, cells = divmod(cell, COLUMNS) + ([],)
    for _ in range(3):
        row, col = row + step_row, col + step_col
        if not (0 <= row < ROWS and 0 <= col < COLUMNS):
            break
        cells.append(COLUMNS * row + col)
    return cells


# For each cell and direction, the cells on either side: a new piece can only make four along
# a line through its own cell, so a win is counted outwards from the last piece (Pons's solver
# tutorial does the same with bitboards).
RAYS = tuple(tuple((ray(cell, dr, dc), ray(cell, -dr, -dc)) for dr, dc in DIRECTIONS)
             for cell in range(BOARD_CELLS))
# Every four-in-a-row on the board (69): rows, columns and both diagonals.
LINES = tuple(tuple([cell] + ray(cell, dr, dc)) for cell in range(BOARD_CELLS)
              for dr, dc in DIRECTIONS if len(ray(cell, dr, dc)) == 3)


def init_game():
    """Return a new empty board: a list of 42 EMPTY cells."""
    return [EMPTY] * BOARD_CELLS


def legal_moves(board):
    """Return the open columns of `board` (0-6, left to right): those whose top cell is empty."""
    return [column for column in range(COLUMNS) if board[column] == EMPTY]


def landing_cell(board, column):
    """Return the cell (0-41) where a piece dropped in `column` comes to rest: the lowest empty
    cell of that column. The column must be open."""
    cell = COLUMNS * (ROWS - 1) + column   # the bottom cell; then upwards
    while board[cell] != EMPTY:
        cell -= COLUMNS
    return cell


def is_winning_move(board, cell):
    """Return True if the piece at `cell` (0-41) is part of four in a row: after a move, the
    check that the mover has won (nobody had four before it, or the game would have ended)."""
    symbol = board[cell]
    for forward, backward in RAYS[cell]:
        count = 1
        for side in (forward, backward):
            for other in side:
                if board[other] != symbol:
                    break
                count += 1
        if count >= 4:
            return True
    return False


def play_move(board, column, symbol):
    """Drop `symbol` (X or O) in `column` (an open column) of `board`, in place. Returns True if
    it makes four in a row (the mover wins)."""
    cell = landing_cell(board, column)
    board[cell] = symbol
    return is_winning_move(board, cell)


def check_game_over(board):
    """Return X or O if that player has four in a row on `board`, TIE if the board is full
    with none, None while the game goes on (as game.check_game_over)."""
    for line in LINES:
        first = board[line[0]]
        if first != EMPTY and all(board[cell] == first for cell in line):
            return first
    return None if EMPTY in board[:COLUMNS] else TIE


def is_position(board):
    """Return True if `board` (42 cells, a list or a string) is a position of a game in
    progress: each cell EMPTY, X or O, no piece above an empty cell, X's pieces as many as O's
    or one more, no four in a row, not full."""
    return (len(board) == BOARD_CELLS and all(cell in (EMPTY, X, O) for cell in board)
            and board.count(X) - board.count(O) in (0, 1)
            and all(board[cell + COLUMNS] != EMPTY for cell in range(BOARD_CELLS - COLUMNS)
                    if board[cell] != EMPTY)
            and check_game_over(board) is None)


def board_to_inputs(board):
    """Encode a board as the network's 84 inputs, from the side of the player to move.

    Two inputs per cell, cells in board order (cell = 7 x row + column, row 0 the top): (1, 0)
    for a piece of the player to move, (0, 1) for the other player's, (0, 0) for an empty cell.
    Returns a list of 84 floats, each 0.0 or 1.0.

    Why the mover's side, when tic-tac-toe's inputs say X and O (the C's file needs those): one
    net plays both sides, and a pattern reads the same whoever moves. Three of the mover's
    pieces in a row set the same inputs when X moves and when O does, so the net learns that
    threat once for both sides; with X and O inputs it would learn it twice, once per colour.
    Whose turn it is is no reason: with X and O inputs, X moves when #X - #O is 0, a linear
    function of the inputs that one hidden unit computes (see learn.side_of_game).
    """
    mover = to_move(board)
    inputs = [0.0] * INPUT_SIZE
    for cell, symbol in enumerate(board):
        if symbol != EMPTY:
            inputs[2 * cell + (symbol != mover)] = 1.0
    return inputs


def get_random_move(board, rng):
    """Return an open column of `board` chosen uniformly at random with a random.Random. Raises
    IndexError on a full board."""
    columns = legal_moves(board)
    return columns[int(rng.random() * len(columns))]


def winning_column(board, symbol):
    """Return the lowest open column where `symbol` would make four at once, or None."""
    for column in legal_moves(board):
        cell = landing_cell(board, column)
        board[cell] = symbol
        wins = is_winning_move(board, cell)
        board[cell] = EMPTY
        if wins:
            return column
    return None


def threat(board):
    """Return (kind, column) of a position, for the player to move: ("win", the lowest column
    that wins at once), else ("block", the lowest where the other player would), else ("quiet",
    None). The kinds sort the positions that measure a net (lab/exact.py)."""
    mover = to_move(board)
    for kind, symbol in (("win", mover), ("block", opponent(mover))):
        column = winning_column(board, symbol)
        if column is not None:
            return kind, column
    return "quiet", None


def get_tactical_move(board, rng):
    """The tactical player: the column of the position's threat (a win at once, else a block),
    else a random open column (get_random_move). Takes a board with a game in progress and a
    random.Random; returns a column 0-6. It looks one move ahead and no further: a test of
    whether a net sees the threats in front of it."""
    column = threat(board)[1]
    return get_random_move(board, rng) if column is None else column


def mirror(board):
    """Return `board` reflected left to right: connect four is symmetric, so a position and its
    mirror image have mirrored best moves."""
    return [board[COLUMNS * row + COLUMNS - 1 - col] for row in range(ROWS)
            for col in range(COLUMNS)]


def display_board(board):
    """Return the board as text: six rows of seven cells, then the column numbers a person
    types ("0123456"), then an empty line, as game.display_board prints tic-tac-toe."""
    rows = ["".join(board[COLUMNS * row:COLUMNS * (row + 1)]) + "\n" for row in range(ROWS)]
    return "".join(rows) + "".join(str(c) for c in range(COLUMNS)) + "\n\n"

