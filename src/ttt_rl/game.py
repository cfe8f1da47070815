"""The rules of tic-tac-toe, and how the network sees a board.

A board is a list of 9 one-character strings, read left to right and top to
bottom, so cell 4 is the centre. Each cell holds EMPTY ('.'), X or O. X
always moves first. The network plays O, as in the C, unless it is asked to
play X or BOTH (one net for either side: see learn.side_of_game).

Ports init_game, display_board, board_to_inputs, check_game_over and
get_random_move from antirez's ttt.c. The network itself is nn.py's; the
one thing here that is for it is board_to_inputs, the encoding it reads.
"""

EMPTY = "."
X = "X"
O = "O"
TIE = "T"  # the "winner" of a game that fills the board with no line
BOTH = "both"  # a training side: the net plays X in some games, O in others

BOARD_CELLS = 9
INPUT_SIZE = 2 * BOARD_CELLS   # 18: two network inputs per cell (board_to_inputs)
OUTPUT_SIZE = BOARD_CELLS      # 9: one network output, one move, per cell

# Every way to make three in a row: 3 rows, 3 columns, 2 diagonals.
LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)

# The lines through each cell. A move can only complete a line through the
# cell it was played in, so after a move only these 2 to 4 lines need a look.
LINES_THROUGH = tuple(
    tuple(line for line in LINES if cell in line) for cell in range(BOARD_CELLS)
)


def init_game():
    """Return a new empty board: a list of 9 EMPTY cells (C: init_game)."""
    return [EMPTY] * BOARD_CELLS


def check_game_over(board):
    """Tell whether the game on `board` has ended, and how.

    Takes a board (9 cells of EMPTY, X or O). Returns X or O if that player
    has three in a row, TIE if the board is full with no line, and None while
    the game goes on. Ports C check_game_over, which returns the same answer
    through a flag and a pointer.
    """
    for a, b, c in LINES:
        # Three empty cells are equal too: a line needs its first cell taken.
        if board[a] != EMPTY and board[a] == board[b] == board[c]:
            return board[a]
    # No line: the game is a tie exactly when no empty cell is left.
    return None if EMPTY in board else TIE


def opponent(symbol):
    """Return the other player's symbol: O for X, X for O. The C writes
    this inline (nn_moves_even ? 'O' : 'X')."""
    return O if symbol == X else X


def to_move(board):
    """Return X or O: the player to move on `board` (9 cells). X moves
    first, so X is to move exactly when both have as many pieces. No C
    counterpart: the C's loops know whose turn it is."""
    return X if board.count(X) == board.count(O) else O


def is_winning_move(board, move):
    """Return True if the piece just placed at `move` (0-8) makes a line.

    The fast check used while playing out games: equivalent to asking
    check_game_over for a winner right after each move, because before the
    move nobody had a line (the game would have ended), so only the mover can
    have one now, and only through the cell just played. No C counterpart.
    """
    symbol = board[move]
    # Only the lines through the cell just played can have been completed.
    for a, b, c in LINES_THROUGH[move]:
        if board[a] == symbol and board[b] == symbol and board[c] == symbol:
            return True
    return False


def legal_moves(board):
    """Return the empty cells of `board` (0-8, in order): the legal moves. No C counterpart:
    the C's loops test each cell where they need to."""
    return [cell for cell in range(BOARD_CELLS) if board[cell] == EMPTY]


def play_move(board, cell, symbol):
    """Place `symbol` (X or O) at the empty `cell` (0-8) of `board`, in place. Returns True if
    it makes a line (is_winning_move). The C writes board[move] = symbol inline; this name is
    shared with connect4.play_move, for the code that plays either game."""
    board[cell] = symbol
    return is_winning_move(board, cell)


def display_board(board):
    """Return the board as text, as C display_board prints it.

    Three rows like "X.O 012": the cells, a space, then the position numbers
    of that row so a human knows what to type; then an empty line. The
    returned string ends with "\\n\\n".
    """
    rows = []
    for row in range(3):
        cells = "".join(board[row * 3:row * 3 + 3])
        # Beside each row, its cell numbers: what a person types to move.
        rows.append("%s %d%d%d\n" % (cells, row * 3, row * 3 + 1, row * 3 + 2))
    return "".join(rows) + "\n"


def input_index(cell, symbol):
    """Return which of the 18 network inputs a `symbol` at `cell` turns on.

    Each cell owns two inputs, 2*cell and 2*cell + 1. An X lights the first,
    an O the second (see board_to_inputs), so a piece always turns on exactly
    one input. `cell` is 0-8, `symbol` is X or O; returns an int 0-17.
    The C writes this rule inline in board_to_inputs.
    """
    return 2 * cell + (symbol == O)


def board_to_inputs(board):
    """Encode a board as the network's 18 inputs (C: board_to_inputs).

    Two inputs per cell: X = (1, 0), O = (0, 1), empty = (0, 0). Returns a
    list of 18 floats, each 0.0 or 1.0.

    LEARNING OPPORTUNITY: a cell is a category (empty, X, O), not a number.
    One-hot coding spends 3 inputs per cell, one per category; here empty
    has no input of its own (it is "neither X nor O"), which spends 2, as
    dummy coding does in statistics. Either way the first layer gives each
    category its own row of weights: that row is what language models call
    a learned embedding of the category. antirez explains this coding in a
    video linked from ttt.c (https://www.youtube.com/watch?v=EXbgUXt8fFU);
    for embeddings, see "Deep Learning" (Goodfellow et al.), section 12.4.
    """
    # Start from all zeros (every cell empty), then switch on one input
    # per piece: the net sees where the pieces are and whose they are.
    inputs = [0.0] * INPUT_SIZE
    for cell, symbol in enumerate(board):
        if symbol != EMPTY:
            inputs[input_index(cell, symbol)] = 1.0
    return inputs


def get_random_move(board, rng):
    """Pick an empty cell uniformly at random (C: get_random_move).

    Takes a board with at least one empty cell and a random.Random. Returns
    the cell index 0-8. Raises IndexError on a full board, where the C
    version would loop forever. The C retries rand() % 9 until it hits an
    empty cell; choosing among the empty cells directly gives the same
    distribution with one random number.
    """
    empty = legal_moves(board)
    # int(random() * n) is uniform over 0..n-1 and, unlike randrange, gives
    # the same numbers on every Python version for the same seed.
    return empty[int(rng.random() * len(empty))]
