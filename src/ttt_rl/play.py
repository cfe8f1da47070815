"""`ttt-play`: a person against a trained network.

Ports play_game and main of the C `play` program: load the weights, then
play until the person says no. You are X and move first (--side X: the net
is X). Before each move the net shows its probability for every cell: what
it learned, and how an untrained net prefers occupied cells. With --learn
it learns from each finished game, as ttt.c does, and saves on exit.
From "Welcome" on, the output is the C `play`'s, within the differences
docs/c-port.md lists.
"""

import sys

from .game import O, TIE, X, check_game_over, display_board, init_game, opponent
from .nn import get_computer_move
from .lab.args import (DEFAULT_GAMES, DEFAULT_WEIGHTS, RULES, ArgumentParser, add_side,
                       file_name, learner)
from .lab.cli import Output, command, printable
from .lab.human import LEGEND, Quit, ask, colour_wanted, format_probabilities, parse_move
from .lab.session import check_paths, check_trainable, end_session, load_to_play
from .lab.text import command_line, invoked_as, plural

EXAMPLES = """\
examples:
  ttt-play                        play X against ttt_nn.bin
  ttt-play net.bin --side X       the net plays X and moves first
  ttt-play net.bin --learn        the net learns from your games (saved on exit)
"""


def play_parser():
    """Return the ArgumentParser of ttt-play."""
    parser = ArgumentParser(prog="ttt-play", needs=[("save", "learn"), ("method", "learn")],
                            epilog=EXAMPLES, description="Play tic-tac-toe against a trained "
                                                         "network.")
    add = parser.add_argument
    add("weights", nargs="?", default=DEFAULT_WEIGHTS, metavar="WEIGHTS", type=file_name,
        help="weights file from ttt-train or the C train (default %s)" % DEFAULT_WEIGHTS)
    add_side(parser, "plays")
    add("--learn", action="store_true", help="learn from each finished game, as ttt.c does, "
        "and save the weights back when the session ends")
    add("--save", metavar="FILE", type=file_name,
        help="with --learn, save to FILE instead of WEIGHTS")
    add("--method", choices=tuple(RULES),
        help="with --learn, the learning rule (default monte-carlo, the C's)")
    return parser


def play_game(net, stdin, out, nn_symbol=O, colour=False):
    """Play one game, a human (lines of `stdin`) against the net as `nn_symbol`
    (C: play_game). Returns (winner, move_history): X, O or TIE, and the cells
    played. Raises EOFError if the input ends mid-game, Quit for q."""
    human, board, move_history = opponent(nn_symbol), init_game(), []
    out.write("Welcome to Tic Tac Toe! You are %s, the computer is %s.\n" % (human, nn_symbol))
    out.write("Enter positions as numbers from 0 to 8 (see picture).\n")
    turn, winner = X, None   # X always moves first
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
    out.write("It's a tie!\n" if winner == TIE else
              "You win!\n" if winner == human else "Computer wins!\n")
    return winner, move_history


def play_session(net, stdin, out, nn_symbol=O, learn=None, colour=False):
    """Play until the human says no, types q or the input ends (the C's main
    loop), with `learn` (learn.learn_from_game, say) after each game, as ttt.c.
    Returns (games learned from, the KeyboardInterrupt that ended it or None)."""
    learned = 0
    try:
        while True:
            winner, move_history = play_game(net, stdin, out, nn_symbol, colour)
            if learn is not None:
                learn(net, move_history, winner, nn_symbol)
                learned += 1
                out.write("The network learned from this game.\n")
            # As in the C, only an answer starting with y or Y plays again.
            # An empty line asks again (the C's scanf waits without asking).
            answer = ""
            while not answer:
                answer = ask("Play again? (y/n): ", stdin, out)
            if answer[0] not in "yY":
                return learned, None
    except EOFError:
        out.write("\n")   # end of input (Ctrl-D): the C loops forever here
    except Quit:
        pass
    except KeyboardInterrupt as stop:   # the games learned so far are kept
        out.write("\n")
        return learned, stop
    return learned, None


@command("ttt-play")
def main(argv=None):
    """ttt-play on `argv` (default sys.argv[1:]; C: main of play.c); returns 0, 1 for a failure,
    2 for a bad command line, 128 + N for signal N (what --learn learned saved)."""
    args = play_parser().parse_args(argv)
    save_to = args.save or args.weights
    net, data = load_to_play(args.weights, args.side, "ttt-play",   # C: load_neural_network
                             command_line(invoked_as("train"), args, DEFAULT_GAMES,
                                          args.weights, save=None))
    if args.learn:   # before any game: where it saves, and that it can learn
        now = check_paths(args, save_to)
        check_trainable(net, args.weights)
        if args.save:   # what the file holds, to notice another session's save
            data = now
    out = Output(sys.stdout, "ttt-play")
    out.line("Neural network loaded from %s" % args.weights)
    out.line("Ready to play! You are %s. Type q to quit." % opponent(args.side))
    out.line(LEGEND)
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    learn = learner(args) if args.learn else None
    learned, stop = play_session(net, stdin, out, args.side, learn, colour_wanted(sys.stdout))
    status = end_session(net, save_to if args.learn else None, args.side, "ttt-play", out,
                         learned and "from %s" % plural(learned, "game"), expect=data)
    if stop is not None and not status:
        stop.note = "%s was saved" % printable(save_to) if learned and args.learn else ""
        raise stop   # said by @command
    return status


if __name__ == "__main__":
    sys.exit(main())
