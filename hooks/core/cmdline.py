"""Command lines: the argparse flavour every command uses, and the two forms of a command.

A command is given as an argv after ``--`` (run as is) or as one string (run by ``/bin/sh -c``,
the seed script's form). Both are stored as an argv; ``command_words`` reads the shell form
back into words so that the checks that read a command see the same thing either way.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Sequence

from hooks.core.errors import USAGE_ERROR

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any
    from typing import NoReturn

ANNOTATIONS_HELP = ("Under GitHub Actions (GITHUB_ACTIONS=true) every finding is also printed "
                    "as an ::error annotation, on its file and line when it has them.")

SHELL = "/bin/sh"


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error exits 1 in one line: 2 is taken by "receipt missing"; and
    the epilog (examples, see ``describe``) is printed as written.

    The hooks run on every push: what only --help needs (textwrap for ``describe``'s text,
    shutil for the terminal's width) is imported when help is printed, not on every call."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)
        self.described: tuple[str, Sequence[str], Sequence[str], bool] | None = None
        self._adding = False

    def _print_message(self, message: str, file: Any = None) -> None:
        import sys

        from hooks.core.errors import write_text

        if message:  # help, usage, --version: the one writer, a closed pipe the end of it
            write_text(file if file is not None else sys.stderr, message)

    def error(self, message: str) -> NoReturn:
        from hooks.core.text import printable  # an argument's bytes that are not UTF-8: \xNN

        self.exit(USAGE_ERROR, f"{self.prog}: error: {printable(message)} "
                               f"(see '{self.prog} --help')\n")

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        self._adding = True
        try:
            return super().add_argument(*args, **kwargs)
        finally:
            self._adding = False

    def _get_formatter(self) -> argparse.HelpFormatter:
        # add_argument builds a formatter only to check the metavar (its _format_args), and a
        # formatter without a width asks shutil for the terminal's: no width is printed then
        if self._adding:
            formatter_class: Any = self.formatter_class  # every HelpFormatter takes a width
            checker: argparse.HelpFormatter = formatter_class(prog=self.prog, width=80)
            return checker
        return super()._get_formatter()

    def format_help(self) -> str:
        if self.described is not None:
            _fill(self, *self.described)
            self.described = None
        return super().format_help()


def describe(parser: argparse.ArgumentParser, sentence: str, *examples: str,
             notes: Sequence[str] = (), annotates: bool = False) -> None:
    """--help for people: one plain sentence, then the options, then examples and notes."""
    if isinstance(parser, ArgumentParser):  # laid out when the help is printed
        parser.described = (sentence, examples, notes, annotates)
    else:
        _fill(parser, sentence, examples, notes, annotates)


def _fill(parser: argparse.ArgumentParser, sentence: str, examples: Sequence[str],
          notes: Sequence[str], annotates: bool) -> None:
    import textwrap

    parser.description = textwrap.fill(sentence, 78)
    epilog = ["example:" if len(examples) == 1 else "examples:",
              *(f"  {example}" for example in examples)]
    for note in [*notes, *([ANNOTATIONS_HELP] if annotates else [])]:
        epilog += ["", textwrap.fill(note, 78)]
    parser.epilog = "\n".join(epilog)


def regex_argument(text: str) -> str:
    """argparse type for a REGEX option: refused in one line when it does not compile, kept as
    text so that the paths that never use it never compile it."""
    import re

    try:
        re.compile(text)
    except re.error as e:
        raise argparse.ArgumentTypeError(f"not a regular expression: {text!r} ({e})") from e
    return text


def split_at_dashdash(argv: Sequence[str]) -> tuple[list[str], list[str], bool]:
    """(options, command, shell): the command after ``--``, else the shell-string form."""
    words = list(argv)
    if "--" in words:
        split = words.index("--")
        return words[:split], words[split + 1:], False
    return words, [], True


def command_argv(command: Sequence[str], shell: bool) -> list[str]:
    """What is executed: the argv itself, or the string handed to /bin/sh -c."""
    return [SHELL, "-c", command[0]] if shell else list(command)


def is_shell_form(argv: Sequence[str]) -> bool:
    return len(argv) == 3 and list(argv[:2]) == [SHELL, "-c"]


def command_text(argv: Sequence[str]) -> str:
    """The command as a person types it: the shell string, or the argv quoted."""
    return argv[2] if is_shell_form(argv) else shlex.join(argv)


def command_words(argv: Sequence[str]) -> list[str]:
    """The words of a command, reading the shell form's string the way sh would split it."""
    if not is_shell_form(argv):
        return list(argv)
    try:
        return shlex.split(argv[2])
    except ValueError:  # unbalanced quotes: the best reading there is
        return argv[2].split()


def quoted(command: str) -> str:
    """COMMAND as a message shows it, set apart so that what is copied is exactly the command:
    in single quotes, or, when it holds one, in double quotes, or, when it holds both, in
    backticks. Every message that shows or suggests a command goes through here."""
    for mark in ("'", '"'):
        if mark not in command:
            return f"{mark}{command}{mark}"
    return f"`{command}`"


def rerun_command(argv: Sequence[str] | None) -> str:
    """``receipt run ...`` that runs ARGV again, quoted so it can be pasted into a shell."""
    if not argv:
        return "receipt run -- <your test command>"
    if is_shell_form(argv):
        return f"receipt run {shlex.quote(argv[2])}"
    return "receipt run -- " + shlex.join(argv)


def own_command(script: str, module: str) -> list[str]:
    """How to start one of our own console scripts from a hook or the demo.

    The installed script by absolute path (next to this interpreter, as pip installs it), never
    ``python -m`` from the user's repository, which would put that repository first on the
    import path and run its own ``hooks`` package instead of ours. Without the script, an
    isolated interpreter (``-I``: no current directory on the path) runs the module.
    """
    import os
    import sys

    path = os.path.join(os.path.dirname(sys.executable), script)
    if os.path.isfile(path) and os.access(path, os.X_OK):
        return [path]
    return [sys.executable, "-I", "-m", module]
