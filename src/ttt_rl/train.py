"""`ttt-train`: train the network, then save it.

Ports main of the C `train` program (ttt.c split in two by ArthurChiao): a new network,
train_against_random, save_neural_network; around them, what a command owes its user (lab/).
"""

import sys

from .expert_iteration import SIMULATIONS
from .mcts import PLAYOUTS
from .weights import from_bytes, to_bytes
from .lab.exact import describe
from .lab.cli import (C4_WEIGHTS, CONNECT4, DEFAULT_WEIGHTS, EXIT_FAILURE, EXIT_STOPPED,
                      EXPERT_ITERATION, GAMES, MCTS, POLICY_ITERATION, RANDOM, SELF,
                      add_training_flags, check_flags, command, draw_seed, first_ctrl_c,
                      number, parser_for, start_network, train)
from .lab.curve import Reporter, csv_text, format_seconds
from .lab.files import ADVICE, C4_ADVICE, saving
from .lab.runs import best_of_runs, train_expert_iteration_in_workers

EXAMPLES = """\
examples:
  ttt-train 200 --method policy-iteration    a complete player, both sides
  ttt-train 2000000                          the C's program
  ttt-train 20000 --runs 16                  the C's rule, 16 seeds in parallel

An existing OUTPUT is kept as OUTPUT.bak. Ctrl-C stops after the current
game and saves; press it again to save nothing.
"""


@command("ttt-train")
def main(argv=None):
    """ttt-train on `argv` (default sys.argv[1:]; C: main of train.c). Returns the exit status:
    0, 1 for a file that cannot be read or written, 130 after a first Ctrl-C (the net saved)."""
    parser = parser_for("ttt-train", "Train a network to play tic-tac-toe (or connect four), "
                        "then save its weights.", EXAMPLES)
    add_training_flags(parser, "number of training games (default 150000); policy-iteration: "
                       "at most this many sweeps (default 200); expert-iteration: self-play "
                       "games (default 2600)")
    add = parser.add_argument
    add("output", nargs="?", metavar="OUTPUT", help="weights file to write (default %s; "
        "connect four: %s)" % (DEFAULT_WEIGHTS, C4_WEIGHTS))
    add("--game", choices=tuple(GAMES), help="tic-tac-toe (default), or connect4: the C "
        "README's first question (the C's rule or expert iteration; one net for both sides)")
    add("--opponent", choices=(RANDOM, SELF, MCTS), help="who the net plays: random (the "
        "C's, default), self (self-play), mcts (Monte Carlo tree search)")
    add("--simulations", "--playouts", type=number(int, 1, 100000), metavar="N",
        help="simulations (playouts) a move: --opponent mcts (default %d), expert-iteration "
        "(default %d)" % (PLAYOUTS, SIMULATIONS))
    add("--explore", choices=("epsilon", "softmax"), help="q-learning: random moves (epsilon, "
        "default) or moves drawn from the softmax of the values")
    add("--temperature", type=number(float, 1e-12), metavar="T",
        help="q-learning with --explore softmax: the temperature, falling to 0 (default 1)")
    add("--curve", metavar="FILE.csv", help="write the learning curve as CSV rows")
    add("--runs", type=number(int, 1, 10000), metavar="K",
        help="train K runs with seeds S, S+1, ... in parallel and save the best")
    add("--jobs", type=number(int, 1, 64), metavar="N", help="worker processes for --runs "
        "or expert-iteration (default: one per core; expert-iteration 1: in this process)")
    args = check_flags(parser, parser.parse_intermixed_args(argv))
    # The output (and the curve) tried before the first game; Ctrl-C caught until they are saved.
    with saving(args.output) as save, saving(args.curve, weights=False) as save_curve, \
            first_ctrl_c() as stopped:
        draw_seed(args)
        if args.runs:   # K seeds in worker processes, the best saved (lab/runs.py)
            net, error = best_of_runs(args, save, save_curve, stopped)
        else:
            # 1. A new network (C: init_neural_network), or the --init file's.
            net, rng = start_network(args)
            sweeps, expert = args.method == POLICY_ITERATION, args.method == EXPERT_ITERATION
            print("Training neural network " + "for connect four " * (args.game == CONNECT4) + (
                "by policy iteration, at most %d sweeps..." if sweeps else
                "by expert iteration, %d self-play games..." if expert else
                {RANDOM: "against %d random games...", SELF: "by self-play, %d games...",
                 MCTS: "against MCTS, %d games..."}[args.opponent]) % args.games, flush=True)
            reporter = Reporter(args.games, args.side, bool(args.curve), stopped,
                                self_play=args.opponent == SELF)
            reporter.begin(net)
            # 2. Train it (C: train_against_random, or the loop of the rule --method names;
            # expert iteration's self-play in worker processes).
            if expert:
                games, error = train_expert_iteration_in_workers(net, rng, args,
                                                                 reporter.report_round, stopped)
            else:
                games, error = train(net, rng, args, reporter.report_sweep if sweeps
                                     else reporter.report), None
            seconds = reporter.finish(net)
            unit = "sweeps" if sweeps else "games"
            print("\n" + ("Stopped by %s after %d of %d %s%s." % (
                "a worker's death" if error else "Ctrl-C", games, args.games, unit,
                " (whole rounds learned)" * expert) if stopped() or error else
                "Training complete!" if games else
                "No %s: the net is untrained (random weights).%s" % (
                    unit, " For a player: %s." % C4_ADVICE if args.game == CONNECT4 else "")))
            # 3. Save it (C: save_neural_network).
            print("Neural network saved to %s%s" % (args.output, save(net)))
            if args.curve:
                save_curve(csv_text({args.seed: reporter.rows}, args.side).encode())
                print("Learning curve written to %s" % args.curve)
            rate = games / seconds   # a slow rule's (a sweep's, a round's) with 2 decimals
            print("Training time: %s (%d %s, %.*f a second)" % (
                format_seconds(seconds), games, unit, 0 if rate >= 10 else 2, rate))
            net = from_bytes(to_bytes(net))   # the net as the file holds it
    lines, result = describe(net, args.side)   # as ttt-eval says it
    print("\n".join(lines))
    if not result.get("unbeatable", True):   # a tic-tac-toe net that can be beaten
        print("This net can be beaten. For a complete player: " + ADVICE + ".")
    if error:   # a worker died: the best run, or the net of the last whole round, was saved
        sys.stderr.write("ttt-train: error: %s\n" % error)
    return EXIT_FAILURE if error else EXIT_STOPPED if stopped() else 0


if __name__ == "__main__":
    sys.exit(main())
