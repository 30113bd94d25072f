"""The receipt check as a function: which commits, which receipt, every finding.

Used by the ``check-receipt`` hook, ``receipt check`` and ``receipt show``; it prints nothing.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from hooks.core import git
from hooks.core.output import Finding
from hooks.receipt import model
from hooks.receipt.load import LoadedReceipt
from hooks.receipt.load import load
from hooks.receipt.verdict import Policy
from hooks.receipt.verdict import evaluate


class CheckResult:
    __slots__ = ("commits", "findings", "receipt", "shown")

    def __init__(self, commits: list[str], findings: list[Finding], shown: str,
                 receipt: LoadedReceipt | None) -> None:
        self.commits = commits
        self.findings = findings
        self.shown = shown  # the receipt's path as the user names it
        self.receipt = receipt

    @property
    def exit_code(self) -> int:
        from hooks.core.output import first_exit_code

        return first_exit_code((f.code for f in self.findings), (*model.CHECK_ORDER, 1))

    def vouched(self) -> str:
        """The line that says the check passed."""
        data = self.receipt.data if self.receipt else None
        ok = ", ".join(git.short(c) for c in self.commits)
        return (f"check-receipt: {ok}: {self.shown} vouches for this tree "
                f"({data.get('command') if data else ''})")


def commits_from_pre_push_stdin(data: str) -> list[str]:
    """Commit ids from git's pre-push lines '<local ref> <local id> <remote ref> <remote id>'.

    A local id of all zeros (40 for SHA-1, 64 for SHA-256) is a deletion: nothing to vouch for.
    """
    commits: list[str] = []
    for line in data.splitlines():
        parts = line.split()
        if len(parts) == 4 and not git.is_null_id(parts[1]) and parts[1] not in commits:
            commits.append(parts[1])
    return commits


def resolve(revs: Sequence[str], root: str) -> tuple[list[str], list[Finding]]:
    commits: list[str] = []
    problems: list[Finding] = []
    for rev in revs:
        commit = git.resolve_commit(rev, cwd=root)
        if commit is None:
            why = "the branch has no commits yet" if rev == "HEAD" else "it names no commit"
            problems.append(Finding(f"{rev}: nothing to check: {why}", 1, "usage"))
        elif commit not in commits:
            commits.append(commit)
    return commits, problems


def check(revs: Sequence[str], receipt: str | None, policy: Policy) -> CheckResult:
    paths = git.repo_paths()
    commits, findings = resolve(revs, paths.root)
    receipt_path, _ = model.resolve_paths(paths.root, receipt, None)
    shown = model.repo_relative(paths.root, receipt_path)
    loaded: LoadedReceipt | None = None
    for commit in commits:
        label = git.short(commit)
        if loaded is None:
            loaded = load(receipt_path, shown, model.memo_dir(paths))
        if loaded.data is None or loaded.findings:
            findings += [Finding(f"{label}: {f.message}", f.code, f.kind, commit=commit)
                         for f in loaded.findings]
            continue
        commit_tree = _comparable_tree(commit, loaded.data, shown, paths.root)
        findings += evaluate(loaded.data, commit=commit, commit_tree=commit_tree,
                             shown_path=shown, policy=policy)
    return CheckResult(commits, findings, shown, loaded)


def _comparable_tree(commit: str, data: dict[str, object], receipt: str, root: str) -> str:
    """COMMIT's tree, less the receipt and log if they were committed (the seed's habit)."""
    tree = git.tree_of(commit, root)
    if tree == data.get("git_tree"):
        return tree
    output = data.get("output")
    log = output.get("log") if isinstance(output, dict) else None
    own_paths = [p for p in (receipt, log) if isinstance(p, str) and not os.path.isabs(p)]
    if git.paths_in_commit(commit, own_paths, cwd=root):
        return git.tree_without(commit, own_paths, cwd=root)
    return tree
