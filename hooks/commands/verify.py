"""``receipt verify``: every commit needs a valid receipt in the notes (CI, git servers).

Its policy never comes from the commits it judges: a push could weaken its own. It comes from
the command line, or the config committed in ``--policy-from REV``: by default the base A of
``--range A..B``, on a server the default branch as it was before the push, else the remote's
default branch (``refs/remotes/origin/HEAD``) when it is not a judged commit. With none of
those it refuses rather than guess. Nor does its trust: an override in the judged commits'
ledger is anyone's to write, so it counts only with ``--allow-overrides``.
"""

from __future__ import annotations

import argparse
import sys

from hooks.core.output import print_findings
from hooks.core.output import write

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hooks.core.config import Config
    from hooks.receipt.signing import Signers


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from hooks.commands.policy_options import add_policy_arguments

    parser.add_argument("--range", action="append", default=[], metavar="A..B",
                        help="verify every commit of this range (repeatable)")
    parser.add_argument("--rev", action="append", default=[], metavar="REV",
                        help="verify this commit (repeatable)")
    parser.add_argument("--head", action="store_true",
                        help="only the newest commit of --range (alone: HEAD)")
    parser.add_argument("--pre-receive", action="store_true",
                        help="run as a git server's pre-receive hook: read '<old> <new> <ref>' "
                             "lines on stdin and judge each branch's new tip")
    parser.add_argument("--post-receive", action="store_true",
                        help="run as a git server's post-receive hook: merge the notes the "
                             "accepted pushes brought into refs/notes/receipts, even where "
                             "git's own update of that ref lost a race with another push")
    parser.add_argument("--policy-from", metavar="REV",
                        help="judge by the config committed in REV (default: A of the first "
                             "--range A..B; with --pre-receive, the default branch before the "
                             "push; else refs/remotes/origin/HEAD when it is not a judged commit)")
    parser.add_argument("--allow-overrides", action="store_true",
                        help="honour 'receipt override' entries committed in the judged commits' "
                             "ledger (anyone who can commit can write one; off by default)")
    add_policy_arguments(parser)


def policy_file_of(commit: str | None, root: str, bare: bool) -> Config:
    """The config that judges, committed in COMMIT (``policy_commit_of``): never one the judged
    commits carry (the module says why)."""
    from hooks.core import config
    from hooks.core import git

    if commit is None:
        return config.NO_CONFIG
    paths = git.RepoPaths(root, root, root) if bare else git.repo_paths()
    return config.committed([commit], paths)[commit]


def policy_commit_of(args: argparse.Namespace, root: str, commits: list[str]) -> str | None:
    """The commit whose config judges (``policy_file_of``); None: no policy exists yet."""
    from hooks.core import git
    from hooks.core.errors import UserError

    rev = args.policy_from
    if rev is None and args.range:
        base = args.range[0].split("...")[0] if "..." in args.range[0] else \
            args.range[0].split("..")[0]
        rev = base or None
    if rev is None:
        rev = default_branch(root) if args.pre_receive else remote_default(root, commits)
        if rev is None:
            return None
    commit = git.resolve_commit(rev, cwd=root)
    if commit is None:
        given = f"--policy-from {rev}" if args.policy_from else f"--range {args.range[0]}"
        raise UserError(f"{given}: {rev} names no commit here")
    return commit


def signers_of(args: argparse.Namespace, root: str, bare: bool, policy_commit: str | None,
               commits: list[str]) -> Signers | None:
    """check-receipt's signature policy, with a signers file inside the work tree read as the
    policy commit holds it: the judged commits could otherwise list their own key."""
    from hooks.commands import policy_options
    from hooks.receipt import signing

    signers = policy_options.signers_of(args, root, must_exist=bare)
    if signers is None or bare:  # a server's files are not the pusher's to change
        return signers
    return signing.trusted(signers, root, policy_commit, commits)


def default_branch(root: str) -> str | None:
    """The server's default branch before the push: HEAD. None, said, when the repository has
    no branch at all (its first push: no policy exists yet); refused when HEAD names a branch
    that does not exist while others do (judging by no policy would pass anything)."""
    from hooks.core import git
    from hooks.core.errors import UserError
    from hooks.core.output import warn

    if git.resolve_commit("HEAD", cwd=root) is not None:
        return "HEAD"
    branches = git.text("for-each-ref", "--count=3", "--format=%(refname)", "refs/heads/",
                        cwd=root).splitlines()
    if not branches:
        warn("receipt verify: note: the repository has no branch yet, so no committed policy "
             "exists: this first push is judged by the hook's options and the defaults")
        return None
    try:
        named = git.text("symbolic-ref", "--quiet", "HEAD", cwd=root)
    except git.GitError:
        named = "HEAD"
    raise UserError(f"receipt verify: no policy: the default branch HEAD names {named}, which "
                    f"does not exist here: pass --policy-from {branches[0]} (or point HEAD at "
                    f"the project's branch: git symbolic-ref HEAD {branches[0]})")


REMOTE_DEFAULT = "refs/remotes/origin/HEAD"


