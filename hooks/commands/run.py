"""``receipt run``: run a command and write a receipt of how it ended."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from hooks.core import shell
from hooks.core.cmdline import ArgumentParser
from hooks.core.cmdline import describe
from hooks.core.cmdline import split_at_dashdash
from hooks.core.errors import UserError

USAGE = ("receipt run [--receipt PATH] [--log PATH] [--junit FILE] [--reuse] [--shard I/N] "
         "-- CMD [ARG ...]"
         "\n"
         "       receipt run [options] 'CMD STRING RUN BY /bin/sh'\n"
         "       receipt run [options]   (runs the config's test-command)")


def main(argv: Sequence[str]) -> int:
    options, command, shell_form = split_at_dashdash(argv)
    parser = ArgumentParser(prog="receipt run", usage=USAGE)
    describe(parser, "Run a command and write a receipt of how it ended: its exit code, the "
                     "test counts in its output, and the tree it ran on.",
             "receipt run -- pytest -q",
             "receipt run 'npm test -- --run'      # one string: run by /bin/sh",
             notes=["Exits with the command's own exit code."])
    parser.add_argument("--receipt", metavar="PATH",
                        help="where to write the receipt (default: artifacts/test-receipt.json "
                             "at the repository root)")
    parser.add_argument("--log", metavar="PATH",
                        help="where to write the output, inside the repository (default: "
                             "artifacts/test-output.log; /dev/null keeps no log)")
    parser.add_argument("--junit", metavar="FILE",
                        help="read test counts from this JUnit XML report the command writes")
    parser.add_argument("--sign", action="store_true",
                        help="sign the receipt with git's user.signingkey (gpg.format=ssh); "
                             "also 'sign = true' in the config")
    parser.add_argument("--reuse", action="store_true",
                        help="exit 0 without running when the notes hold a green receipt from "
                             "the same command for the current tree")
    parser.add_argument("--shard", metavar="I/N",
                        help="record shard I of N of the suite: the command's own split flags "
                             "(--splits N --group I, --shard-id/--num-shards, --shard=I/N, "
                             "--partition count:I/N) are read as the shard, not a narrowing; "
                             "the tree is vouched for once shards 1..N are all green")
    if shell_form:
        parser.add_argument("command_string", nargs="?", metavar="'CMD STRING'")
    args = parser.parse_args(options)
    if shell_form and not args.command_string:
        if args.shard:
            parser.error("--shard needs the shard's command after '--' (with the runner's own "
                         "split flags, e.g. -- pytest --splits 4 --group 2)")
        return run_suite(args, parser)
    if shell_form:
        command = [args.command_string]
    elif not command:
        parser.error("no command after '--'")
    refuse_hidden_failures(command, shell_form)
    from hooks.core import git
    from hooks.core import snapshot

    paths = git.repo_paths()
    # begun before the recording modules load: git reads the work tree meanwhile
    begun = snapshot.begin(paths.root, paths.common_dir)
    try:
        from hooks.receipt.record.run import run

        return run(command, shell=shell_form, receipt_arg=args.receipt, log_arg=args.log,
                   junit=args.junit, reuse=args.reuse, sign=args.sign, shard=args.shard,
                   begun=(begun,))
    finally:
        if begun is not None:
            begun.discard()  # run() took it over, or stopped before: git waited for, copy gone


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


def run_suite(args: argparse.Namespace, parser: ArgumentParser) -> int:
    """No command: run the config's test-command, each of its commands in turn."""
    from hooks.core import config
    from hooks.core import git
    from hooks.receipt.record.run import run
    from hooks.receipt.store.keyed import configured_argv

    suite = config.for_repo(git.repo_paths()).test_commands
    if not suite:
        parser.error("no command given and no test-command in the config: use 'receipt run "
                     "-- CMD ARGS', or 'receipt init' to write a config that names the suite")
    first_failure = 0
    for command in suite:
        argv = configured_argv(command)
        refuse_hidden_failures(argv, False)  # a configured 'a; b' hides a failure as well
        code = run(argv, shell=False, receipt_arg=args.receipt, log_arg=args.log,
                   junit=args.junit, reuse=args.reuse, sign=args.sign, at_root=True)
        first_failure = first_failure or code
    return first_failure
