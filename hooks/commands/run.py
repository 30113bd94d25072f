"""``receipt run``: run a command and write a receipt of how it ended."""

from __future__ import annotations

from collections.abc import Sequence

from hooks.core import shell
from hooks.core.cmdline import ArgumentParser
from hooks.core.cmdline import split_at_dashdash
from hooks.core.errors import UserError

USAGE = ("receipt run [--receipt PATH] [--log PATH] [--junit FILE] -- CMD [ARG ...]\n"
         "       receipt run [options] 'CMD STRING RUN BY /bin/sh'")


def main(argv: Sequence[str]) -> int:
    from hooks.receipt.record import run

    options, command, shell_form = split_at_dashdash(argv)
    parser = ArgumentParser(prog="receipt run", usage=USAGE,
                            description="Run a command and write a receipt of how it ended.")
    parser.add_argument("--receipt", metavar="PATH",
                        help="where to write the receipt (default: artifacts/test-receipt.json "
                             "at the repository root)")
    parser.add_argument("--log", metavar="PATH",
                        help="where to write the output (default: artifacts/test-output.log)")
    parser.add_argument("--junit", metavar="FILE",
                        help="read test counts from this JUnit XML report the command writes")
    if shell_form:
        parser.add_argument("command_string", nargs="?", metavar="'CMD STRING'")
    args = parser.parse_args(options)
    if shell_form:
        if not args.command_string:
            parser.error("no command given: use 'receipt run -- CMD ARGS' or "
                         "'receipt run \"CMD STRING\"'")
        command = [args.command_string]
    elif not command:
        parser.error("no command after '--'")
    refuse_hidden_failures(command, shell_form)
    return run(command, shell=shell_form, receipt_arg=args.receipt, log_arg=args.log,
               junit=args.junit)


def refuse_hidden_failures(command: Sequence[str], shell_form: bool) -> None:
    """A shell string whose exit status can hide a failing command ('pytest; true') would
    record a pass that did not happen: refused before anything runs, with the fix."""
    if shell_form:
        text, errexit = command[0], False
    else:
        nested = shell.shell_string(command)  # receipt run -- sh -c 'a; b'
        if nested is None:
            return
        text, errexit, _ = nested
    found = shell.hiding_operator(text, errexit)
    if found:
        why, fix = found
        shown = text.replace("\n", "\\n")
        raise UserError(f"receipt run: '{shown}' can hide a failing command ({why}): {fix}")
