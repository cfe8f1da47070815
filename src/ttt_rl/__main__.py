"""`python -m ttt_rl` runs `ttt-rl`; the console scripts start here too. A
command is imported inside launch(): a Ctrl-C or error meanwhile is one line."""

import functools
import importlib
import sys

NAMES = {"train": "ttt-train", "play": "ttt-play", "ttt": "ttt-rl", "lab.ttt_eval": "ttt-eval"}


def launch(module):
    """Import ttt_rl.MODULE and return its main()'s exit status."""
    try:
        main = importlib.import_module("ttt_rl." + module).main
    except KeyboardInterrupt:
        sys.stderr.write("%s: interrupted\n" % NAMES[module])
        return 130
    except Exception as e:   # noqa: BLE001 (one line, never a traceback)
        sys.stderr.write("%s: error: %s\n" % (NAMES[module], e))
        return 1
    return main()


# The console scripts of pyproject.toml.
ttt_train, ttt_play, ttt_rl, ttt_eval = (functools.partial(launch, m) for m in NAMES)

if __name__ == "__main__":
    sys.exit(ttt_rl())
