"""Overrides: a person lets a push through, or a fuse run past its cap, and says why.

Each is an ``override`` event in the ledger (who, when, what, why), so it is never silent: the
check prints "overridden by WHO because WHY" every time it honours one. A check-receipt
override names the commit's tree less the bookkeeping paths (the config's ``ignore``), so
committing the ledger that holds it does not undo it, and it counts only once it is committed:
the check reads the ledger of the pushed commit, never the work tree's, so every override
reaches the remote with the push it lets through, listed for all to see.
"""

from __future__ import annotations

import json
import os
import re

from hooks.core import git
from hooks.core import git_index
from hooks.core.config import Config
from hooks.core.output import warn
from hooks.core.times import utc_now
from hooks.ledger import lines
from hooks.ledger import store

CHECK = "check-receipt"


def who(root: str | None = None) -> str:
    """git's user.email, else user.name, else the login: who is answerable for an override."""
    for key in ("user.email", "user.name"):
        try:
            value = git.text("config", "--get", key, cwd=root)
        except git.GitError:
            value = ""
        if value:
            return value
    return os.environ.get("USER") or os.environ.get("LOGNAME") or "unknown"


def policy_tree(commit: str, root: str, policy: Config) -> str:
    return git_index.tree_without(commit, [], root, policy.ignore)


MIN_REASON = 10
_WORD = re.compile(r"[^\W\d_]{3,}")  # three letters in a row, of any script


def reason_problem(why: str) -> str | None:
    """What is wrong with WHY as the reason for an override; None when it says something."""
    text = why.strip()
    if not text:
        return "--reason is empty: say why, in a sentence"
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
        return "--reason must be one line of text (no newlines or control characters)"
    if len(text) < MIN_REASON or not _WORD.search(text):
        return (f"--reason {text!r} says too little: at least {MIN_REASON} characters with a "
                f"word in them, e.g. 'INC-42 hotfix, suite runs after'")
    return None


def record(ledger: str, what: str, why: str, root: str | None, **fields: str) -> dict[str, str]:
    """Append an override event to LEDGER; raises a one-line error if it cannot be written or
    WHY says nothing (an audit trail of 'x' is no trail)."""
    from hooks.core.errors import UserError

    problem = reason_problem(why)
    if problem:
        raise UserError(f"override not recorded: {problem}")
    entry: dict[str, str] = {"ts": utc_now(), "event": "override", "who": who(root),
                             "what": what, "why": why, **fields}
    problems = lines.validation_errors(entry)
    if problems:
        raise store.LedgerError(f"override not recorded: {problems[0]}")
    store.append(ledger, [entry])
    return entry


def override_for(commit: str, root: str, policy: Config, label: str = CHECK,
                 honoured: bool = True) -> str | None:
    """'overridden by WHO because WHY (ts)' when the ledger committed in COMMIT holds a
    check-receipt override for COMMIT's tree; None otherwise. Read only when the check has
    already failed. Not HONOURED (``receipt verify`` without --allow-overrides): the line
    says it does not count, since anyone who can commit can write one."""
    found = _override(git.blob(f"{commit}:{policy.ledger}") or b"", commit, root, policy)
    if found is None:
        return None
    said = (f"by {found.get('who')} because {found.get('why')} ({found.get('ts')}, "
            f"{policy.ledger} as committed)")
    if honoured:
        return f"{label}: {git.short(commit)}: overridden {said}"
    return (f"{label}: {git.short(commit)}: an override {said} is not honoured: it is written "
            f"in the judged commit, by whoever pushed it; pass --allow-overrides to honour it")


def uncommitted(commit: str, root: str, policy: Config) -> str | None:
    """A note when the work tree's ledger holds an override for COMMIT that is not committed
    in it: it does not count, and the person who wrote it should learn why."""
    try:
        data = store.read_bytes(os.path.join(root, policy.ledger))
    except store.LedgerError:
        return None
    if _override(data, commit, root, policy) is None:
        return None
    return (f"check-receipt: {git.short(commit)}: the override in {policy.ledger} is not "
            f"committed in {git.short(commit)}, so it does not count: 'git commit "
            f"{policy.ledger} -m \"override\"', then push again")


def _override(data: bytes, commit: str, root: str, policy: Config) -> dict[str, object] | None:
    if b'"override"' not in data:
        return None
    tree = policy_tree(commit, root, policy)
    found = None
    for raw in data.splitlines():
        if b'"override"' not in raw:
            continue
        try:
            entry = json.loads(raw)
        except ValueError:
            continue
        if isinstance(entry, dict) and entry.get("event") == "override" \
                and entry.get("what") == CHECK and entry.get("tree") == tree:
            found = entry
    return found


def override_check(reason: str, rev: str, policy: Config) -> int:
    """``receipt override``: let REV's tree through check-receipt, logged in the ledger."""
    from hooks.core.errors import UserError

    paths = git.repo_paths()
    commit = git.resolve_commit(rev, paths.root)
    if commit is None:
        raise UserError(f"{rev} names no commit here")
    tree = policy_tree(commit, paths.root, policy)
    entry = record(os.path.join(paths.root, policy.ledger), CHECK, reason.strip(), paths.root,
                   tree=tree, commit=commit)
    warn(f"receipt override: {git.short(commit)} (tree {git.short(tree)}) may be pushed without "
         f"a valid receipt once the override is committed; recorded in {policy.ledger} as "
         f"overridden by {entry['who']} because {reason.strip()}: now 'git commit "
         f"{policy.ledger} -m \"override\"' and push")
    return 0
