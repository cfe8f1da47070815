"""`ttt-rl` (and `python -m ttt_rl`): the original program in one command.

Ports main of antirez's ttt.c: train against a random player, say how strong the net is
(exactly, as ttt-eval), then play you, learning from every game you finish. Writes a file only
with --save.
"""

import functools
import sys

from . import game as tic_tac_toe
from .play import LEGEND, WORDS, play_session
from .lab.cli import (EXIT_STOPPED, RULES, add_training_flags, check_flags, command, draw_seed,
                      first_ctrl_c, parser_for, settings_from, start_network, train)
from .lab.curve import Reporter
from .lab.exact import evaluate_network, summary_lines
from .lab.files import saving


@command("ttt-rl")
def main(argv=None):
    """ttt-rl on `argv` (default sys.argv[1:]; C: main of ttt.c). Returns the exit status: 0, 1
    for a file that cannot be read or written, 130 after Ctrl-C."""
    parser = parser_for("ttt-rl", "Train the network against a random player, then play it;\n"
                        "it learns from every game you finish, as antirez's ttt.c.", None)
    add_training_flags(parser, "training games before play (default 150000)", every_rule=False)
    parser.add_argument("--save", metavar="FILE", help="save the weights to FILE when the "
                        "session ends (default: nothing is written)")
    args = check_flags(parser, parser.parse_intermixed_args(argv))
    # The output tried before the first game; a first Ctrl-C caught until the save is done.
    with saving(args.save) as save, first_ctrl_c() as stopped:
        draw_seed(args)
        net, rng = start_network(args)
        # C: train_against_random (or Q-learning, with --method q-learning).
        print("Training neural network against %d random games..." % args.games, flush=True)
        games = train(net, rng, args, Reporter(args.games, args.side, stop=stopped).report)
        print("\nStopped by Ctrl-C after %d games." % games if stopped()
              else "\nTraining complete!")
        # Before you play it: can it be beaten?
        print("\n".join(summary_lines(evaluate_network(net, args.side))))
        interrupted = stopped()
        if not interrupted:   # after a first Ctrl-C: keep what was trained, no play
            print("\nType q to quit.")
            print(LEGEND % WORDS[tic_tac_toe][2:4])
            # C: the play-again loop of main, learning from every game.
            learn = functools.partial(RULES[args.method][2], settings=settings_from(args))
            interrupted = play_session(net, args.side, learn)[1]
        if save:
            print("Neural network saved to %s%s" % (args.save, save(net)))
        else:
            print("The net is not kept: --save FILE keeps it.")
    return EXIT_STOPPED if interrupted or stopped() else 0


if __name__ == "__main__":
    sys.exit(main())
