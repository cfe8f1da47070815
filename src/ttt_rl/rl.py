"""The original program in one command: `ttt-rl` (and `python -m ttt_rl`).

antirez's ttt.c trains against a random player, then plays you, and keeps
learning from every game it plays with you. This does the same: no file is
read or written unless --save asks for one.

Ports main of ttt.c; the pieces are train.py's and play.py's.
"""

import sys

from . import __version__
from .cli import EXIT_FAILURE, ArgumentParser, Output, command, exit_status_of, save_and_say, say
from .game import opponent
from .play import play_session
from .report import Reporter
from .train import (add_games_argument, add_training_flags, draw_seed, run_training,
                    settings_from, start_network)
from .weights import WeightsFileError, resolve_output

EXAMPLES = """\
examples:
  ttt-rl                        train 150000 games, then play (as ./ttt does)
  ttt-rl 20000 --seed 1         a quick, repeatable net
  ttt-rl --side X --save me.bin the net plays X; keep what it learned
"""


@command("ttt-rl")
def main(argv=None):
    """Entry point of `ttt-rl` (C: main of ttt.c); returns the exit status."""
    parser = ArgumentParser(
        prog="ttt-rl", epilog=EXAMPLES,
        description="Train the network against a random player, then play it; "
                    "it learns from every game you finish, as antirez's ttt.c.")
    add_games_argument(parser, "training games before play")
    add_training_flags(parser)
    parser.add_argument("--save", metavar="FILE",
                        help="save the weights to FILE when the session ends "
                             "(default: nothing is written)")
    parser.add_argument("--version", action="version", version="%(prog)s " + __version__)
    args = parser.parse_args(argv)
    out = Output(sys.stdout, "stdout", "ttt-rl")
    seed = draw_seed() if args.seed is None else args.seed
    try:
        target = resolve_output(args.save) if args.save is not None else None
        nn, rng = start_network(args, seed)
    except WeightsFileError as e:
        say("ttt-rl", "error: %s" % e)
        return EXIT_FAILURE
    if args.seed is None:
        out.line("Seed: %d (repeat with --seed %d)" % (seed, seed))
    try:
        run_training(args, nn, rng, out, Reporter(out, args.games, nn_symbol=args.side))
        out.line("You are %s. Type q to quit." % opponent(args.side))
        stdin = getattr(sys.stdin, "buffer", sys.stdin)
        play_session(nn, stdin, sys.stdout, args.side, settings_from(args))
    except KeyboardInterrupt as stop:
        say("ttt-rl", "interrupted" + ("; %s was not written" % args.save if target else ""))
        return exit_status_of(stop)
    if target is None:
        return 0
    saved = save_and_say(nn, target, "ttt-rl", "Neural network saved to %s" % args.save)
    return 0 if saved else EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main())
