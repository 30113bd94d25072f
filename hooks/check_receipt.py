"""Hook ``check-receipt`` (and ``receipt check``): refuse a push whose commit has no valid receipt.

Which commits: with ``--git-pre-push`` (a plain git pre-push hook), every ref line git sends on
stdin; ``--rev`` when given; under pre-commit, ``PRE_COMMIT_TO_REF`` or else
``PRE_COMMIT_LOCAL_BRANCH`` (pre-commit gives hooks no stdin); otherwise HEAD.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence

from hooks import git_repo
from hooks import receipts
from hooks.output import ArgumentParser
from hooks.output import Finding
from hooks.output import first_exit_code
from hooks.output import guarded
from hooks.output import print_findings
from hooks.output import regex_argument

ZERO_ID = "0" * 40


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--receipt", metavar="PATH",
                        help=f"receipt to check (default: {receipts.DEFAULT_RECEIPT} at the "
                             f"repository root)")
    parser.add_argument("--rev", action="append", metavar="REV",
                        help="commit to check (repeatable; default: PRE_COMMIT_TO_REF, else HEAD)")
    parser.add_argument("--git-pre-push", action="store_true",
                        help="read the ref lines git gives a pre-push hook on stdin")
    parser.add_argument("--max-age", metavar="AGE", type=_age,
                        help="refuse receipts older than AGE (e.g. 90m, 24h, 7d)")
    parser.add_argument("--require-command", metavar="REGEX", type=regex_argument,
                        help="the recorded command must match REGEX")
    parser.add_argument("--require-platform", metavar="REGEX", type=regex_argument,
                        help="the recorded kernel (like `uname -srm`) must match REGEX")
    parser.add_argument("--allow-narrowing", action="store_true",
                        help="accept runs narrowed with -k, --lf, --deselect, -t, -run, ...")
    parser.add_argument("--require-tests", action="store_true",
                        help="refuse a receipt whose output had no test counts receipt reads")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="text for people (default) or json for machines")


def _age(text: str) -> float:
    try:
        return receipts.parse_age(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from e


def _compiled(pattern: str | None) -> re.Pattern[str] | None:
    return re.compile(pattern) if pattern else None


def commits_from_pre_push_stdin(data: str) -> list[str]:
    """Commit ids from git's pre-push lines '<local ref> <local sha> <remote ref> <remote sha>'."""
    commits: list[str] = []
    for line in data.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[1] != ZERO_ID and parts[1] not in commits:
            commits.append(parts[1])  # a zero local id is a deletion: nothing to vouch for
    return commits


def commits_to_check(args: argparse.Namespace, root: str) -> tuple[list[str], list[Finding]]:
    if args.git_pre_push:
        revs = commits_from_pre_push_stdin(sys.stdin.read() if sys.stdin else "")
    elif args.rev:
        revs = list(args.rev)
    elif os.environ.get("PRE_COMMIT_TO_REF"):
        revs = [os.environ["PRE_COMMIT_TO_REF"]]
    elif os.environ.get("PRE_COMMIT_LOCAL_BRANCH"):
        # pre-commit's pre-push on a branch whose whole history is new (its root commit not on
        # the remote) runs as --all-files with no refs; the local ref still names the commit.
        revs = [os.environ["PRE_COMMIT_LOCAL_BRANCH"]]
    else:
        revs = ["HEAD"]
    commits: list[str] = []
    problems: list[Finding] = []
    for rev in revs:
        commit = git_repo.resolve_commit(rev, cwd=root)
        if commit is None:
            why = "the branch has no commits yet" if rev == "HEAD" else "it names no commit"
            problems.append(Finding(f"{rev}: nothing to check: {why}", 1, "usage"))
        elif commit not in commits:
            commits.append(commit)
    return commits, problems


def check(args: argparse.Namespace) -> int:
    try:
        paths = git_repo.repo_paths()
        commits, findings = commits_to_check(args, paths.root)
    except git_repo.GitError as e:
        print_findings([Finding(f"check-receipt: {e}: run it inside a git work tree", 1,
                                "usage")], fmt=args.format, exit_code=1)
        return 1
    receipt_path, _ = receipts.resolve_paths(paths.root, args.receipt, None)
    shown = receipts.repo_relative(paths.root, receipt_path)
    policy = receipts.Policy(max_age_s=args.max_age,
                             require_command=_compiled(args.require_command),
                             require_platform=_compiled(args.require_platform),
                             allow_narrowing=args.allow_narrowing,
                             require_tests=args.require_tests)
    loaded: receipts.LoadedReceipt | None = None
    for commit in commits:
        label = git_repo.short(commit)
        if loaded is None:
            loaded = receipts.load(receipt_path, shown, receipts.memo_dir(paths))
        if loaded.data is None or loaded.findings:
            findings += [Finding(f"{label}: {f.message}", f.code, f.kind, commit=commit)
                         for f in loaded.findings]
            continue
        commit_tree = _comparable_tree(commit, loaded.data, shown, paths.root)
        findings += receipts.evaluate(loaded.data, commit=commit, commit_tree=commit_tree,
                                      shown_path=shown, policy=policy)
    code = first_exit_code((f.code for f in findings), (*receipts.CHECK_ORDER, 1))
    if code == 0 and args.format == "text":
        ok = ", ".join(git_repo.short(c) for c in commits)
        print(f"check-receipt: {ok}: {shown} vouches for this tree "
              f"({loaded.data.get('command') if loaded and loaded.data else ''})")
    print_findings(findings, fmt=args.format, exit_code=code,
                   extra={"commits": commits, "receipt": shown})
    return code


def _comparable_tree(commit: str, data: dict[str, object], receipt: str, root: str) -> str:
    """COMMIT's tree, less the receipt and log if they were committed (the seed's habit)."""
    tree = git_repo.tree_of(commit, root)
    if tree == data.get("git_tree"):
        return tree
    output = data.get("output")
    log = output.get("log") if isinstance(output, dict) else None
    own_paths = [p for p in (receipt, log) if isinstance(p, str) and not os.path.isabs(p)]
    if git_repo.paths_in_commit(commit, own_paths, cwd=root):
        return git_repo.tree_without(commit, own_paths, cwd=root)
    return tree


@guarded("check-receipt")
def main(argv: Sequence[str] | None = None) -> int:
    parser = ArgumentParser(prog="check-receipt", description=__doc__.splitlines()[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    return check(args)


if __name__ == "__main__":
    raise SystemExit(main())
