"""`ttt-train`: train the network against a random player, then save it.

Ports main of the C `train` program (ttt.c split in two by ArthurChiao): a
new network, train_against_random, save_neural_network. Around them, what
a command owes its user (lab/): paths checked first, progress, the saved
net's exact verdict, and a first Ctrl-C that stops and keeps the work.
"""

import sys

from .game import O
from .qlearn import DEFAULT_Q_SETTINGS, SOFTMAX
from .lab.args import (DEFAULT_WEIGHTS, MCTS, PLAYOUTS, Q_LEARNING, RANDOM, SELF,
                       ArgumentParser, add_training_flags, at_least_one, count, curve_file,
                       file_name, positive_float, run_count, settings_from, side_or_both,
                       trainer)
from .lab.cli import EXIT_FAILURE, Output, command, first_ctrl_c_stops, printable
from .lab.curve import Reporter, ending
from .lab.runs import train_runs
from .lab.session import (check_paths, choose_seed, conclude, read_init, save_and_report,
                          start_network, write_curve)
from .lab.text import format_seconds, invoked_as, next_step, summary_lines

EXAMPLES = """\
examples:
  ttt-train 20000 --runs 16 --until-unbeatable  the first unbeatable seed, saved
  ttt-train 200000 q.bin --method q-learning    Q-learning: unbeatable for 59 of 60 seeds
  ttt-train 50000 c.bin --curve c.svg           draw how it learns
  ttt-train 400000 b.bin --side both --method q-learning   one net, both sides

An existing OUTPUT is kept as OUTPUT.bak. Ctrl-C stops after the current
game and saves the net trained so far; press it again to save nothing.
--runs ranks as the verdict reads: unbeatable, fewest lines lost, most wins.
"""


def train_parser():
    """Return the ArgumentParser of ttt-train."""
    parser = ArgumentParser(
        prog="ttt-train", epilog=EXAMPLES, needs=[("until_unbeatable", "runs"), ("jobs", "runs")],
        description="Train the tic-tac-toe network by playing against a random player, then "
                    "save its weights.")
    add_training_flags(parser, "number of training games", side_flag=False)
    add = parser.add_argument
    add("output", nargs="?", default=DEFAULT_WEIGHTS, metavar="OUTPUT", type=file_name,
        help="weights file to write (default %s)" % DEFAULT_WEIGHTS)
    add("--side", type=side_or_both, default=O, metavar="{O,X,both}",
        help="the side the net learns (default O; X moves first; both: X in even games, "
             "O in odd); the file does not record it")
    add("--opponent", choices=(RANDOM, SELF, MCTS), default=RANDOM, help="who the net plays: "
        "random (the C's, default), self (self-play), mcts (Monte Carlo tree search)")
    add("--playouts", type=at_least_one, metavar="N",
        help="--opponent mcts: random games per move (default %d)" % PLAYOUTS)
    add("--explore", choices=("epsilon", SOFTMAX), help="q-learning: random moves "
        "(epsilon, default) or moves drawn from the softmax of the values (softmax)")
    add("--temperature", type=positive_float, metavar="T", help="q-learning with --explore "
        "softmax: the temperature, falling to 0 like epsilon (default %g)"
        % DEFAULT_Q_SETTINGS.temperature)
    add("--eval-every", type=count, default=0, metavar="N",
        help="every N games, print the exact strength (default: at the end)")
    add("--curve", type=curve_file, metavar="FILE",
        help="write the learning curve: FILE.svg a chart with heat maps, FILE.csv rows")
    add("--runs", type=run_count, metavar="K", help="train K runs (at most 10000) with "
        "seeds S, S+1, ... in parallel and save the best (default 1)")
    add("--until-unbeatable", action="store_true", help="with --runs K: stop at the first "
        "seed, in order, whose net is unbeatable, and save it")
    add("--jobs", type=count, metavar="N",
        help="worker processes for --runs (default or 0: one per core, at most K)")
    return parser


@command("ttt-train")
def main(argv=None):
    """ttt-train on `argv` (default sys.argv[1:]; C: main of train.c); returns 0, 1 for a
    failure (a trained net is still saved), 2 for a bad command line, 128 + N for signal N."""
    args = train_parser().parse_args(argv)
    out, words = Output(sys.stdout, "ttt-train"), invoked_as("train")
    check_paths(args, args.output)   # before any work
    init_data = read_init(args)
    if args.runs:   # --runs K, even 1 (with --until-unbeatable, say)
        return train_runs(args, out, init_data, words)
    seed = choose_seed(args, out)
    # 1. A new network (C: init_neural_network), or the --init file's.
    net, rng = start_network(args, seed, init_data)
    out.line("Training neural network with %d games" % args.games)   # as the C prints
    if args.method == Q_LEARNING:
        out.line("Learning rule: Q-learning (learning rate %g, %s %g falling to 0, gamma %g)"
                 % (args.learning_rate, *(("temperature", args.temperature) if args.explore
                                          == SOFTMAX else ("epsilon", args.epsilon)), args.gamma))
    with first_ctrl_c_stops() as ctrl_c:
        try:
            what = {RANDOM: "against %d random games...", SELF: "by self-play, %d games...",
                    MCTS: "against MCTS (%d playouts a move), %%d games..."
                          % (args.playouts or PLAYOUTS)}[args.opponent]
            out.line("Training neural network " + what % args.games)
            # 2. Train it (C: train_against_random), by the rule --method names.
            reporter = Reporter(out, args.games, args.side, args.eval_every, bool(args.curve),
                                ctrl_c)
            reporter.self_play = args.opponent == SELF
            reporter.begin(net)
            games = trainer(args)(net, args.games, rng, args.side, settings_from(args),
                                  report=reporter.report, report_every=1)
            reporter.finish(net)
        except KeyboardInterrupt as stop:
            stop.note = "%s was not written" % printable(args.output)
            raise
        out.line(ending(games, args.games, ctrl_c))
        # 3. Save it (C: save_neural_network), and say how it plays.
        saved = save_and_report(net, args.output, args.side, "ttt-train", out)
        if saved is None:
            return EXIT_FAILURE
        out.line("Training time: %s (%.1f s, %.0f games/s)" % (format_seconds(
            reporter.elapsed), reporter.elapsed, games / max(reporter.elapsed, 1e-9)))
        out.line("\n".join(summary_lines(saved)))
        conclude(saved, out, games and next_step(words, args, args.output))
        curve_ok = not args.curve or write_curve(args.curve, {seed: reporter.rows}, args.side,
                                                 "ttt-train", out)
    # A first Ctrl-C or SIGHUP, even after the last game: 128 + the signal.
    return ctrl_c.status or (0 if curve_ok and not out.failed else EXIT_FAILURE)


if __name__ == "__main__":
    sys.exit(main())
