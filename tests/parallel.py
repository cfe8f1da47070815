"""`make test`: the unittest suite, one process per test module, as many at a time as there
are cores, the slowest modules first. Each module's output is printed whole when it ends, so
outputs never interleave. Exits non-zero if any module failed.
`python -m unittest discover -s tests -t .` and pytest run the same tests in one process.
"""

import concurrent.futures
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# Started first, so that no slow module is left alone at the end (each takes 3 to 8 s).
SLOW = ("tests.test_learn", "tests.test_train", "tests.lab.test_runs", "tests.test_reference",
        "tests.test_bench", "tests.test_selfplay", "tests.lab.test_ttt_eval", "tests.test_web",
        "tests.test_qlearn", "tests.test_policy_iteration", "tests.lab.test_cli")


def test_modules():
    """Return the dotted names of every test module under tests/, the SLOW ones first."""
    names = []
    for folder, _, files in os.walk(HERE):
        for name in sorted(files):
            if name.startswith("test_") and name.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, name[:-3]), os.path.dirname(HERE))
                names.append(rel.replace(os.sep, "."))
    return sorted(names, key=lambda n: (n not in SLOW, SLOW.index(n) if n in SLOW else n))


def run(module, flags):
    """Run one test module in its own process; return (its exit status, its output)."""
    proc = subprocess.run([sys.executable, "-m", "unittest", *flags, module],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return proc.returncode, proc.stdout.decode("utf-8", "replace")


def main(flags):
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        results = list(pool.map(lambda m: run(m, flags), test_modules()))
    for status, output in results:
        sys.stdout.write(output)
    return max(status for status, _ in results)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
