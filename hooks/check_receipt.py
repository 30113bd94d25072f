"""Hook ``check-receipt`` (and ``receipt check``): refuse a push whose commit has no valid receipt.

Which commits: with ``--git-pre-push`` (a plain git pre-push hook), every ref line git sends on
stdin but notes; ``--rev`` when given; under pre-commit, ``PRE_COMMIT_TO_REF`` or else
``PRE_COMMIT_LOCAL_BRANCH`` (pre-commit gives hooks no stdin), or HEAD's unpushed commits when
that first ref is notes; otherwise HEAD. What a push sends is hooks/core/change.py's to say.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from hooks.commands.policy_options import add_policy_arguments
from hooks.commands.policy_options import requirements_of
from hooks.commands.policy_options import signers_of
from hooks.core import exits
from hooks.core.cmdline import ArgumentParser
from hooks.core.cmdline import describe
from hooks.core.errors import guarded
from hooks.core.output import print_findings
from hooks.core.output import write
from hooks.receipt.store.layout import DEFAULT_RECEIPT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hooks.receipt.judge.required import Pushed


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


def add_publish_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--publish", nargs="?", const="", metavar="REMOTE",
                        help="after a passing check, push refs/notes/receipts to REMOTE "
                             "(default: the remote being pushed to, else origin)")


def revisions(args: argparse.Namespace) -> list[Pushed]:
    """What the push sends: each tip, with what the remote has of its history when known."""
    from hooks.core import change
    from hooks.receipt.judge.check import commits_from_pre_push_stdin
    from hooks.receipt.judge.required import ON_REMOTES
    from hooks.receipt.judge.required import Pushed

    if args.git_pre_push:
        return commits_from_pre_push_stdin(sys.stdin.read() if sys.stdin else "")
    if args.rev:
        return [Pushed(rev) for rev in args.rev]
    not_code = change.first_ref_not_code()
    if not_code:
        return [Pushed(rev) for rev in change.instead_of(not_code)]
    sent = change.pre_commit_push()
    if sent is not None:
        tip, since = sent
        return [Pushed(tip, [since] if since else [ON_REMOTES])]
    return [Pushed("HEAD")]


def check(args: argparse.Namespace) -> int:
    from hooks.core import git

    root = git.repo_paths().root
    with git.batch_session(root, start=True):  # git starts while the check's modules load
        return _check(args, root)


def _check(args: argparse.Namespace, root: str) -> int:
    from hooks.core.output import warn
    from hooks.receipt.judge.check import judge_by_committed_policy

    commits, rule_line = required(revisions(args), root)
    result = judge_by_committed_policy(commits, args.receipt,
                                       lambda policy_file: requirements_of(args, policy_file),
                                       require_log=args.require_log,
                                       signers=signers_of(args, root))
    for note in result.policy_notes:
        warn(note)
    code = result.exit_code
    if code == 0 and args.format == "text":
        write(result.vouched() + "\n")
    if code == 0 and getattr(args, "publish", None) is not None:
        pushed_to = getattr(args, "pushed_to", None) or [""]
        from hooks.core import change

        _publish(args.publish or change.push_remote() or pushed_to[0])
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
