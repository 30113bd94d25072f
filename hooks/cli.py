"""``receipt``: the command line. Thin: each subcommand parses its arguments and calls a module."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import hooks
from hooks.output import ArgumentParser
from hooks.output import guarded

RUN_USAGE = "receipt run [--receipt PATH] [--log PATH] [--junit FILE] -- CMD [ARG ...]\n" \
            "       receipt run [options] 'CMD STRING RUN BY /bin/sh'"


def _run(argv: list[str]) -> int:
    from hooks import run_receipt

    if "--" in argv:
        split = argv.index("--")
        options, command, shell = argv[:split], argv[split + 1:], False
    else:
        options, command, shell = argv, [], True
    parser = ArgumentParser(prog="receipt run", usage=RUN_USAGE,
                            description="Run a command and write a receipt of how it ended.")
    parser.add_argument("--receipt", metavar="PATH",
                        help="where to write the receipt (default: artifacts/test-receipt.json "
                             "at the repository root)")
    parser.add_argument("--log", metavar="PATH",
                        help="where to write the output (default: artifacts/test-output.log)")
    parser.add_argument("--junit", metavar="FILE",
                        help="read test counts from this JUnit XML report the command writes")
    if shell:
        parser.add_argument("command_string", nargs="?", metavar="'CMD STRING'")
    args = parser.parse_args(options)
    if shell:
        if not args.command_string:
            parser.error("no command given: use 'receipt run -- CMD ARGS' or "
                         "'receipt run \"CMD STRING\"'")
        command = [args.command_string]
    elif not command:
        parser.error("no command after '--'")
    return run_receipt.run(command, shell=shell, receipt_arg=args.receipt, log_arg=args.log,
                           junit=args.junit)


def _check(args: argparse.Namespace) -> int:
    from hooks import check_receipt

    return check_receipt.check(args)


def _show(args: argparse.Namespace) -> int:
    from hooks import show_receipt

    return show_receipt.show(args.receipt)


def _install_hook(args: argparse.Namespace) -> int:
    from hooks import install_hook

    return install_hook.install(force=args.force, extra_args=args.hook_args)


def _ledger(args: argparse.Namespace) -> int:
    from hooks import ledger_command

    return ledger_command.run(args)


def _demo(args: argparse.Namespace) -> int:
    from hooks import demo

    return demo.main(keep=args.keep)


def build_parser() -> ArgumentParser:
    from hooks import check_receipt

    parser = ArgumentParser(prog="receipt", description=hooks.__doc__)
    parser.add_argument("--version", action="version", version=f"receipt-hooks {hooks.__version__}")
    sub = parser.add_subparsers(dest="subcommand", metavar="COMMAND", parser_class=ArgumentParser)
    sub.add_parser("run", help="run a command and write a receipt (receipt run -- CMD ARGS)",
                   add_help=False)
    sub.add_parser("skips", help="the no-inserted-skips scanner on demand (--list-rules, "
                                 "--write-baseline)", add_help=False)
    sub.add_parser("fuse", help="circuit breaker for an agent's inner loop (receipt fuse -- CMD)",
                   add_help=False)
    check = sub.add_parser("check", help="check the receipt against a commit (the hook's logic)")
    check_receipt.add_arguments(check)
    check.set_defaults(func=_check)
    show = sub.add_parser("show", help="show the receipt and whether it is valid for HEAD")
    show.add_argument("--receipt", metavar="PATH")
    show.set_defaults(func=_show)
    install = sub.add_parser("install-hook",
                             help="install check-receipt as this repo's plain git pre-push hook")
    install.add_argument("--force", action="store_true", help="replace an existing pre-push hook")
    install.add_argument("hook_args", nargs="*", metavar="CHECK_ARG",
                         help="extra check-receipt arguments, after --")
    install.set_defaults(func=_install_hook)
    ledger = sub.add_parser("ledger", help="the assumption ledger: add, resolve, list, check")
    from hooks import ledger_command

    ledger_command.add_arguments(ledger)
    ledger.set_defaults(func=_ledger)
    demo = sub.add_parser("demo", help="show the whole flow in a throwaway repo, for real")
    demo.add_argument("--keep", action="store_true", help="keep the throwaway repo and print it")
    demo.set_defaults(func=_demo)
    return parser


@guarded("receipt")
def main(argv: Sequence[str] | None = None) -> int:
    import sys

    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["run"]:  # run takes a command line of its own: parse it by hand
        return _run(args_list[1:])
    if args_list[:1] == ["skips"]:  # the hook's own parser, under another name
        from hooks import no_inserted_skips

        return no_inserted_skips.run(args_list[1:], "receipt skips")
    if args_list[:1] == ["fuse"]:  # so does fuse
        from hooks import fuse

        return fuse.main(args_list[1:])
    parser = build_parser()
    args = parser.parse_args(args_list)
    if not getattr(args, "func", None):
        parser.print_help()
        return 1
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
