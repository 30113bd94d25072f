"""``receipt``: the command line. Thin: each subcommand is a module in ``hooks.commands``."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence

import hooks
from hooks.core.cmdline import ArgumentParser
from hooks.core.errors import guarded

# Subcommands that read their own command line (a command after --, or a hook's own parser):
# name -> (module, help). The rest are argparse subparsers built in build_parser().
OWN_PARSERS = {
    "run": ("run", "run a command and write a receipt (receipt run -- CMD ARGS)"),
    "skips": ("skips", "the no-inserted-skips scanner on demand (--list-rules, "
                       "--write-baseline)"),
    "fuse": ("fuse", "circuit breaker for an agent's inner loop (receipt fuse -- CMD)"),
    "agent-hook": ("agent_hook", "a coding agent's stop hook: no 'done' without a receipt "
                                 "(--agent claude-code|codex|gemini-cli|cursor)"),
    "claims": ("claims", "find claims that the tests pass in text (FILE or -), unbacked by a "
                         "receipt"),
    "contract": ("contract", "print the agent contract for AGENTS.md / CLAUDE.md / GEMINI.md"),
}


def _own_parser(name: str) -> Callable[[Sequence[str]], int]:
    import importlib

    module = importlib.import_module(f"hooks.commands.{OWN_PARSERS[name][0]}")
    main: Callable[[Sequence[str]], int] = module.main
    return main


def build_parser() -> ArgumentParser:
    from hooks import check_receipt
    from hooks.commands import attest
    from hooks.commands import demo
    from hooks.commands import init
    from hooks.commands import install_hook
    from hooks.commands import ledger
    from hooks.commands import notes
    from hooks.commands import override
    from hooks.commands import show
    from hooks.commands import verify

    parser = ArgumentParser(prog="receipt", description=hooks.__doc__)
    parser.add_argument("--version", action="version", version=f"receipt-hooks {hooks.__version__}")
    sub = parser.add_subparsers(dest="subcommand", metavar="COMMAND", parser_class=ArgumentParser)
    for name, (_module, text) in OWN_PARSERS.items():
        sub.add_parser(name, help=text, add_help=False)
    check = sub.add_parser("check", help="check the receipt against a commit (the hook's logic)")
    check_receipt.add_arguments(check)
    check_receipt.add_publish_argument(check)
    check.set_defaults(func=check_receipt.check)
    verifier = sub.add_parser("verify", help="every commit of a range (or every branch a "
                                             "server receives) needs a receipt in the notes")
    verify.add_arguments(verifier)
    verifier.set_defaults(func=verify.run)
    attester = sub.add_parser("attest", help="print a commit's receipt as an in-toto "
                                             "Statement (test-result predicate)")
    attest.add_arguments(attester)
    attester.set_defaults(func=attest.run)
    publish = sub.add_parser("publish", help="push refs/notes/receipts (merging theirs first)")
    notes.add_arguments(publish)
    publish.set_defaults(func=notes.publish)
    fetch = sub.add_parser("fetch", help="fetch refs/notes/receipts and merge them into ours")
    notes.add_arguments(fetch)
    fetch.set_defaults(func=notes.fetch)
    shown = sub.add_parser("show", help="show the receipt, then the check's verdict for HEAD")
    shown.add_argument("--receipt", metavar="PATH")
    shown.set_defaults(func=lambda args: show.show(args.receipt))
    install = sub.add_parser("install-hook",
                             help="install check-receipt as this repo's plain git pre-push hook")
    install_hook.add_arguments(install)
    install.set_defaults(func=install_hook.run)
    ledger_parser = sub.add_parser("ledger", help="the assumption ledger: add, resolve, list, "
                                                  "check")
    ledger.add_arguments(ledger_parser)
    ledger_parser.set_defaults(func=ledger.run)
    init_parser = sub.add_parser("init", help="set this repository up: config, hooks, "
                                              ".gitignore, pre-commit install")
    init.add_arguments(init_parser)
    init_parser.set_defaults(func=init.run)
    override_parser = sub.add_parser("override", help="let a push through check-receipt, "
                                                      "with a reason logged in the ledger")
    override.add_arguments(override_parser)
    override_parser.set_defaults(func=override.run)
    demo_parser = sub.add_parser("demo", help="show the whole flow in a throwaway repo, for real")
    demo_parser.add_argument("--keep", action="store_true",
                             help="keep the throwaway repo and print it")
    demo_parser.set_defaults(func=lambda args: demo.main(keep=args.keep))
    return parser


@guarded("receipt")
def main(argv: Sequence[str] | None = None) -> int:
    import sys

    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] and args_list[0] in OWN_PARSERS:
        return _own_parser(args_list[0])(args_list[1:])
    parser = build_parser()
    args = parser.parse_args(args_list)
    if not getattr(args, "func", None):
        parser.print_help()
        return 1
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
