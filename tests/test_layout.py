"""The package's layout is its explanation (src/ttt_rl/): the algorithm
imports only the standard library and itself, weights.py never imports the
lab, there is no import cycle, and the algorithm is at least half of the
top level's code."""

import ast
import io
import os
import tokenize
import unittest

from .helpers import SRC

PACKAGE = os.path.join(SRC, "ttt_rl")
ALGORITHM = ("game", "nn", "learn", "qlearn", "mcts", "selfplay")
# The reading order of the top level (README "How it works").
READING_ORDER = ALGORITHM + ("weights", "train", "play", "ttt")
COMMANDS = ("train", "play", "ttt", "__main__")
# The reading order of the lab (lab/__init__.py).
LAB_ORDER = ("cli", "args", "exact", "text", "curve", "svg", "human", "files", "session", "runs",
             "ttt_eval")
MAX_LAB_FILES = 12   # __init__.py and eleven modules: the lab stays small
MAX_MODULE_LINES = 200


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


def code_lines(path):
    """Count non-blank lines that are neither comments nor docstrings."""
    source = source_of(path)
    docstrings = set()
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(getattr(body[0], "value", None), ast.Constant) \
                and isinstance(body[0].value.value, str):
            docstrings.update(range(body[0].lineno, body[0].end_lineno + 1))
    lines = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                            tokenize.DEDENT, tokenize.ENDMARKER):
            lines.update(range(tok.start[0], tok.end[0] + 1))
    return len(lines - docstrings)


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

    def test_no_module_is_long(self):
        long = {}
        for name, path in modules().items():
            with open(path, encoding="utf-8") as f:
                lines = len(f.readlines())
            if lines > MAX_MODULE_LINES:
                long[name] = lines
        self.assertEqual(long, {}, "modules over %d lines" % MAX_MODULE_LINES)

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

    def test_the_lab_has_few_files_listed_in_reading_order(self):
        lab = os.path.join(PACKAGE, "lab")
        files = [name for name in os.listdir(lab) if name.endswith(".py")]
        self.assertLessEqual(len(files), MAX_LAB_FILES, sorted(files))
        index = ast.get_docstring(ast.parse(source_of(os.path.join(lab, "__init__.py"))))
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

    def test_the_algorithm_is_at_least_half_of_the_top_level(self):
        counts = {name: code_lines(path) for name, path in modules().items()
                  if "." not in name and name != "lab"}
        share = sum(counts[n] for n in ALGORITHM) / sum(counts.values())
        self.assertGreaterEqual(share, 0.50, counts)


if __name__ == "__main__":
    unittest.main()
