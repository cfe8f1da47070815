"""`ttt-rl` (and `python -m ttt_rl`): the original program in one command.

Ports main of antirez's ttt.c: train against a random player, say how strong the net is
(exactly, as ttt-eval), then play you, learning from every game you finish. Writes a file only
with --save.
"""

import sys

from .game import BOTH, opponent
from .play import LEGEND, play_session
from .lab.cli import (EXIT_STOPPED, POLICY_ITERATION, FirstCtrlC, add_training_flags,
                      check_flags, command, learner, parser_for, settings_from, start_network,
                      trainer)
from .lab.curve import Reporter
from .lab.exact import evaluate_network, summary_lines
from .lab.files import saving

@command("ttt-rl")
def main(argv=None):
    """ttt-rl on `argv` (default sys.argv[1:]; C: main of ttt.c). Returns the exit status: 0, 1
    for a file that cannot be read or written, 130 after Ctrl-C."""
    parser = parser_for("ttt-rl", "Train the network against a random player, then play it; "
                        "it learns from every game you finish, as antirez's ttt.c.", None)
    add_training_flags(parser, "training games before play")
    parser.add_argument("--save", metavar="FILE", help="save the weights to FILE when the "
                        "session ends (default: nothing is written)")
    args = check_flags(parser, parser.parse_args(argv))
    if args.method == POLICY_ITERATION or args.side == BOTH:
        parser.error("ttt-rl plays you with one side, learned by monte-carlo or q-learning")
    with saving(args.save) as save:   # tried before the first game
        net, rng = start_network(args)
        with FirstCtrlC() as ctrl_c:
            # C: train_against_random (or Q-learning, with --method q-learning).
            print("Training neural network against %d random games..." % args.games, flush=True)
            reporter = Reporter(args.games, args.side, stop=ctrl_c.stop)
            games = trainer(args)(net, args.games, rng, args.side, settings_from(args),
                                  reporter.report)
        print("\nStopped by Ctrl-C after %d games." % games if ctrl_c.stop_requested
              else "\nTraining complete!")
        # Before you play it: can it be beaten?
        print("\n".join(summary_lines(evaluate_network(net, args.side))))
        interrupted = ctrl_c.stop_requested
        if not interrupted:   # after a first Ctrl-C: keep what was trained, no play
            print("You are %s. Type q to quit." % opponent(args.side))
            print(LEGEND)
            # C: the play-again loop of main, learning from every game.
            interrupted = play_session(net, args.side, learner(args))[1]
        if save:
            save(net)
            print("Neural network saved to %s" % args.save)
    return EXIT_STOPPED if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
