"""The receipt check as functions: which commits, which receipt, every finding.

Used by the ``check-receipt`` hook, ``receipt check`` and ``receipt show``; it prints nothing.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from collections.abc import Sequence

from hooks.core import exits
from hooks.core import git
from hooks.core.config import NO_CONFIG
from hooks.core.config import Config
from hooks.core.exits import USAGE
from hooks.core.output import Finding
from hooks.receipt.judge.commit_judge import Judge
from hooks.receipt.judge.noted_receipts import NotedReceipts
from hooks.receipt.judge.policy_source import bookkeeping
from hooks.receipt.judge.policy_source import ignored_changes
from hooks.receipt.judge.policy_source import ignored_message
from hooks.receipt.judge.policy_source import owner_globs
from hooks.receipt.judge.tamper import Tamper
from hooks.receipt.judge.verdict import Requirements
from hooks.receipt.store import layout
from hooks.receipt.store.load import LoadedReceipt
from hooks.receipt.store.load import load
from hooks.receipt.store.notes import NOTES_REF

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from hooks.core.git import RepoPaths
    from hooks.receipt.judge.required import Pushed
    from hooks.receipt.signing import Signers


class CheckResult:
    __slots__ = ("commands", "commits", "findings", "notes", "policy_notes", "receipt", "shown",
                 "sources", "vouching")

    def __init__(self, commits: list[str], findings: list[Finding], shown: str,
                 receipt: LoadedReceipt | None) -> None:
        self.commits = commits
        self.findings = findings
        self.shown = shown  # the receipt's path as the user names it
        self.receipt = receipt
        self.commands: list[str] = []  # what the receipts that vouch ran
        self.sources: list[str] = []  # where they are: the file, a keyed file, a note
        self.vouching: dict[str, list[tuple[dict[str, Any], str]]] = {}  # commit -> them
        self.notes: list[str] = []  # overrides honoured: said every time, never silent
        self.policy_notes: list[str] = []  # the policy judging differs from the work tree's, ...

    def add_vouching(self, commit: str, vouching: Sequence[tuple[dict[str, Any], str]]) -> None:
        """Record each receipt of VOUCHING (with where it is) as one that vouches for COMMIT."""
        for data, shown in vouching:
            self.commands.append(str(data.get("command")))
            self.sources.append(shown)
            self.vouching.setdefault(commit, []).append((data, shown))

    def absorb(self, other: CheckResult) -> None:
        """Add OTHER's verdicts (commits judged by another policy) to these."""
        self.commits += [c for c in other.commits if c not in self.commits]
        self.findings += [f for f in other.findings if f not in self.findings]
        self.commands += other.commands
        self.sources += other.sources
        self.vouching.update(other.vouching)
        self.notes += other.notes
        self.policy_notes += other.policy_notes
        self.receipt = self.receipt or other.receipt

    @property
    def exit_code(self) -> int:
        from hooks.core.output import first_exit_code

        return first_exit_code((f.code for f in self.findings), (*exits.CHECK_ORDER, USAGE))

    def vouched(self) -> str:
        """The line that says the check passed."""
        if not self.commits:  # a deletion, or a push git sends with nothing new
            return "check-receipt: nothing to check: the push sends no commits"
        if self.notes and not self.commands:
            return "\n".join(self.notes)
        data = self.receipt.data if self.receipt else None
        commands = self.commands or [str(data.get("command")) if data else ""]
        ok = ", ".join(git.short(c) for c in self.commits)
        where = ", ".join(dict.fromkeys(self.sources)) or self.shown
        return "\n".join([f"check-receipt: {ok}: {where} vouches for this tree "
                          f"({', '.join(dict.fromkeys(commands))})", *self.notes])


def commits_from_pre_push_stdin(data: str) -> list[Pushed]:
    """The pushed tips from git's pre-push lines '<local ref> <local id> <remote ref> <remote
    id>', each with what the remote has: its old id, or (a new ref) the remote-tracking refs.

    A local id of all zeros (40 for SHA-1, 64 for SHA-256) is a deletion: nothing to vouch for;
    a remote ref that is not code (notes: the receipts themselves) is not judged.
    """
    from hooks.core.change import is_code
    from hooks.receipt.judge.required import ON_REMOTES
    from hooks.receipt.judge.required import Pushed

    pushed: dict[str, Pushed] = {}
    for line in data.splitlines():
        parts = line.split()
        if len(parts) == 4 and not git.is_null_id(parts[1]) and is_code(parts[2]) \
                and parts[1] not in pushed:
            has = [ON_REMOTES] if git.is_null_id(parts[3]) else [parts[3], ON_REMOTES]
            pushed[parts[1]] = Pushed(parts[1], has)
    return list(pushed.values())


def resolve(revs: Sequence[str], root: str,
            resolved: Mapping[str, str | None] | None = None) -> tuple[list[str], list[Finding]]:
    """REVS as commit ids, and a finding for each that names none; RESOLVED: revs already
    resolved (by ``git.commits_and_files``)."""
    commits: list[str] = []
    problems: list[Finding] = []
    for rev in revs:
        # ids a range listing already resolved (git.commit_trees) need no process each
        if resolved is not None and rev in resolved:
            commit = resolved[rev]
        else:
            commit = rev if rev in git.known_commits() else git.resolve_commit(rev, cwd=root)
        if commit is None:
            why = "the branch has no commits yet" if rev == "HEAD" else "it names no commit"
            problems.append(Finding(f"{rev}: nothing to check: {why}", USAGE, "usage"))
        elif commit not in commits:
            commits.append(commit)
    return commits, problems


