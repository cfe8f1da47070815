"""`make test`: the unittest suite in two processes at once, one per core.

The test modules are split in two groups of about equal time (the slow
--runs module, with the Quick start recipe, goes with the tests of ttt-rl,
Q-learning and self-play); each group runs as `python -m unittest
MODULES...`, and its output is printed whole when it ends, so the two
never interleave. Exits non-zero if
either group failed. `python -m unittest discover -s tests -t .` and
pytest run the same tests in one process.
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# About half of the suite's time (measured on 2 cores: test_runs takes
# 10 s, its Quick start recipe alone 4 s; the rest of this group 4 s).
SECOND_GROUP = ("tests.lab.test_runs", "tests.test_ttt", "tests.test_qlearn",
                "tests.test_selfplay")


def test_modules():
    """Return the dotted names of every test module under tests/."""
    names = []
    for folder, _, files in os.walk(HERE):
        for name in sorted(files):
            if name.startswith("test_") and name.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, name[:-3]), os.path.dirname(HERE))
                names.append(rel.replace(os.sep, "."))
    return sorted(names)


def main(flags):
    modules = test_modules()
    groups = [[m for m in modules if m not in SECOND_GROUP],
              [m for m in modules if m in SECOND_GROUP]]
    procs = [subprocess.Popen([sys.executable, "-m", "unittest", *flags, *group],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
             for group in groups if group]
    status = 0
    for proc in procs:
        out, _ = proc.communicate()
        sys.stdout.write(out.decode("utf-8", "replace"))
        status = status or proc.returncode
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