def remote_default(root: str, commits: list[str]) -> str:
    """The trusted policy of ``--rev``/``--head``: the remote's default branch when it is not
    one of the judged COMMITS; the judged commit itself when it is the default branch's own
    tip (``origin/HEAD`` is it, or the CI says this job builds a push to the default branch);
    a pull request's base branch, from the CI; else a one-line refusal asking for --policy-from.
    """
    from hooks.core import ci
    from hooks.core import git
    from hooks.core.errors import UserError
    from hooks.core.output import warn

    commit = git.resolve_commit(REMOTE_DEFAULT, cwd=root)
    if commit is not None and commit not in commits:
        return REMOTE_DEFAULT
    build = ci.build()
    own = None
    if commit is not None and set(commits) == {commit}:
        own = commit, f"{REMOTE_DEFAULT} is this commit"
    elif build is not None and build.default_branch and build.commit:
        tip = git.resolve_commit(build.commit, cwd=root)
        if tip is not None and set(commits) == {tip}:
            own = tip, (f"{build.system} builds a push to the default branch "
                        f"{build.default_branch}, and this is its tip")
    if own is not None:
        warn(f"receipt verify: note: {git.short(own[0])} is judged by the policy committed in "
             f"it, the default branch's own ({own[1]})")
        return own[0]
    if build is not None and build.base:
        base = f"refs/remotes/origin/{build.base}"
        based = git.resolve_commit(base, cwd=root)
        if based is not None and based not in commits:
            return base
    ask = ("pass --policy-from REV (the branch they merge into, e.g. --policy-from origin/main) "
           "or --range BASE..HEAD: the judged commits' own config is the pusher's to change")
    if commit is None:
        raise UserError(f"receipt verify: no policy to judge by: {REMOTE_DEFAULT} does not "
                        f"exist here and the CI environment names no default-branch push or "
                        f"pull request base: {ask}")
    raise UserError(f"receipt verify: no policy to judge by: {REMOTE_DEFAULT} "
                    f"({git.short(commit)}) is a commit being judged: {ask}")


def run(args: argparse.Namespace) -> int:
    from hooks.commands.policy_options import requirements_of
    from hooks.core import git
    from hooks.core.config import REQUIRE_EVERY_COMMIT
    from hooks.receipt import verify
    from hooks.receipt.judge.check import judge_commits
    from hooks.receipt.judge.required import ON_SERVER
    from hooks.receipt.judge.required import Pushed
    from hooks.receipt.judge.required import required_commits
    from hooks.receipt.judge.required import rule_said
    from hooks.receipt.store.notes import NOTES_REF

    bare = git.text("rev-parse", "--is-bare-repository") == "true"
    root = git.text("rev-parse", "--absolute-git-dir") if bare else git.repo_paths().root
    git_dir = root if bare else git.repo_paths().common_dir
    if args.post_receive:
        told = verify.merge_pushed_notes(sys.stdin.read() if sys.stdin else "", NOTES_REF,
                                         git_dir)
        sys.stderr.write("".join(f"{line}\n" for line in told))  # the pusher sees remote:
        return 0
    notes_revs = [NOTES_REF]
    if args.pre_receive:
        pushed = verify.read_pre_receive(sys.stdin.read() if sys.stdin else "", NOTES_REF)
        for old, new in pushed.notes_updates:  # the evidence this server judges by
            verify.refuse_notes_update(old, new, NOTES_REF, root)
        verify.refuse_policy_deletion(pushed.deleted, args.policy_from, root)
        for ref, new in pushed.incoming:
            verify.refuse_notes_update("0", new, ref, root)
        notes_revs += pushed.notes  # the notes may arrive in this very push (quarantined)
        tips = pushed.commits + verify.commits_of_other_refs(pushed.others, pushed.commits, root)
        if not tips:
            verify.spool_pushed_notes(pushed.notes, git_dir)
            return 0
        policy_commit = policy_commit_of(args, root, tips)
        policy_file = policy_file_of(policy_commit, root, bare)
        commits = required_commits([Pushed(tip, [ON_SERVER]) for tip in tips],
                                   policy_file.require, root)
        git.commit_trees(commits, walk=False, cwd=root)
    else:
        listed = verify.commits_of(args.range, args.rev, True, root)
        policy_commit = policy_commit_of(args, root, listed)
        policy_file = policy_file_of(policy_commit, root, bare)
        every = policy_file.require == REQUIRE_EVERY_COMMIT and not args.head
        commits = verify.commits_of(args.range, args.rev, False, root) if every else listed
    label = "receipt verify"
    rule_line = rule_said(label, policy_file)
    signers = signers_of(args, root, bare, policy_commit, commits)
    try:
        result = judge_commits(commits, None, requirements_of(args, policy_file), policy_file,
                               files=False, notes_revs=notes_revs, root=root if bare else None,
                               signers=signers, allow_overrides=args.allow_overrides,
                               label=label)
    finally:
        if signers is not None:
            signers.close()
    code = result.exit_code
    if args.pre_receive and code == 0:
        verify.spool_pushed_notes(pushed.notes, git_dir)
    if args.format == "text":  # overrides, honoured or not, are said every time
        sys.stderr.write("".join(f"{note}\n" for note in result.policy_notes))
    if code == 0 and args.format == "text":
        overridden = len(result.notes)
        vouched = len(result.commits) - overridden
        write(f"{label}: {vouched} commit(s) vouched for by {NOTES_REF}" +
              (f", {overridden} let through by an override (--allow-overrides)\n"
               if overridden else "\n") + "".join(f"{note}\n" for note in result.notes)
              + rule_line + "\n")
    if args.pre_receive and code != 0:  # git shows a hook's stderr to the pusher as remote:
        sys.stderr.write("".join(f"{f.message}\n" for f in result.findings))
        sys.stderr.write(f"{label}: push refused: the commits above need a receipt in "
                         f"{NOTES_REF} for their tree; push the notes with them: 'git push "
                         f"<remote> <branch> {NOTES_REF}'\n{rule_line}\n")
    else:
        print_findings(result.findings, fmt=args.format, exit_code=code,
                       extra={"commits": result.commits, "notes": NOTES_REF,
                              "vouching": verify.vouching_json(result),
                              "overrides": result.notes,
                              "overrides_not_honoured": result.policy_notes,
                              "require": policy_file.require})
        if code != 0 and args.format == "text":
            write(rule_line + "\n")
    verify.append_step_summary(verify.step_summary(result, root))
    return code
