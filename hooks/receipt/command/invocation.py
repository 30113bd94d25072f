"""What a recorded command runs: the test runner, its own arguments, and what came before it.

``python3 -X dev -m pytest -q``, ``uv run pytest -q``, ``FOO=1 npx jest -t x`` and
``.venv/bin/pytest -q`` all start a runner. The variables set on the command line, the
launchers and the interpreter with its options are read and set aside first, so that what is
judged (narrowing, test counts, "is this the configured suite?") is the runner's own arguments:
``python -m pytest`` is pytest with no arguments, not pytest with a marker option ``-m``.

A shell string (the ``/bin/sh -c`` form, or ``sh -c`` inside a command) is cut at its operators
(``&&``, ``;``, ``|``, ...) into one invocation per simple command.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from hooks.core import shell
from hooks.core.cmdline import command_words
from hooks.core.cmdline import is_shell_form
from hooks.receipt.command import directories
from hooks.receipt.command import programs

ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


class Invocation:
    """One simple command: ``runner`` is a known runner (``pytest``, ``unittest``, ``jest``,
    ``vitest``, ``mocha``, ``go``, ``cargo``, ``node``, ``bun``, ``script:NAME``) or, for any
    other program, its name; ``args`` are the runner's own arguments; ``stripped`` what came
    before them; ``env`` the variables the command line sets; ``errexit``: run by ``sh -e``;
    ``chdir`` where it runs, relative to where the command started (``.``: there);
    ``python_options`` the letters of the Python interpreter's options before it that change
    what the tests check (``O`` once per ``-O``; ``E``/``I``: it ignores PYTHONOPTIMIZE)."""

    __slots__ = ("args", "chdir", "env", "errexit", "known", "python_options", "runner",
                 "stripped")

    def __init__(self, runner: str, args: tuple[str, ...], stripped: tuple[str, ...] = (),
                 env: tuple[tuple[str, str], ...] = (), known: bool = True,
                 errexit: bool = False, chdir: str = directories.ROOT,
                 python_options: str = "") -> None:
        self.runner = runner
        self.args = args
        self.stripped = stripped
        self.env = env
        self.known = known
        self.errexit = errexit
        self.chdir = chdir
        self.python_options = python_options

    def _fields(self) -> tuple[object, ...]:
        return (self.runner, self.args, self.stripped, self.env, self.known, self.errexit,
                self.chdir, self.python_options)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Invocation) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"Invocation(runner={self.runner!r}, args={self.args!r}, "
                f"stripped={self.stripped!r}, env={self.env!r}, known={self.known!r}, "
                f"chdir={self.chdir!r})")

    @property
    def kind(self) -> str:
        """The runner family: ``script`` for every package-manager script."""
        return self.runner.split(":", 1)[0]

    @property
    def optimize(self) -> int:
        """Python's optimisation level for the command (``sys.flags.optimize``): the larger of
        its interpreter's ``-O`` count and PYTHONOPTIMIZE set for it, which CPython reads as a
        number, any other non-empty text as 1. Above 0, Python strips every ``assert`` that
        pytest does not rewrite (helpers, the code under test)."""
        level = self.python_options.count("O")
        value = dict(self.env).get("PYTHONOPTIMIZE", "")
        if not value or "E" in self.python_options or "I" in self.python_options:
            return level
        try:
            number = int(value)
        except ValueError:
            number = 1
        return max(level, number if number >= 0 else 1)


def _name(word: str) -> str:
    base = os.path.basename(word)
    for suffix in programs.SCRIPT_SUFFIXES:
        if base.endswith(suffix) and base != suffix:
            return base[: -len(suffix)]
    return base


def _skip_options(words: Sequence[str], i: int, value_options: frozenset[str]) -> int:
    """Index of the first word after a program's own options (and a closing ``--``)."""
    while i < len(words) and words[i].startswith("-") and words[i] != "-":
        if words[i] == "--":
            return i + 1
        if words[i] in value_options:
            i += 1
        i += 1
    return i


