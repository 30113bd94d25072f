"""``receipt verify``: every commit needs a valid receipt in the notes (CI, git servers).

Its policy never comes from the commits it judges: a push could weaken its own. It comes from
the command line, or the config committed in ``--policy-from REV``: by default the base A of
``--range A..B``, and on a server the default branch as it was before the push.
"""

from __future__ import annotations

import argparse
import os
import sys

from hooks.core.output import print_findings
from hooks.core.output import write

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hooks.core.config import Config


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from hooks.check_receipt import add_policy_arguments

    parser.add_argument("--range", action="append", default=[], metavar="A..B",
                        help="verify every commit of this range (repeatable)")
    parser.add_argument("--rev", action="append", default=[], metavar="REV",
                        help="verify this commit (repeatable)")
    parser.add_argument("--head", action="store_true",
                        help="only the newest commit of --range (alone: HEAD)")
    parser.add_argument("--pre-receive", action="store_true",
                        help="run as a git server's pre-receive hook: read '<old> <new> <ref>' "
                             "lines on stdin and judge each branch's new tip")
    parser.add_argument("--policy-from", metavar="REV",
                        help="judge by the config committed in REV (default: A of the first "
                             "--range A..B; with --pre-receive, the default branch before the "
                             "push; else the work tree's)")
    add_policy_arguments(parser)


def policy_file_of(args: argparse.Namespace, root: str, bare: bool) -> Config:
    """The config that judges: never one the judged commits carry (the module says why)."""
    from hooks.core import config
    from hooks.core import git
    from hooks.core.errors import UserError

    rev = args.policy_from
    if rev is None and args.range:
        base = args.range[0].split("...")[0] if "..." in args.range[0] else \
            args.range[0].split("..")[0]
        rev = base or None
    if rev is None and not bare:
        return config.for_repo(git.repo_paths())
    commit = git.resolve_commit(rev or "HEAD", cwd=root)
    if commit is None:
        if rev is None:  # a server whose default branch has no commits yet
            return config.NO_CONFIG
        given = f"--policy-from {rev}" if args.policy_from else f"--range {args.range[0]}"
        raise UserError(f"{given}: {rev} names no commit here")
    paths = git.RepoPaths(root, root, root) if bare else git.repo_paths()
    return config.committed([commit], paths)[commit]


def run(args: argparse.Namespace) -> int:
    from hooks.check_receipt import policy_of
    from hooks.check_receipt import signers_of
    from hooks.core import git
    from hooks.receipt import verify
    from hooks.receipt.check import check
    from hooks.receipt.notes import NOTES_REF

    bare = git.text("rev-parse", "--is-bare-repository") == "true"
    root = git.text("rev-parse", "--absolute-git-dir") if bare else git.repo_paths().root
    policy_file = policy_file_of(args, root, bare)
    notes_revs = [NOTES_REF]
    if args.pre_receive:
        pushed = verify.read_pre_receive(sys.stdin.read() if sys.stdin else "", NOTES_REF)
        notes_revs += pushed.notes  # the notes may arrive in this very push (quarantined)
        commits = pushed.commits
        if not commits:
            return 0
        git.commit_trees(commits, walk=False, cwd=root)
    else:
        commits = verify.commits_of(args.range, args.rev, args.head, root)
    result = check(commits, None, policy_of(args, policy_file), policy_file, files=False,
                   notes_revs=notes_revs, root=root if bare else None,
                   signers=signers_of(args, root))
    code = result.exit_code
    label = "receipt verify"
    if code == 0 and args.format == "text":
        write(f"{label}: {len(result.commits)} commit(s) vouched for by {NOTES_REF}\n")
    if args.pre_receive and code != 0:  # git shows a hook's stderr to the pusher as remote:
        sys.stderr.write("".join(f"{f.message}\n" for f in result.findings))
        sys.stderr.write(f"{label}: push refused: every branch needs a receipt in "
                         f"{NOTES_REF} for its tree; push the notes with it: 'git push "
                         f"<remote> <branch> {NOTES_REF}'\n")
    else:
        print_findings(result.findings, fmt=args.format, exit_code=code,
                       extra={"commits": result.commits, "notes": NOTES_REF,
                              "overrides": result.notes})
    if os.environ.get("GITHUB_ACTIONS") == "true" and args.format == "text":
        write(verify.github_annotations(result.findings))
    verify.append_step_summary(verify.step_summary(result, root))
    return code
