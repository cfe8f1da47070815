"""`ttt-eval`: the strength of trained networks (exact.describe): a tic-tac-toe net's exact, a
connect-four net's measured, alone and with its search. The C only samples games.
"""

import json
import os
import sys

from .. import connect4
from ..game import BOTH, O, X
from ..weights import FileError, rules_of
from .cli import EXIT_FAILURE, command, number, parser_for
from .exact import C4_SEARCH_GAMES, describe
from .files import load_weights

EXIT_UNREADABLE = 2   # as grep and diff: 1 is taken by "can be beaten" (--check)
EPILOG = """examples:
  ttt-eval ttt_nn.bin --side both        both sides of a net
  ttt-eval a.bin b.bin --json            one JSON object per file
  ttt-eval --check a.bin && echo ok      ok if the net cannot be beaten
  ttt-eval c4_nn.bin --search 200        a connect-four net, alone and searched

exit status: 1 with --check if a net can be beaten; 2 if a file cannot be read,
or is a connect-four net with --check, or a tic-tac-toe net with --search
"""


@command("ttt-eval")
def main(argv=None):
    """Run ttt-eval on `argv` (default sys.argv[1:]); return the exit status: 0, or EPILOG's."""
    parser = parser_for("ttt-eval", "The strength of trained networks: a tic-tac-toe net's is "
                        "exact (every game\nit can play, walked); a connect-four net's is "
                        "measured (seeded games, and\npositions a solver scored).", EPILOG)
    add = parser.add_argument
    add("weights", nargs="+", metavar="WEIGHTS", help="weights files of ttt-train or the C train")
    add("--side", choices=(O, X, BOTH), default=O,
        help="the side the net plays (default O; X moves first; both: each side in turn)")
    add("--check", action="store_true", help="exit with status 1 if any net can be beaten")
    add("--json", action="store_true", help="print one JSON object per file, one per line")
    add("--search", type=number(int, 0, 10000), default=0, metavar="N", help="connect four: also "
        "measure the net's search, N simulations a move (%d games a side)" % C4_SEARCH_GAMES)
    args = parser.parse_intermixed_args(argv)
    status = 0
    for path in args.weights:
        try:
            net = load_weights(path)
            if args.check and rules_of(net) is connect4:
                raise FileError("%s is a connect-four net: --check is for tic-tac-toe" % path)
            if args.search and rules_of(net) is not connect4:
                raise FileError("%s is a tic-tac-toe net: --search is for connect four" % path)
        except FileError as e:
            print("ttt-eval: error: %s" % e, file=sys.stderr)
            status = EXIT_UNREADABLE   # could not check: not the same as beatable
            continue
        lines, result = describe(net, args.side, args.search)
        if args.check and not result["unbeatable"]:   # (--check is refused for connect four)
            status = status or EXIT_FAILURE
        name = os.fsencode(path).decode("utf-8", "backslashreplace")   # JSON is UTF-8
        print(json.dumps({"file": name, **{k: v for k, v in result.items() if k != "sides"}})
              if args.json else "\n  ".join([path] + lines))
    return status


if __name__ == "__main__":
    sys.exit(main())
