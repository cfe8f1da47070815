"""`make test`: the unittest suite in one process per core, each running a group of test
modules of about equal time. Each group's output is printed whole when it ends, so outputs
never interleave, and ends with one line for each test it skipped, saying why. Exits non-zero
if any group failed.
`python -m unittest discover -s tests -t .` and pytest run the same tests in one process.
"""

import concurrent.futures
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# CPU seconds of the slow modules (CPython 3.11, a quiet 2-core VM); the others take under 1.5.
# Only the balance of the groups depends on them.
SECONDS = {"tests.test_web": 10.0, "tests.test_train": 6.3, "tests.test_learn": 6.1,
           "tests.lab.test_cli": 5.7, "tests.test_policy_iteration": 5.5,
           "tests.lab.test_runs": 4.0, "tests.test_reference": 3.7, "tests.test_qlearn": 3.7,
           "tests.lab.test_ttt_eval": 3.5, "tests.test_selfplay": 3.3, "tests.test_bench": 2.8,
           "tests.test_mcts": 2.3, "tests.lab.test_curve": 1.7, "tests.test_readme": 1.4,
           "tests.test_screens": 5.0}


def test_modules():
    """Return the dotted names of every test module under tests/."""
    names = []
    for folder, _, files in os.walk(HERE):
        for name in sorted(files):
            if name.startswith("test_") and name.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, name[:-3]), os.path.dirname(HERE))
                names.append(rel.replace(os.sep, "."))
    return sorted(names)


def groups(modules, count):
    """Split `modules` in `count` groups of about equal time: the longest first, each to the
    group that has the least so far."""
    found = [[] for _ in range(count)]
    for module in sorted(modules, key=lambda m: -SECONDS.get(m, 0.5)):
        min(found, key=lambda g: sum(SECONDS.get(m, 0.5) for m in g)).append(module)
    return [group for group in found if group]


# A group's process: unittest's runner (-v: verbose), then the skipped tests and why.
RUNNER = """
import sys, unittest
verbose = "-v" in sys.argv
suite = unittest.defaultTestLoader.loadTestsFromNames([a for a in sys.argv[1:] if a != "-v"])
result = unittest.TextTestRunner(verbosity=1 + verbose).run(suite)
for test, reason in result.skipped:
    sys.stderr.write("skipped: %s: %s\\n" % (test.id(), reason))
sys.exit(not result.wasSuccessful())
"""


def run(group, flags):
    """Run one group of test modules in a process; return (its exit status, its output)."""
    proc = subprocess.run([sys.executable, "-c", RUNNER, *flags, *group],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return proc.returncode, proc.stdout.decode("utf-8", "replace")


def main(flags):
    count = os.cpu_count() or 1
    with concurrent.futures.ThreadPoolExecutor(count) as pool:
        results = list(pool.map(lambda g: run(g, flags), groups(test_modules(), count)))
    for status, output in results:
        sys.stdout.write(output)
    return max(status for status, _ in results)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
