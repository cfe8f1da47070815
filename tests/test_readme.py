"""The README as a specification: its Python example runs as written, and
every command in its shell blocks exists (a make target, a module, a
console script, a file)."""

import doctest
import os
import re
import shlex
import unittest

from .helpers import ROOT, SRC

README = os.path.join(ROOT, "README.md")


def blocks(language):
    """Return the README's fenced blocks of `language`, as strings."""
    with open(README, encoding="utf-8") as f:
        text = f.read()
    return re.findall(r"```%s\n(.*?)```" % language, text, re.S)


def make_targets():
    with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as f:
        return set(re.findall(r"^([a-z][a-z-]*):", f.read(), re.M))


def console_scripts():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        return set(re.findall(r"^(ttt-[a-z]+) = ", f.read(), re.M))


class ReadmeTest(unittest.TestCase):

    def test_the_python_example_runs(self):
        examples = blocks("python")
        self.assertTrue(examples)
        cwd = os.getcwd()
        os.chdir(ROOT)   # the example names tests/data/c_trained.bin
        self.addCleanup(os.chdir, cwd)
        for text in examples:
            test = doctest.DocTestParser().get_doctest(text, {}, "README", README, 0)
            result = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS).run(test)
            self.assertEqual(result.failed, 0)

    def test_every_shell_command_exists(self):
        targets, scripts = make_targets(), console_scripts()
        checked = 0
        for block in blocks("sh"):
            for line in block.splitlines():
                for command in re.split(r"&&|;", line.split("#")[0]):
                    words = shlex.split(command)
                    while words and "=" in words[0]:   # PYTHONPATH=src ...
                        words.pop(0)
                    if not words:
                        continue
                    checked += 1
                    name = words[0]
                    if name == "make":
                        self.assertLessEqual(set(words[1:]), targets, line)
                    elif name.startswith("python") and words[1:2] == ["-m"]:
                        module = words[2]
                        if module.startswith("ttt_rl"):
                            path = os.path.join(SRC, *module.split("."))
                            self.assertTrue(os.path.isfile(path + ".py")
                                            or os.path.isfile(os.path.join(path, "__main__.py")),
                                            line)
                    elif name.startswith("ttt-"):
                        self.assertIn(name, scripts, line)
                    elif name in (".", "source"):
                        continue   # activating a venv
                    else:
                        self.assertIn(name, ("pip", "pipx", "python3", "py"), line)
        self.assertGreater(checked, 10)


if __name__ == "__main__":
    unittest.main()
