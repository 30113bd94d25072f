"""The programs a test command is made of, as data: launchers that run the command after them
(``uv run``, ``npx``, ``timeout 60``), runners known by name or subcommand, package-manager
scripts, and the interpreters' options that take a value. ``invocation`` reads commands with
these tables; adding a launcher or runner is a row here, not a branch there.
"""

from __future__ import annotations

import re


class Launcher:
    """A program that runs the command after it: its options that take a separate value (so the
    value is not read as the command), how many positionals of its own come first, and whether
    what follows is a Python interpreter's arguments (``coverage run -m pytest``).

    Plain classes here, not dataclasses: check-receipt imports this on every push, and
    ``dataclasses`` alone costs it about 10 ms."""

    __slots__ = ("positionals", "python_args", "value_options")

    def __init__(self, value_options: frozenset[str], positionals: int,
                 python_args: bool) -> None:
        self.value_options = value_options
        self.positionals = positionals
        self.python_args = python_args


def _launcher(*value_options: str, positionals: int = 0, python_args: bool = False) -> Launcher:
    return Launcher(frozenset(value_options), positionals, python_args)


# By (program, subcommand); None: the program itself launches.
LAUNCHERS: dict[tuple[str, str | None], Launcher] = {
    ("uv", "run"): _launcher("--with", "--with-editable", "--with-requirements", "--python",
                             "-p", "--extra", "--group", "--only-group", "--no-group",
                             "--env-file", "--directory", "--project", "--package", "--index",
                             "--default-index", "--index-url", "--extra-index-url",
                             "--find-links", "-f", "--config-file", "--cache-dir", "-C"),
    ("poetry", "run"): _launcher("-C", "--directory", "-P", "--project"),
    ("pipenv", "run"): _launcher(),
    ("hatch", "run"): _launcher(),
    ("pdm", "run"): _launcher("-p", "--project"),
    ("rye", "run"): _launcher(),
    ("conda", "run"): _launcher("-n", "--name", "-p", "--prefix", "--cwd"),
    ("mamba", "run"): _launcher("-n", "--name", "-p", "--prefix", "--cwd"),
    ("micromamba", "run"): _launcher("-n", "--name", "-p", "--prefix", "--cwd"),
    ("pixi", "run"): _launcher("-e", "--environment", "--manifest-path"),
    ("tox", "exec"): _launcher("-e"),
    ("coverage", "run"): _launcher("--rcfile", "--source", "--include", "--omit", "--data-file",
                                   "--context", "--concurrency", python_args=True),
    ("npx", None): _launcher("-p", "--package"),
    ("bunx", None): _launcher("-p", "--package"),
    ("bun", "x"): _launcher("-p", "--package"),
    ("npm", "exec"): _launcher("-p", "--package", "-w", "--workspace"),
    ("npm", "x"): _launcher("-p", "--package", "-w", "--workspace"),
    ("pnpm", "exec"): _launcher("-C", "--dir", "-F", "--filter"),
    ("pnpm", "dlx"): _launcher("--package"),
    ("yarn", "exec"): _launcher(),
    ("yarn", "dlx"): _launcher("-p", "--package"),
    ("env", None): _launcher("-u", "--unset", "-C", "--chdir"),
    ("exec", None): _launcher("-a"),
    ("command", None): _launcher(),
    ("time", None): _launcher("-f", "--format", "-o", "--output"),
    ("nice", None): _launcher("-n", "--adjustment"),
    ("nohup", None): _launcher(),
    ("timeout", None): _launcher("-s", "--signal", "-k", "--kill-after", positionals=1),
    ("stdbuf", None): _launcher("-i", "-o", "-e"),
    ("xvfb-run", None): _launcher("-n", "--server-num", "-s", "--server-args", "-e",
                                  "--error-file", "-f", "--auth-file", "-p"),
}

# Programs that are a runner, by name; programs whose subcommand is one.
RUNNER_PROGRAMS = {"pytest": "pytest", "py.test": "pytest", "pytest-3": "pytest",
                   "unittest": "unittest", "jest": "jest", "vitest": "vitest",
                   "mocha": "mocha", "_mocha": "mocha"}
SUBCOMMAND_RUNNERS = {("go", "test"): "go", ("cargo", "test"): "cargo", ("bun", "test"): "bun"}

# Package-manager scripts (``npm test``, ``yarn run test``): the runner is ``script:NAME``.
# The value: the subcommand names the script itself (``test``) or the next word does (``run``).
SCRIPT_COMMANDS: dict[tuple[str, str], str | None] = {
    ("npm", "test"): "test", ("npm", "t"): "test", ("npm", "tst"): "test",
    ("npm", "run"): None, ("npm", "run-script"): None, ("npm", "rum"): None,
    ("yarn", "test"): "test", ("yarn", "run"): None,
    ("pnpm", "test"): "test", ("pnpm", "t"): "test", ("pnpm", "run"): None,
    ("bun", "run"): None,
}
# npm hands a script only the arguments after "--"; the others pass everything on.
SCRIPT_ARGS_AFTER_DASHDASH = frozenset({"npm"})
# Package managers that also run a package's binary by name (``yarn jest``, ``pnpm vitest``).
BIN_RUNNERS = frozenset({"yarn", "pnpm", "bun"})

PYTHON = re.compile(r"^(?:python(?:\d+(?:\.\d+)*)?[dmtw]?|pypy\d*(?:\.\d+)*)(?:\.exe)?$")
PYTHON_VALUE_OPTIONS = "WX"  # -W arg, -X opt: attached or the next word
# The interpreter's options that change what the tests check: -O strips asserts (and -OO
# docstrings); -E and -I make it ignore PYTHONOPTIMIZE, which does the same as -O.
PYTHON_CHECK_OPTIONS = "OEI"
PYTHON_LONG_VALUE_OPTIONS = frozenset({"--check-hash-based-pycs"})
NODE_VALUE_OPTIONS = frozenset({"-r", "--require", "--import", "--loader",
                                "--experimental-loader", "-C", "--conditions", "--input-type",
                                "--test-reporter", "--test-reporter-destination",
                                "--test-name-pattern", "--test-skip-pattern",
                                "--test-concurrency", "--test-timeout", "--test-shard"})
NODE_CODE_OPTIONS = frozenset({"-e", "--eval", "-p", "--print"})
SCRIPT_SUFFIXES = (".js", ".mjs", ".cjs", ".exe")
