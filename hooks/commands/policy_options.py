"""The options that say what a receipt must satisfy, shared by ``check-receipt``,
``receipt check`` and ``receipt verify``: one parser and one reading of them, with the
repository's config filling in what the command line leaves unset."""

from __future__ import annotations

import argparse
import re

from hooks.core.cmdline import regex_argument
from hooks.core.times import parse_age

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hooks.core.config import Config
    from hooks.receipt.judge.verdict import Requirements
    from hooks.receipt.signing import Signers


def add_policy_arguments(parser: argparse.ArgumentParser) -> None:
    """What a receipt must satisfy: shared by check-receipt, receipt check and receipt verify."""
    parser.add_argument("--max-age", metavar="AGE", type=_age,
                        help="refuse receipts older than AGE (e.g. 90m, 24h, 7d; default: the "
                             "config's max-age)")
    parser.add_argument("--require-command", metavar="REGEX", type=regex_argument,
                        help="the recorded command must match REGEX")
    parser.add_argument("--require-platform", metavar="REGEX", type=regex_argument,
                        help="the recorded kernel (like `uname -srm`) must match REGEX "
                             "(default: the config's require-platform)")
    parser.add_argument("--allow-narrowing", action="store_true",
                        help="accept runs narrowed with -k, --lf, --deselect, -t, -run, ...")
    parser.add_argument("--require-tests", action=argparse.BooleanOptionalAction,
                        help="refuse a receipt whose output had no test counts receipt reads "
                             "(default: on when the repository has a config)")
    parser.add_argument("--allowed-signers", nargs="?", const="", metavar="FILE",
                        help="require receipts signed by a key in FILE, git's allowed-signers "
                             "format (without FILE: git's gpg.ssh.allowedSignersFile)")
    parser.add_argument("--require-signer", metavar="REGEX", type=regex_argument,
                        help="the signer's principal must match REGEX (implies "
                             "--allowed-signers)")
    parser.add_argument("--require-log", action="store_true",
                        help="refuse a receipt whose log is not beside it (the log is always "
                             "compared with the receipt when present)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="text for people (default) or json for machines")


def _age(text: str) -> float:
    try:
        return parse_age(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from e


def _compiled(pattern: str | None) -> re.Pattern[str] | None:
    return re.compile(pattern) if pattern else None


def requirements_of(args: argparse.Namespace, policy_file: Config) -> Requirements:
    """What the check requires of a receipt: options first, then the repository's config."""
    from hooks.receipt.judge.verdict import Requirements

    max_age = args.max_age
    if max_age is None and policy_file.get("max-age"):
        max_age = parse_age(policy_file.get("max-age"))
    platform = args.require_platform or policy_file.get("require-platform")
    require_tests = (policy_file.require_tests if args.require_tests is None
                     else args.require_tests)
    return Requirements(max_age_s=max_age, require_command=_compiled(args.require_command),
                        require_platform=_compiled(platform),
                        allow_narrowing=args.allow_narrowing, require_tests=require_tests)


def signers_of(args: argparse.Namespace, root: str, must_exist: bool = True) -> Signers | None:
    """The signature policy, when --allowed-signers or --require-signer asks for one; the file
    need not exist unless MUST_EXIST (``receipt verify`` may read it from a commit)."""
    if args.allowed_signers is None and not args.require_signer:
        return None
    from hooks.receipt.signing import Signers
    from hooks.receipt.signing import allowed_signers_file

    return Signers(allowed_signers_file(args.allowed_signers, root, must_exist),
                   _compiled(args.require_signer))
