"""The package's layout is its explanation (src/ttt_rl/): the algorithm imports only the
standard library and itself, weights.py never imports the lab, the lab never imports a
command, there is no import cycle, and no line is over 99 characters. (Line budgets live in
the issues and in review, not here.)"""

import ast
import os
import unittest

from .helpers import SRC

PACKAGE = os.path.join(SRC, "ttt_rl")
ALGORITHM = ("game", "connect4", "nn", "learn", "qlearn", "mcts", "selfplay",
             "policy_iteration", "expert_iteration")
# The reading order of the top level (README "How it works").
READING_ORDER = ALGORITHM + ("weights", "train", "play", "ttt", "__main__", "web")
COMMANDS = ("train", "play", "ttt", "__main__", "web")
# The reading order of the lab (lab/__init__.py).
LAB_ORDER = ("exact", "files", "cli", "curve", "runs", "ttt_eval")
MAX_LINE = 99


def source_of(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def modules():
    """Return {dotted name under ttt_rl: path} for every module."""
    found = {}
    for folder, _, names in os.walk(PACKAGE):
        for name in names:
            if name.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, name), PACKAGE)[:-3]
                found[rel.replace(os.sep, ".").replace(".__init__", "")] = \
                    os.path.join(folder, name)
    return found


def imports_of(name, path):
    """Return the project modules `name` imports, inside functions too."""
    package = name.split(".")[:-1] if not path.endswith("__init__.py") else name.split(".")
    known, found = modules(), set()
    for node in ast.walk(ast.parse(source_of(path))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[:len(package) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                full = (target + "." if target else "") + alias.name
                found.add(full if full in known else target)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) \
                else [node.module or ""]
            found.update(n[len("ttt_rl."):] for n in names if n.startswith("ttt_rl."))
    return {f for f in found if f and f != name}


class LayoutTest(unittest.TestCase):
    """One-way imports in the reading order; the algorithm first and alone."""

    def test_the_algorithm_imports_only_itself(self):
        for name in ALGORITHM:
            self.assertLessEqual(imports_of(name, modules()[name]), set(ALGORITHM), name)

    def test_top_level_imports_only_what_is_above_it_and_the_lab(self):
        for i, name in enumerate(READING_ORDER):
            above = set(READING_ORDER[:i]) | {""}
            for imported in imports_of(name, modules()[name]):
                self.assertTrue(imported in above or imported.startswith("lab"),
                                "%s imports %s" % (name, imported))

    def test_the_weights_file_never_imports_the_lab(self):
        self.assertLessEqual(imports_of("weights", modules()["weights"]), set(ALGORITHM))

    def test_no_line_is_over_99_characters(self):
        for name, path in modules().items():
            for number, line in enumerate(source_of(path).splitlines(), 1):
                self.assertLessEqual(len(line), MAX_LINE, "%s:%d" % (name, number))

    def test_the_lab_never_imports_a_command(self):
        for name, path in modules().items():
            if name.startswith("lab"):
                self.assertFalse(imports_of(name, path) & set(COMMANDS), name)

    def test_the_lab_imports_only_what_is_above_it(self):
        lab = ["lab." + name for name in LAB_ORDER]
        self.assertEqual(set(lab), {n for n in modules() if n.startswith("lab.")})
        below = list(READING_ORDER[:len(ALGORITHM) + 1]) + [""]   # the algorithm, weights.py
        for i, name in enumerate(lab):
            for imported in imports_of(name, modules()[name]):
                self.assertIn(imported, lab[:i] + below, "%s imports %s" % (name, imported))

    def test_the_lab_index_lists_its_modules_in_reading_order(self):
        index = ast.get_docstring(ast.parse(source_of(os.path.join(PACKAGE, "lab",
                                                                    "__init__.py"))))
        listed = [line.split()[0][:-3] for line in index.splitlines()
                  if line.startswith("  ") and line.split()[0].endswith(".py")]
        self.assertEqual(tuple(listed), LAB_ORDER)

    def test_no_import_cycle(self):
        graph = {name: imports_of(name, path) for name, path in modules().items()}
        done = set()

        def visit(name, path):
            self.assertNotIn(name, path, "cycle: " + " -> ".join(path + [name]))
            if name not in done:
                for dep in graph.get(name, ()):
                    visit(dep, path + [name])
                done.add(name)

        for name in graph:
            visit(name, [])


if __name__ == "__main__":
    unittest.main()
