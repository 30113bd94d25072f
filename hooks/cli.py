"""``receipt``: the command line. Thin: each subcommand is a module in ``hooks.commands``."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence

import hooks
from hooks.core.cmdline import ArgumentParser
from hooks.core.cmdline import describe
from hooks.core.errors import USAGE_ERROR
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
    from hooks.commands import check as check_command
    from hooks.commands import demo
    from hooks.commands import doctor
    from hooks.commands import init
    from hooks.commands import install_hook
    from hooks.commands import ledger
    from hooks.commands import notes
    from hooks.commands import override
    from hooks.commands import show
    from hooks.commands import verify
    from hooks.core import exits

    parser = ArgumentParser(prog="receipt")
    describe(parser, "Make \"the tests passed\" a fact a machine can check: run the tests "
                     "under receipt, and let the hooks refuse what has no receipt.",
             "receipt demo                         # the whole flow in a throwaway repo",
             "receipt init                         # set this repository up",
             "receipt run -- pytest -q             # run the tests, write the receipt",
             notes=["'receipt COMMAND --help' says more about each command."])
    parser.add_argument("--version", action="version", version=f"receipt-hooks {hooks.__version__}")
    sub = parser.add_subparsers(dest="subcommand", metavar="COMMAND", parser_class=ArgumentParser)
    for name, (_module, text) in OWN_PARSERS.items():
        sub.add_parser(name, help=text, add_help=False)
    check = sub.add_parser("check", help="check the receipt against a commit (the hook's logic)")
    describe(check, "Check the receipt against a commit, as the check-receipt hook does.",
             "receipt check                        # HEAD",
             "receipt check --rev \"$GITHUB_SHA\" --format json",
             notes=[check_receipt.CHECK_EXIT_CODES], annotates=True)
    check_command.add_arguments(check)
    check.set_defaults(func=check_command.run)
    verifier = sub.add_parser("verify", help="every commit of a range (or every branch a "
                                             "server receives) needs a receipt in the notes")
    describe(verifier, "Check that every commit of a range, or every branch a git server "
                       "receives, has a valid receipt in refs/notes/receipts.",
             "receipt verify --range origin/main..HEAD",
             "receipt verify --pre-receive         # as a server's pre-receive hook",
             notes=[check_receipt.CHECK_EXIT_CODES], annotates=True)
    verify.add_arguments(verifier)
    verifier.set_defaults(func=verify.run)
    attester = sub.add_parser("attest", help="print a commit's receipt as an in-toto "
                                             "Statement (test-result predicate)")
    describe(attester, "Print a commit's receipt as an in-toto Statement with the "
                       "test-result predicate, for SLSA and witness tooling.",
             "receipt attest > attestation.json", "receipt attest --rev v1.2.0")
    attest.add_arguments(attester)
    attester.set_defaults(func=attest.run)
    publish = sub.add_parser("publish", help="push refs/notes/receipts (merging theirs first)")
    describe(publish, "Push the receipts kept in refs/notes/receipts to a remote, merging "
                      "the remote's first.",
             "receipt publish", "receipt publish upstream")
    notes.add_publish_arguments(publish)
    publish.set_defaults(func=notes.publish)
    fetch = sub.add_parser("fetch", help="fetch refs/notes/receipts and merge them into ours")
    describe(fetch, "Fetch the receipts kept in refs/notes/receipts from a remote and merge "
                    "them into ours.",
             "receipt fetch", "receipt fetch upstream")
    notes.add_arguments(fetch)
    fetch.set_defaults(func=notes.fetch)
    shown = sub.add_parser("show", help="show the receipt, then the check's verdict for HEAD")
    describe(shown, "Print the receipt, then check it against HEAD and exit with the check's "
                    "exit code.",
             "receipt show", "receipt show --receipt artifacts/other-receipt.json",
             notes=["The receipt is printed whatever the verdict; the exit code is the check's "
                    "for HEAD.", check_receipt.CHECK_EXIT_CODES],
             annotates=True)
    shown.add_argument("--receipt", metavar="PATH")
    shown.set_defaults(func=lambda args: show.show(args.receipt))
    install = sub.add_parser("install-hook",
                             help="install check-receipt as this repo's plain git pre-push hook")
    describe(install, "Install check-receipt as this repository's plain git pre-push hook, "
                      "for repositories that do not use pre-commit.",
             "receipt install-hook", "receipt install-hook -- --max-age 24h",
             "receipt install-hook --server     # in a server's bare repository")
    install_hook.add_arguments(install)
    install.set_defaults(func=install_hook.run)
    ledger_parser = sub.add_parser("ledger", help="the assumption ledger: add, resolve, list, "
                                                  "check")
    describe(ledger_parser, "Write and read the assumption ledger: what you believe is wrong, "
                            "and how you will test it, before you change the code.",
             "receipt ledger add \"the cache key ignores the locale\" --test \"pytest -k "
             "locale\"",
             "receipt ledger resolve h-3f9a0c12 --status proven --evidence \"receipt "
             "6772e27\"",
             "receipt ledger list --open", "receipt ledger check", annotates=True)
    ledger.add_arguments(ledger_parser)
    ledger_parser.set_defaults(func=ledger.run)
    init_parser = sub.add_parser("init", help="set this repository up: config, hooks, "
                                              ".gitignore, pre-commit install")
    describe(init_parser, "Set this repository up: the config, the three hooks in "
                          ".pre-commit-config.yaml, .gitignore, and pre-commit install.",
             "receipt init --dry-run", "receipt init --test-command 'pytest -q'")
    init.add_arguments(init_parser)
    init_parser.set_defaults(func=init.run)
    doctor_parser = sub.add_parser("doctor", help="check the whole set-up: one line per item, "
                                                  "ok or the exact fix")
    describe(doctor_parser, "Check the whole set-up, one line per item, ok or the exact fix: "
                            "hook types, the hooks' rev, the CLI on PATH, publishing, identity, "
                            "config, agent settings, .gitignore.", "receipt doctor",
             notes=[exits.help_line("findings")])
    doctor.add_arguments(doctor_parser)
    doctor_parser.set_defaults(func=doctor.run)
    override_parser = sub.add_parser("override", help="let a push through check-receipt, "
                                                      "with a reason logged in the ledger")
    describe(override_parser, "Let one commit through check-receipt without a receipt, with "
                              "the reason logged in the ledger for everyone to see.",
             "receipt override --reason \"ABC-123 CI runner down, tested by hand\"")
    override.add_arguments(override_parser)
    override_parser.set_defaults(func=override.run)
    demo_parser = sub.add_parser("demo", help="show the whole flow in a throwaway repo, for real")
    describe(demo_parser, "Show the whole flow, for real, in a throwaway repository: the skip "
                          "guard, the ledger hook and the receipt gate.",
             "receipt demo", "receipt demo --keep                  # keep the repository")
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
        return USAGE_ERROR
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
