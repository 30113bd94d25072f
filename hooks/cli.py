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


def _check(check: ArgumentParser) -> None:
    from hooks.check_receipt import CHECK_EXIT_CODES
    from hooks.commands import check as check_command

    describe(check, "Check the receipt against a commit, as the check-receipt hook does.",
             "receipt check                        # HEAD",
             "receipt check --rev \"$GITHUB_SHA\" --format json",
             notes=[CHECK_EXIT_CODES], annotates=True)
    check_command.add_arguments(check)
    check.set_defaults(func=check_command.run)


def _verify(verifier: ArgumentParser) -> None:
    from hooks.check_receipt import CHECK_EXIT_CODES
    from hooks.commands import verify

    describe(verifier, "Check that every commit of a range, or every branch a git server "
                       "receives, has a valid receipt in refs/notes/receipts.",
             "receipt verify --range origin/main..HEAD",
             "receipt verify --pre-receive         # as a server's pre-receive hook",
             notes=[CHECK_EXIT_CODES], annotates=True)
    verify.add_arguments(verifier)
    verifier.set_defaults(func=verify.run)


def _attest(attester: ArgumentParser) -> None:
    from hooks.commands import attest

    describe(attester, "Print a commit's receipt as an in-toto Statement with the "
                       "test-result predicate, for SLSA and witness tooling.",
             "receipt attest > attestation.json", "receipt attest --rev v1.2.0")
    attest.add_arguments(attester)
    attester.set_defaults(func=attest.run)


def _publish(publish: ArgumentParser) -> None:
    from hooks.commands import notes

    describe(publish, "Push the receipts kept in refs/notes/receipts to a remote, merging "
                      "the remote's first.",
             "receipt publish", "receipt publish upstream")
    notes.add_publish_arguments(publish)
    publish.set_defaults(func=notes.publish)


def _fetch(fetch: ArgumentParser) -> None:
    from hooks.commands import notes

    describe(fetch, "Fetch the receipts kept in refs/notes/receipts from a remote and merge "
                    "them into ours.",
             "receipt fetch", "receipt fetch upstream")
    notes.add_arguments(fetch)
    fetch.set_defaults(func=notes.fetch)


def _show(shown: ArgumentParser) -> None:
    from hooks.check_receipt import CHECK_EXIT_CODES
    from hooks.commands import show

    describe(shown, "Print the receipt, then check it against HEAD and exit with the check's "
                    "exit code.",
             "receipt show", "receipt show --receipt artifacts/other-receipt.json",
             notes=["The receipt is printed whatever the verdict; the exit code is the check's "
                    "for HEAD.", CHECK_EXIT_CODES],
             annotates=True)
    shown.add_argument("--receipt", metavar="PATH")
    shown.set_defaults(func=lambda args: show.show(args.receipt))


def _install_hook(install: ArgumentParser) -> None:
    from hooks.commands import install_hook

    describe(install, "Install check-receipt as this repository's plain git pre-push hook, "
                      "for repositories that do not use pre-commit.",
             "receipt install-hook", "receipt install-hook -- --max-age 24h",
             "receipt install-hook --server     # in a server's bare repository")
    install_hook.add_arguments(install)
    install.set_defaults(func=install_hook.run)


def _ledger(ledger_parser: ArgumentParser) -> None:
    from hooks.commands import ledger

    describe(ledger_parser, "Write and read the assumption ledger: what you believe is wrong, "
                            "and how you will test it, before you change the code.",
             "receipt ledger add \"the cache key ignores the locale\" --test \"pytest -k "
             "locale\"",
             "receipt ledger resolve h-3f9a0c12 --status proven --evidence \"receipt "
             "6772e27\"",
             "receipt ledger list --open", "receipt ledger check", annotates=True)
    ledger.add_arguments(ledger_parser)
    ledger_parser.set_defaults(func=ledger.run)


