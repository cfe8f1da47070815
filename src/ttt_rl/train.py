"""`ttt-train`: train the network against a random player, then save it.

Ports main of the C `train` program (ttt.c split in two by ArthurChiao):
a new network, train_against_random, save_neural_network; with
--method q-learning, qlearn.train_q_learning trains instead. Around those
three steps, what a command owes its user (lab/): paths checked before the
first game, the progress line and a learning curve, a backup of the old
file, the saved net's exact verdict, and a first Ctrl-C that stops after
the current game and keeps the work.
"""

import sys

from .nn import HIDDEN_SIZE, init_neural_network
from .weights import from_bytes
from .lab.args import Q_LEARNING, train_parser
from .lab.cli import EXIT_CTRL_C, EXIT_FAILURE, Output, command, invoked_as, on_stop
from .lab.interrupt import first_ctrl_c_stops
from .lab.progress import Reporter
from .lab.runs import train_runs
from .lab.save import conclude, save_and_report, write_curve
from .lab.start import check_paths, choose_seed, make_rng, read_init, settings_from, trainer
from .lab.text import next_step, summary_lines


@command("ttt-train")
def main(argv=None):
    """Entry point of `ttt-train` (C: main of train.c); returns the exit
    status: 0; 1 if something failed (the weights are still saved if
    training finished); 2 for a bad command line; 128 + N when stopped by
    signal N (130 after a Ctrl-C that saved the net trained so far).
    """
    args = train_parser().parse_args(argv)
    prog = invoked_as("ttt-train")
    if args.runs > 1:
        return train_runs(args, prog, next_step(prog, args.games, args.output))
    out = Output(sys.stdout, "stdout", "ttt-train")
    target, init_data = check_paths(args, args.output), read_init(args)   # before any work
    on_stop("; %s was not written" % args.output)
    seed = choose_seed(args, out)
    rng = make_rng(seed)

    # 1. A new network (C: init_neural_network), or the --init file's.
    net = init_neural_network(rng, args.hidden or HIDDEN_SIZE) if init_data is None \
        else from_bytes(init_data, args.init)

    # 2. Train it (C: train_against_random), by the rule --method names:
    # learn.train_against_random or qlearn.train_q_learning.
    train = trainer(args)
    reporter = Reporter(out, args.games, args.side, args.eval_every, curve=bool(args.curve))
    out.line("Training neural network with %d games" % args.games)
    if args.method == Q_LEARNING:
        out.line("Learning rule: Q-learning (learning rate %g, epsilon %g falling to 0, "
                 "gamma %g)" % (args.learning_rate, args.epsilon, args.gamma))
    out.line("Training neural network against %d random games..." % args.games)
    with first_ctrl_c_stops(reporter):
        reporter.begin(net)
        games = train(net, args.games, rng, args.side, settings_from(args),
                      report=reporter.report, report_every=1)
        reporter.finish(net)
        out.line("\nTraining complete!" if games == args.games else
                 "\nStopped by Ctrl-C after %d of %d games." % (games, args.games))

        # 3. Save it (C: save_neural_network), and say how it plays.
        saved = save_and_report(net, target, args.output, args.side, "ttt-train", out)
    if saved is None:
        return EXIT_FAILURE
    out.line(reporter.time_line(games))
    out.line("\n".join(summary_lines(saved)))
    conclude(saved, out, next_step(prog, args.games, args.output))
    curve_ok = not args.curve or write_curve(args.curve, {seed: reporter.rows}, args.side,
                                             "ttt-train", out)
    if games < args.games or reporter.stop_requested:   # a Ctrl-C, even after the last game
        return EXIT_CTRL_C
    return 0 if curve_ok and not out.failed else EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main())