def parse_words(words: Sequence[str], env: tuple[tuple[str, str], ...] = (),
                stripped: tuple[str, ...] = (),
                chdir: str = directories.ROOT) -> list[Invocation]:
    """The invocations one simple command's WORDS make (several when it is ``sh -c 'a && b'``);
    CHDIR: where it runs, as the words before it moved it."""
    i = 0
    while i < len(words) and ASSIGNMENT.match(words[i]):
        name, value = words[i].split("=", 1)
        env += ((name, value),)
        i += 1
    stripped += tuple(words[:i])
    words = words[i:]
    if not words:
        return []
    program, rest = _name(words[0]), list(words[1:])
    sub = rest[0] if rest else None
    if program in shell.SHELLS:
        return _shell(words, env, stripped, chdir)
    if programs.PYTHON.match(program):
        return _python(words, env, stripped, chdir)
    if program == "node":
        return _node(words, env, stripped, chdir)
    if program in programs.RUNNER_PROGRAMS:
        return [Invocation(programs.RUNNER_PROGRAMS[program], tuple(rest),
                           (*stripped, words[0]), env, chdir=chdir)]
    toolchain = 1 if program == "cargo" and sub and sub.startswith("+") else 0  # cargo +1.80
    sub = rest[toolchain] if len(rest) > toolchain else None
    if sub is not None and (program, sub) in programs.SUBCOMMAND_RUNNERS:
        return [Invocation(programs.SUBCOMMAND_RUNNERS[(program, sub)], tuple(rest[toolchain + 1:]),
                           stripped + tuple(words[:toolchain + 2]), env, chdir=chdir)]
    if program == "env" and any(w.startswith(("-S", "--split-string")) for w in rest):
        words = _env_split(words)  # env -S 'pytest -k x': the string is more words
    launcher = programs.LAUNCHERS.get((program, sub)) if sub is not None else None
    start = 2
    if launcher is None:
        launcher, start = programs.LAUNCHERS.get((program, None)), 1
    if launcher is not None:
        end = _skip_options(words, start, launcher.value_options) + launcher.positionals
        if program == "hatch" and end < len(words) and ":" in words[end]:  # hatch run ENV:CMD
            words = [*words[:end], words[end].split(":", 1)[1], *words[end + 1:]]
        chdir = directories.moved(chdir, program, words[1:end])
        if launcher.python_args:
            return _python(words[end - 1:], env, stripped + tuple(words[:end - 1]), chdir)
        return parse_words(words[end:], env, stripped + tuple(words[:end]), chdir)
    chdir = directories.moved(chdir, program, rest)  # make -C sub, npm --prefix sub test
    if sub is not None and (program, sub) in programs.SCRIPT_COMMANDS:
        return [_script(program, words, env, stripped, chdir)]
    # yarn jest, pnpm vitest
    if program in programs.BIN_RUNNERS and sub in programs.RUNNER_PROGRAMS:
        return parse_words(words[1:], env, (*stripped, words[0]), chdir)
    return [Invocation(program, tuple(rest), (*stripped, words[0]), env, known=False,
                       chdir=chdir)]


def _env_split(words: Sequence[str]) -> list[str]:
    """``env -S STRING`` (``-SSTRING``, ``--split-string=STRING``) with STRING split."""
    out = [words[0]]
    i = 1
    while i < len(words):
        word = words[i]
        i += 1
        name, eq, value = word.partition("=")
        if word in ("-S", "--split-string") and i < len(words):
            value, eq = words[i], "="
            i += 1
        elif word.startswith("-S") and len(word) > 2:
            value, eq = word[2:], "="
        elif name != "--split-string":
            out.append(word)
            continue
        split = shell.split(value).commands
        return out + (split[0] if split else []) + list(words[i:]) if eq else out
    return out


def _script(program: str, words: Sequence[str], env: tuple[tuple[str, str], ...],
            stripped: tuple[str, ...], chdir: str) -> Invocation:
    name = programs.SCRIPT_COMMANDS[(program, words[1])]
    i = 2
    if name is None:  # "run": the package manager's options, then the script's name
        i = _skip_options(words, 2, frozenset())
        name = words[i] if i < len(words) else ""
        i += 1
    if name in programs.RUNNER_PROGRAMS and program != "npm":  # yarn run jest: the binary
        return parse_words(words[i - 1:], env, stripped + tuple(words[:i - 1]), chdir)[0]
    args = list(words[i:])
    if program in programs.SCRIPT_ARGS_AFTER_DASHDASH:
        args = args[args.index("--") + 1:] if "--" in args else []
    elif args[:1] == ["--"]:
        args = args[1:]
    return Invocation(f"script:{name}", tuple(args), stripped + tuple(words[:i]), env,
                      chdir=chdir)