def _init(init_parser: ArgumentParser) -> None:
    from hooks.commands import init

    describe(init_parser, "Set this repository up: the config, the three hooks in "
                          ".pre-commit-config.yaml, .gitignore, and pre-commit install.",
             "receipt init --dry-run", "receipt init --test-command 'pytest -q'")
    init.add_arguments(init_parser)
    init_parser.set_defaults(func=init.run)


def _doctor(doctor_parser: ArgumentParser) -> None:
    from hooks.commands import doctor
    from hooks.core import exits

    describe(doctor_parser, "Check the whole set-up, one line per item, ok or the exact fix: "
                            "hook types, the hooks' rev, the CLI on PATH, publishing, identity, "
                            "config, agent settings, .gitignore.", "receipt doctor",
             notes=[exits.help_line("findings")])
    doctor.add_arguments(doctor_parser)
    doctor_parser.set_defaults(func=doctor.run)


def _override(override_parser: ArgumentParser) -> None:
    from hooks.commands import override

    describe(override_parser, "Let one commit through check-receipt without a receipt, with "
                              "the reason logged in the ledger for everyone to see.",
             "receipt override --reason \"ABC-123 CI runner down, tested by hand\"")
    override.add_arguments(override_parser)
    override_parser.set_defaults(func=override.run)


def _demo(demo_parser: ArgumentParser) -> None:
    from hooks.commands import demo

    describe(demo_parser, "Show the whole flow, for real, in a throwaway repository: the skip "
                          "guard, the ledger hook and the receipt gate.",
             "receipt demo", "receipt demo --keep                  # keep the repository")
    demo_parser.add_argument("--keep", action="store_true",
                             help="keep the throwaway repo and print it")
    demo_parser.set_defaults(func=lambda args: demo.main(keep=args.keep))


# The argparse subcommands: name -> (help, what builds its parser). Only the parser of the
# command being run is built, so a command imports its own modules and no other's.
SUBCOMMANDS: dict[str, tuple[str, Callable[[ArgumentParser], None]]] = {
    "check": ("check the receipt against a commit (the hook's logic)", _check),
    "verify": ("every commit of a range (or every branch a server receives) needs a receipt "
               "in the notes", _verify),
    "attest": ("print a commit's receipt as an in-toto Statement (test-result predicate)",
               _attest),
    "publish": ("push refs/notes/receipts (merging theirs first)", _publish),
    "fetch": ("fetch refs/notes/receipts and merge them into ours", _fetch),
    "show": ("show the receipt, then the check's verdict for HEAD", _show),
    "install-hook": ("install check-receipt as this repo's plain git pre-push hook",
                     _install_hook),
    "ledger": ("the assumption ledger: add, resolve, list, check", _ledger),
    "init": ("set this repository up: config, hooks, .gitignore, pre-commit install", _init),
    "doctor": ("check the whole set-up: one line per item, ok or the exact fix", _doctor),
    "override": ("let a push through check-receipt, with a reason logged in the ledger",
                 _override),
    "demo": ("show the whole flow in a throwaway repo, for real", _demo),
}


def build_parser(command: str | None = None) -> ArgumentParser:
    """The command line's parser; with COMMAND, that subcommand's parser fully built (the
    others are only listed, as ``receipt --help`` shows them)."""
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
    for name, (text, build) in SUBCOMMANDS.items():
        built = sub.add_parser(name, help=text)
        if command is None or name == command:
            build(built)
    return parser


@guarded("receipt")
def main(argv: Sequence[str] | None = None) -> int:
    import sys

    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] and args_list[0] in OWN_PARSERS:
        return _own_parser(args_list[0])(args_list[1:])
    parser = build_parser(args_list[0] if args_list[:1] and args_list[0] in SUBCOMMANDS
                          else "")
    args = parser.parse_args(args_list)
    if not getattr(args, "func", None):
        parser.print_help()
        return USAGE_ERROR
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
