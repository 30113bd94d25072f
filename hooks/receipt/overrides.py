"""Overrides: a person lets a push through, or a fuse run past its cap, and says why.

Each is an ``override`` event in the ledger (who, when, what, why), so it is never silent: the
check prints "overridden by WHO because WHY" every time it honours one. A check-receipt
override names the commit's tree less the bookkeeping paths (the config's ``ignore``), so
committing the ledger that holds it does not undo it.
"""

from __future__ import annotations

import json
import os

from hooks.core import git
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
    return git.tree_without(commit, [], root, policy.ignore)


def record(ledger: str, what: str, why: str, root: str | None, **fields: str) -> dict[str, str]:
    """Append an override event to LEDGER; raises a one-line error if it cannot be written."""
    entry: dict[str, str] = {"ts": utc_now(), "event": "override", "who": who(root),
                             "what": what, "why": why, **fields}
    problems = lines.validation_errors(entry)
    if problems:
        raise store.LedgerError(f"override not recorded: {problems[0]}")
    store.append(ledger, [entry])
    return entry


def override_for(commit: str, root: str, policy: Config) -> str | None:
    """'overridden by WHO because WHY (ts)' when the ledger holds a check-receipt override for
    COMMIT's tree; None otherwise. Read only when the check has already failed."""
    ledger = os.path.join(root, policy.ledger)
    try:
        data = store.read_bytes(ledger)
    except store.LedgerError:
        return None
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
    if found is None:
        return None
    return (f"check-receipt: {git.short(commit)}: overridden by {found.get('who')} because "
            f"{found.get('why')} ({found.get('ts')}, {policy.ledger})")


def override_check(reason: str, rev: str, policy: Config) -> int:
    """``receipt override``: let REV's tree through check-receipt, logged in the ledger."""
    from hooks.core.errors import UserError

    paths = git.repo_paths()
    commit = git.resolve_commit(rev, paths.root)
    if commit is None:
        raise UserError(f"{rev} names no commit here")
    if not reason.strip():
        raise UserError("--reason is empty: say why the push may go without a valid receipt")
    tree = policy_tree(commit, paths.root, policy)
    entry = record(os.path.join(paths.root, policy.ledger), CHECK, reason, paths.root,
                   tree=tree, commit=commit)
    warn(f"receipt override: {git.short(commit)} (tree {git.short(tree)}) may be pushed without "
         f"a valid receipt; recorded in {policy.ledger} as overridden by {entry['who']} because "
         f"{reason}")
    return 0