def _python(words: Sequence[str], env: tuple[tuple[str, str], ...],
            stripped: tuple[str, ...], chdir: str) -> list[Invocation]:
    """``python [options] (-m MODULE | SCRIPT | -c CODE) ARGS``: the module or script runs,
    carrying the interpreter's options that change what the tests check (``-O``)."""
    i = 1
    options = ""  # the letters of programs.PYTHON_CHECK_OPTIONS given, in order
    while i < len(words):
        word = words[i]
        if word == "--" or not word.startswith("-") or word == "-":
            i += word == "--"
            break
        if word.startswith("--"):
            i += 2 if word in programs.PYTHON_LONG_VALUE_OPTIONS else 1
            continue
        taken = 0  # words after this cluster that its last option consumed
        for j, letter in enumerate(word[1:], 1):
            attached = word[j + 1:]
            if letter in "mc":
                target = attached or (words[i + 1] if i + 1 < len(words) else "")
                after = i + 1 if attached else i + 2
                head = stripped + tuple(words[:i + 1])
                if letter == "c":
                    return [Invocation(f"{_name(words[0])} -c", (target, *words[after:]), head,
                                       env, known=False, chdir=chdir, python_options=options)]
                return _under_python(parse_words([target, *words[after:]], env, head, chdir),
                                     options)
            if letter in programs.PYTHON_VALUE_OPTIONS:
                taken = 0 if attached else 1
                break
            if letter in programs.PYTHON_CHECK_OPTIONS:
                options += letter
        i += 1 + taken
    if i >= len(words):
        return [Invocation(_name(words[0]), (), stripped + tuple(words), env, known=False,
                           chdir=chdir, python_options=options)]
    script = parse_words(words[i:], env, stripped + tuple(words[:i]), chdir)
    if script and not script[0].known:  # python t.py: the script is the program
        return [Invocation(_name(words[0]), tuple(words[i:]), stripped + tuple(words[:i]), env,
                           known=False, chdir=chdir, python_options=options)]
    return _under_python(script, options)


def _under_python(found: list[Invocation], options: str) -> list[Invocation]:
    """FOUND, run by an interpreter given OPTIONS (see programs.PYTHON_CHECK_OPTIONS)."""
    if not options:
        return found
    return [Invocation(inv.runner, inv.args, inv.stripped, inv.env, inv.known, inv.errexit,
                       inv.chdir, options + inv.python_options) for inv in found]


def _node(words: Sequence[str], env: tuple[tuple[str, str], ...],
          stripped: tuple[str, ...], chdir: str) -> list[Invocation]:
    """``node --test [options] [files]`` is node's test runner; ``node SCRIPT`` runs SCRIPT."""
    if "--test" in words[1:] and not any(w in programs.NODE_CODE_OPTIONS for w in words[1:]):
        args = tuple(w for w in words[1:] if w != "--test")
        return [Invocation("node", args, (*stripped, words[0], "--test"), env, chdir=chdir)]
    i = _skip_options(words, 1, programs.NODE_VALUE_OPTIONS)
    if i >= len(words) or any(w in programs.NODE_CODE_OPTIONS for w in words[1:i]):
        return [Invocation("node", tuple(words[1:]), (*stripped, words[0]), env, known=False,
                           chdir=chdir)]
    return parse_words(words[i:], env, stripped + tuple(words[:i]), chdir)


def _shell(words: Sequence[str], env: tuple[tuple[str, str], ...],
           stripped: tuple[str, ...], chdir: str) -> list[Invocation]:
    """``sh -c 'STRING'`` (``-ec``, ``-e -c``, ...): the commands in STRING."""
    found = shell.shell_string(words)
    if found is None:
        return [Invocation(_name(words[0]), tuple(words[1:]), (*stripped, words[0]), env,
                           known=False, chdir=chdir)]
    text, errexit, used = found
    return [Invocation(inv.runner, inv.args, inv.stripped, inv.env, inv.known, errexit=errexit,
                       chdir=inv.chdir, python_options=inv.python_options)
            for inv in _segments(text, env, stripped + tuple(words[:used]), chdir)]


def _segments(text: str, env: tuple[tuple[str, str], ...], stripped: tuple[str, ...],
              chdir: str) -> list[Invocation]:
    """The commands of a shell string, each where the ``cd`` commands before it left it."""
    found: list[Invocation] = []
    for segment in shell.split(text).commands:
        found += parse_words(segment, env, stripped, chdir)
        chdir = directories.after_cd(chdir, segment) or chdir
    return found


def invocations(argv: Sequence[str], chdir: str = directories.ROOT) -> list[Invocation]:
    """Every simple command a recorded ARGV runs, launchers and interpreters read; CHDIR:
    where ARGV itself ran, relative to the repository root."""
    if is_shell_form(argv):
        return _segments(argv[2], (), (), chdir)
    return parse_words(command_words(argv), chdir=chdir)


def invocation(argv: Sequence[str]) -> Invocation | None:
    """The test runner ARGV runs: the first known runner, else its last command."""
    found = invocations(argv)
    return next((inv for inv in found if inv.known), found[-1] if found else None)
