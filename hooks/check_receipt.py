"""Hook ``check-receipt`` (and ``receipt check``): refuse a push whose commit has no valid receipt.

Which commits: with ``--git-pre-push`` (a plain git pre-push hook), every ref line git sends on
stdin but notes; ``--rev`` when given; under pre-commit, ``PRE_COMMIT_TO_REF`` or else
``PRE_COMMIT_LOCAL_BRANCH`` (pre-commit gives hooks no stdin), or HEAD's unpushed commits when
that first ref is notes (see hooks/receipt/judge/pushed.py); otherwise HEAD.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence

from hooks.core import exits
from hooks.core.cmdline import ArgumentParser
from hooks.core.cmdline import describe
from hooks.core.cmdline import regex_argument
from hooks.core.errors import guarded
from hooks.core.output import print_findings
from hooks.core.output import write
from hooks.core.times import parse_age
from hooks.receipt.store.layout import DEFAULT_RECEIPT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hooks.core.config import Config
    from hooks.receipt.judge.required import Pushed
    from hooks.receipt.judge.verdict import Policy
    from hooks.receipt.signing import Signers


CHECK_EXIT_CODES = exits.help_line("check")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--receipt", metavar="PATH",
                        help=f"receipt to check (default: {DEFAULT_RECEIPT} at the "
                             f"repository root)")
    parser.add_argument("--rev", action="append", metavar="REV",
                        help="commit to check (repeatable; default: the commits the push sends, "
                             "under pre-commit or --git-pre-push; else HEAD)")
    parser.add_argument("--git-pre-push", action="store_true",
                        help="read the ref lines git gives a pre-push hook on stdin")
    add_policy_arguments(parser)


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


def add_publish_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--publish", nargs="?", const="", metavar="REMOTE",
                        help="after a passing check, push refs/notes/receipts to REMOTE "
                             "(default: the remote being pushed to, else origin)")


def _age(text: str) -> float:
    try:
        return parse_age(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from e


def _compiled(pattern: str | None) -> re.Pattern[str] | None:
    return re.compile(pattern) if pattern else None


def revisions(args: argparse.Namespace) -> list[Pushed]:
    """What the push sends: each tip, with what the remote has of its history when known."""
    from hooks.receipt.judge import pushed
    from hooks.receipt.judge.check import commits_from_pre_push_stdin
    from hooks.receipt.judge.required import ON_REMOTES
    from hooks.receipt.judge.required import Pushed

    if args.git_pre_push:
        return commits_from_pre_push_stdin(sys.stdin.read() if sys.stdin else "")
    if args.rev:
        return [Pushed(rev) for rev in args.rev]
    not_code = pushed.first_ref_not_code()
    if not_code:
        return [Pushed(rev) for rev in pushed.instead_of(not_code)]
    if os.environ.get("PRE_COMMIT_TO_REF"):
        since = os.environ.get("PRE_COMMIT_FROM_REF")
        return [Pushed(os.environ["PRE_COMMIT_TO_REF"], [since] if since else [ON_REMOTES])]
    if os.environ.get("PRE_COMMIT_LOCAL_BRANCH"):
        # pre-commit's pre-push on a branch whose whole history is new (its root commit not on
        # the remote) runs as --all-files with no refs; the local ref still names the commit.
        return [Pushed(os.environ["PRE_COMMIT_LOCAL_BRANCH"], [ON_REMOTES])]
    return [Pushed("HEAD")]


def policy_of(args: argparse.Namespace, policy_file: Config) -> Policy:
    """The check's policy: options first, then the repository's config."""
    from hooks.receipt.judge.verdict import Policy

    max_age = args.max_age
    if max_age is None and policy_file.get("max-age"):
        max_age = parse_age(policy_file.get("max-age"))
    platform = args.require_platform or policy_file.get("require-platform")
    require_tests = (policy_file.require_tests if args.require_tests is None
                     else args.require_tests)
    return Policy(max_age_s=max_age, require_command=_compiled(args.require_command),
                  require_platform=_compiled(platform), allow_narrowing=args.allow_narrowing,
                  require_tests=require_tests)


def signers_of(args: argparse.Namespace, root: str, must_exist: bool = True) -> Signers | None:
    """The signature policy, when --allowed-signers or --require-signer asks for one; the file
    need not exist unless MUST_EXIST (``receipt verify`` may read it from a commit)."""
    if args.allowed_signers is None and not args.require_signer:
        return None
    from hooks.receipt.signing import Signers
    from hooks.receipt.signing import allowed_signers_file

    return Signers(allowed_signers_file(args.allowed_signers, root, must_exist),
                   _compiled(args.require_signer))


def check(args: argparse.Namespace) -> int:
    from hooks.core import git

    root = git.repo_paths().root
    with git.batch_session(root, start=True):  # git starts while the check's modules load
        return _check(args, root)


def _check(args: argparse.Namespace, root: str) -> int:
    from hooks.core.output import warn
    from hooks.receipt.judge.check import check_committed

    commits, rule_line = required(revisions(args), root)
    result = check_committed(commits, args.receipt,
                             lambda policy_file: policy_of(args, policy_file),
                             require_log=args.require_log, signers=signers_of(args, root))
    for note in result.policy_notes:
        warn(note)
    code = result.exit_code
    if code == 0 and args.format == "text":
        write(result.vouched() + "\n")
    if code == 0 and getattr(args, "publish", None) is not None:
        pushed_to = getattr(args, "pushed_to", None) or [""]
        _publish(args.publish or os.environ.get("PRE_COMMIT_REMOTE_NAME") or pushed_to[0])
    print_findings(result.findings, fmt=args.format, exit_code=code,
                   extra={"commits": result.commits, "receipt": result.shown,
                          "overrides": result.notes, "policy": result.policy_notes,
                          "require": rule_line or None})
    if code != 0 and args.format == "text" and rule_line:
        write(rule_line + "\n")
    return code


def required(pushed: list[Pushed], root: str) -> tuple[list[str], str]:
    """The commits the push needs receipts for, by the ``require`` rule committed in each tip
    (the config that judges it), and the line that names the rule ("" for a plain --rev)."""
    from hooks.core import config
    from hooks.core import git
    from hooks.receipt.judge.check import resolve
    from hooks.receipt.judge.required import required_commits
    from hooks.receipt.judge.required import rule_said

    ranged = [p for p in pushed if p.has]
    if not ranged:
        return [p.tip for p in pushed], ""
    tips, _unknown = resolve([p.tip for p in ranged], root)
    configs = config.committed(tips, git.repo_paths(root))
    commits: list[str] = [p.tip for p in pushed if not p.has]
    said: list[str] = []
    for push in ranged:
        tip = git.resolve_commit(push.tip, cwd=root) if push.tip not in configs else push.tip
        policy_file = configs.get(tip or "", config.NO_CONFIG)
        commits += required_commits([push], policy_file.require, root)
        said.append(rule_said("check-receipt", policy_file))
    return list(dict.fromkeys(commits)), "; ".join(dict.fromkeys(said))


def _publish(remote: str) -> None:
    from hooks.core.output import warn
    from hooks.receipt.store import notes

    remote = remote or "origin"  # neither pre-commit nor git named the push's remote
    published = notes.publish(remote)  # pushes with --no-verify: this hook is not run again
    warn(f"check-receipt: published {notes.NOTES_REF} to {remote}: {published.said(remote)}")


@guarded("check-receipt")
def main(argv: Sequence[str] | None = None) -> int:
    import gc

    # The hook lives some 50 ms: the cycle collector's passes over the modules the check
    # imports cost a few of them and free nothing worth having. Back on when it returns.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _main(argv)
    finally:
        if collecting:
            gc.enable()


def _main(argv: Sequence[str] | None) -> int:
    parser = ArgumentParser(prog="check-receipt")
    describe(parser, "Refuse a push whose commit has no valid test receipt: missing, stale, "
                     "failed, malformed or off policy.",
             "check-receipt                       # HEAD, or the commit pre-commit pushes",
             "check-receipt --rev main --max-age 24h --format json",
             notes=[CHECK_EXIT_CODES], annotates=True)
    add_arguments(parser)
    add_publish_argument(parser)
    parser.add_argument("pushed_to", nargs="*", metavar="REMOTE URL",
                        help="with --git-pre-push: the remote's name and URL, as git passes "
                             "them to the hook (--publish publishes to that remote)")
    return check(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
