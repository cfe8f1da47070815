"""`ttt-play`: a person against a trained network.

Ports play_game and main of the C `play` program: load the weights, then
play games until the person says no. You are X and move first; the net is
O (or, with --side X, the other way round). Before each of its moves the
net shows its probability for every cell: what it learned, and how an
untrained net happily prefers occupied cells. With --learn it also learns
from each finished game, as antirez's ttt.c does, and saves on exit.

From "Welcome" on, a plain session prints the lines the C `play` prints;
the differences are listed in the README ("The C program, function by
function"): bad input is explained, and a probability may differ from the
C's float32 in its last digit.
"""

import sys

from .game import O, TIE, X, check_game_over, display_board, init_game, opponent
from .learn import DEFAULT_SETTINGS, learn_from_game
from .nn import get_computer_move
from .weights import load, to_float32
from .lab.args import play_parser
from .lab.cli import EXIT_FAILURE, Output, command, exit_status_of, say
from .lab.evaluate import side_warning
from .lab.files import FileError
from .lab.human import Quit, ask, colour_wanted, paint, parse_move
from .lab.session import check_paths, save_and_report

LEGEND = "In the net's grid: * its favourite cell overall (even a taken one), # the move it plays."


def format_probabilities(probs, chosen, colour=False):
    """Return the probability grid the C prints before the net's move.

    Takes 9 probabilities and the chosen cell. Each cell shows a percentage,
    '*' on the highest probability overall (even an occupied cell) and '#'
    on the chosen move, each followed by a space, as in the C. With
    `colour`, each percentage is painted by its size (a heat map).
    """
    highest = max(range(len(probs)), key=lambda cell: (probs[cell], -cell))
    text = ["Neural network move probabilities:\n"]
    for row in range(3):
        for cell in range(row * 3, row * 3 + 3):
            # In float32, as the C computes it, so that the rounding to one
            # decimal agrees as often as possible.
            number = "%5.1f%%" % to_float32(to_float32(probs[cell]) * 100)
            text.append(paint(number, probs[cell]) if colour else number)
            text.append(("*" if cell == highest else "")
                        + ("#" if cell == chosen else "") + " ")
        text.append("\n")
    text.append("Sum of all probabilities: %.2f\n\n" % sum(probs))
    return "".join(text)


def play_game(net, stdin, out, nn_symbol=O, colour=False):
    """Play one game, a human against the network (C: play_game).

    Takes the network, a binary (or text) input stream read a line at a
    time, an output text stream, and the network's side: O (the human moves
    first, as in the C) or X (the network moves first). Returns (winner,
    move_history): X, O or TIE, and the cells played. Raises EOFError if
    the input ends mid-game, Quit if the human types q.
    """
    human = opponent(nn_symbol)
    board = init_game()
    move_history = []
    out.write("Welcome to Tic Tac Toe! You are %s, the computer is %s.\n" % (human, nn_symbol))
    out.write("Enter positions as numbers from 0 to 8 (see picture).\n")
    turn = X   # X always moves first
    winner = None
    while winner is None:
        out.write(display_board(board))
        if turn == human:
            move, error = parse_move(ask("Your move (0-8): ", stdin, out), board)
            if error:
                # As in the C, a bad move shows the board again.
                out.write("Invalid move! %s Try again.\n" % error)
                continue
        else:
            out.write("Computer's move:\n")
            move = get_computer_move(net, board)
            out.write(format_probabilities(net.outputs, move, colour))
            out.write("Computer placed %s at position %d\n" % (nn_symbol, move))
        board[move] = turn
        move_history.append(move)
        turn = opponent(turn)
        winner = check_game_over(board)
    out.write(display_board(board))
    if winner == TIE:
        out.write("It's a tie!\n")
    else:
        out.write("You win!\n" if winner == human else "Computer wins!\n")
    return winner, move_history


def play_session(net, stdin, out, nn_symbol=O, settings=None, colour=False):
    """Play games until the human says no, types q or the input ends (the
    loop of the C's main). With `settings` (a learn.Settings), the network
    learns from each finished game, as in ttt.c. Returns the number of
    games it learned from."""
    learned = 0
    try:
        while True:
            winner, move_history = play_game(net, stdin, out, nn_symbol, colour)
            if settings is not None:
                learn_from_game(net, move_history, winner, nn_symbol, settings)
                learned += 1
                out.write("The network learned from this game.\n")
            # As in the C, only an answer starting with y or Y plays again.
            # An empty line asks again (the C's scanf waits without asking).
            answer = ""
            while not answer:
                answer = ask("Play again? (y/n): ", stdin, out)
            if answer[0] not in "yY":
                return learned
    except EOFError:
        out.write("\n")   # end of input (Ctrl-D): the C loops forever here
    except Quit:
        pass
    return learned


@command("ttt-play")
def main(argv=None):
    """Entry point of `ttt-play` (C: main of play.c); returns the exit
    status. `argv` is the argument list (default sys.argv[1:])."""
    parser = play_parser()
    args = parser.parse_args(argv)
    if args.save and not args.learn:
        parser.error("--save needs --learn")
    save_to = args.save or args.weights
    try:
        net = load(args.weights)
    except FileError as e:
        say("ttt-play", "error: %s%s" % (e, "; train one first: ttt-train" if e.missing else ""))
        return EXIT_FAILURE
    target = check_paths(args, save_to) if args.learn else None
    warning = side_warning(net, args.side)
    if warning:
        say("ttt-play", warning)
    out = Output(sys.stdout, "stdout", "ttt-play")
    out.line("Neural network loaded from %s" % args.weights)
    out.line("Ready to play! You are %s. Type q to quit." % opponent(args.side))
    out.line(LEGEND)
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    settings = DEFAULT_SETTINGS if args.learn else None
    try:
        learned = play_session(net, stdin, out, args.side, settings, colour_wanted(sys.stdout))
    except KeyboardInterrupt as stop:
        say("ttt-play", "interrupted" + ("; %s was not updated" % save_to if args.learn else ""))
        return exit_status_of(stop)
    if learned:
        out.line("Learned from %d game%s." % (learned, "" if learned == 1 else "s"))
        if not save_and_report(net, target, save_to, args.side, "ttt-play", out):
            return EXIT_FAILURE
    return EXIT_FAILURE if out.failed else 0


if __name__ == "__main__":
    sys.exit(main())