def judge_by_committed_policy(revs: Sequence[str], receipt: str | None,
                              requirements_for: Callable[[Config], Requirements], *,
                              require_log: bool = False,
                              signers: Signers | None = None) -> CheckResult:
    """Judge each of REVS by the policy committed in it, not the work tree's (see
    hooks/receipt/judge/policy_source.py), with what REQUIREMENTS_FOR that policy file requires
    of a receipt; ``policy_notes`` says where those differ and what a push changes."""
    paths = git.repo_paths()
    with git.batch_session(paths.root):  # the check's questions to cat-file: one process
        return _judge_by_committed_policy(revs, receipt, requirements_for, paths, require_log,
                                          signers)


def _judge_by_committed_policy(revs: Sequence[str], receipt: str | None,
                               requirements_for: Callable[[Config], Requirements],
                               paths: RepoPaths, require_log: bool,
                               signers: Signers | None) -> CheckResult:
    import json

    from hooks.core import config
    from hooks.receipt.judge import policy_source as policy
    from hooks.receipt.judge import suite

    resolved = git.commits_and_files(revs, config.COMMITTED_FILES, cwd=paths.root)
    commits, _problems = resolve(revs, paths.root, resolved)
    suite.start_change_bases(commits, paths.root)  # policy.changes asks for them at the end
    configs = config.committed(commits, paths)
    groups: dict[str, tuple[Config, list[str]]] = {}
    for commit in commits:
        key = json.dumps([configs[commit].path, configs[commit].data], sort_keys=True)
        groups.setdefault(key, (configs[commit], []))[1].append(commit)
    result: CheckResult | None = None
    for policy_file, group in groups.values() or [(NO_CONFIG, [])]:
        part = judge_commits(group or revs, receipt, requirements_for(policy_file), policy_file,
                             require_log=require_log, signers=signers)
        differs = policy.work_tree_differs(group[0], policy_file, paths) if group else None
        part.policy_notes += [differs] if differs else []
        for commit in group:
            changed = policy.changes(commit, policy_file, paths.root, paths)
            part.policy_notes += [changed] if changed else []
        if result is None:
            result = part
        else:
            result.absorb(part)
    assert result is not None  # noqa: S101  # the loop runs at least once
    return result


def judge_commits(revs: Sequence[str], receipt: str | None, requirements: Requirements,
                  policy_file: Config = NO_CONFIG, *, files: bool = True,
                  notes_revs: Sequence[str] | None = None, root: str | None = None,
                  require_log: bool = False, signers: Signers | None = None,
                  allow_overrides: bool = True, label: str = "check-receipt") -> CheckResult:
    """Judge each of REVS by one policy file and what REQUIREMENTS asks of a receipt, by every
    receipt found for its tree: the files (unless FILES is False, as in ``receipt verify``)
    and the notes in NOTES_REVS (default refs/notes/receipts).
    An override committed in a commit's ledger lets it through only when ALLOW_OVERRIDES;
    otherwise it is named in ``policy_notes`` as not honoured (LABEL says by whom).
    """
    if root is None:
        paths = git.repo_paths()
        root, memo = paths.root, layout.memo_dir(paths)
    else:  # a bare repository on a server: no work tree, no files
        memo = os.path.join(root, "receipt-hooks", "valid")
    commits, findings = resolve(revs, root)
    receipt_path, _ = layout.resolve_paths(root, receipt, None)
    shown = layout.repo_relative(root, receipt_path)
    if not commits:
        return CheckResult(commits, findings, shown, None)
    from hooks.core.config import file_key_directories

    file_key_directories(policy_file, commits, root)
    loaded = load(receipt_path, shown, memo) if files else LoadedReceipt()
    result = CheckResult(commits, findings, shown, loaded if files else None)
    judge = Judge(root, receipt_path, shown, memo, requirements, policy_file)
    judge.files = files
    judge.tamper = Tamper(root, shown, require_log, memo,
                          policy_file.summary_pattern) if files else None
    judge.signers = signers
    judge.noted = NotedReceipts(commits, root, policy_file.ignore, shown,
                                tuple(notes_revs or (NOTES_REF,)))
    allowed = bookkeeping(policy_file, [shown, layout.DEFAULT_LOG])
    globs = owner_globs(policy_file, allowed)
    for commit in commits:
        judged = judge.commit(commit, loaded)
        result.add_vouching(commit, judged.vouching)
        result.policy_notes += judged.notes
        found = list(judged.findings)
        if not found and globs:  # a receipt vouches: say what the policy let it leave out
            said = _ignored_notes(label, commit, result.vouching.get(commit, []), globs,
                                  allowed, policy_file.where("ignore"), root)
            result.policy_notes += said
        if found:
            from hooks.receipt.judge.overrides import override_for
            from hooks.receipt.judge.overrides import uncommitted

            override = override_for(commit, root, policy_file, label, allow_overrides)
            if override is not None and allow_overrides:
                result.notes.append(override)
                continue
            result.policy_notes += [override] if override else []
            unseen = uncommitted(commit, root, policy_file) if files else None
            result.policy_notes += [unseen] if unseen else []
        findings += found
    return result


def _ignored_notes(label: str, commit: str, vouching: list[tuple[dict[str, Any], str]],
                   globs: list[str], allowed: list[str], where: str, root: str) -> list[str]:
    """One note per vouching receipt that relied on the policy's ``ignore`` globs."""
    notes: list[str] = []
    for data, _shown in vouching:
        changed = ignored_changes(commit, data, globs, allowed, root)
        if changed is None or changed:
            note = ignored_message(label, commit, changed, globs, where)
            notes += [note] if note not in notes else []
    return notes
