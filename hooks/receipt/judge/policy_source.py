"""Which policy judges a pushed commit, and what a push does to it.

A commit is judged by the config committed in it (``COMMIT:.receipt-hooks.toml``, else its
pyproject.toml table), never by the work tree's copy: that copy may be uncommitted, ignored or
another branch's, and none of those reach the remote. When the work tree's copy differs, the
check says so. A push can still change its own policy (narrow ``test-command``, delete the
config); the check applies the committed one, and says so every time. A server or CI check
(``receipt verify``) takes its policy from the command line or the base branch instead.

``ignore`` exists for bookkeeping (the ledger, the skip baseline, artifacts/, the config): a glob
that hides any other tracked file would let one old receipt vouch for every later change to it.
"""

from __future__ import annotations

import json

from hooks.core import config
from hooks.core import git
from hooks.core import git_index
from hooks.core.config import Config
from hooks.core.text import printable_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hooks.core.git import RepoPaths

ARTIFACTS = "artifacts/"
SHOWN = 3


def work_tree_differs(commit: str, committed_config: Config, paths: RepoPaths) -> str | None:
    """A note when the work tree's config is not COMMIT's (uncommitted, ignored, another
    branch's): the check uses the commit's, and a person editing the other should know."""
    try:
        here = config.for_repo(paths)
        differs = (here.path, here.data) != (committed_config.path, committed_config.data)
        what = f"the work tree's {here.path or 'lack of a config'}"
    except config.ConfigError as e:
        differs, what = True, f"the work tree's config ({e})"
    if not differs:
        return None
    theirs = committed_config.path or "no config"
    return (f"check-receipt: note: {what} differs from the policy committed in "
            f"{git.short(commit)} ({theirs}); the push is judged by the committed one: commit "
            f"the config to change the policy")


def changes(commit: str, new: Config, root: str, paths: RepoPaths) -> str | None:
    """'the pushed commits change the policy: ...' when COMMIT's config differs from the one
    its change starts from (the remote's side); None when it does not, or for a new history."""
    from hooks.receipt.judge.suite import change_bases

    bases = [b for b in change_bases(commit, root) if b != git.empty_tree(root, like=commit)]
    if not bases:
        return None
    for base, old in config.committed(bases, paths).items():
        said = _difference(old, new)
        if said:
            return (f"check-receipt: {git.short(commit)}: the pushed commits change the policy "
                    f"(since {git.short(base)}): {said}; this check applies the pushed one, "
                    f"'receipt verify' on a server or in CI applies the base branch's")
    return None


def _difference(old: Config, new: Config) -> str:
    if (old.path, old.data) == (new.path, new.data):
        return ""
    if not new.exists:
        return f"they delete {old.path} (no test-command, no require-tests)"
    if not old.exists:
        return f"they add {new.path}"
    keys = sorted(set(old.data) | set(new.data))
    said = [f"{k} {_shown(old.data.get(k))} -> {_shown(new.data.get(k))}" for k in keys
            if old.data.get(k) != new.data.get(k)]
    moved = f"moved from {old.path} to {new.path}; " if old.path != new.path else ""
    return moved + ("; ".join(said) or "reformatted")


def _shown(value: Any) -> str:
    if value is None:
        return "(unset)"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


def bookkeeping(policy: Config, receipt_paths: list[str]) -> list[str]:
    """What ``ignore`` may leave out: the ledger, the skip baseline, the receipt and its log,
    and the receipt-hooks config itself (a change to it is reported as a policy change)."""
    return [*config.DEFAULT_IGNORE, config.OWN_FILE, policy.ledger,
            str(policy.section("skips").get("baseline", config.DEFAULT_BASELINE)),
            *receipt_paths]


def only_bookkeeping(globs: list[str], allowed: list[str]) -> bool:
    """GLOBS name bookkeeping files literally: nothing to look up (the common case)."""
    return all(g in allowed or (g.startswith(ARTIFACTS) and ".." not in g) for g in globs)


def hidden_by_ignore(commit: str, globs: list[str], allowed: list[str], root: str) -> list[str]:
    """Tracked files of COMMIT that GLOBS leave out and that are not bookkeeping."""
    if not globs or only_bookkeeping(globs, allowed):
        return []
    full = git.tree_of(commit, root)
    without = git_index.tree_without(commit, [], root, globs)
    return [p for _s, p in git.tree_changes(without, full, root)
            if p not in allowed and not p.startswith(ARTIFACTS)]


def hidden_message(commit: str, hidden: list[str], globs: list[str], where: str) -> str:
    shown = ", ".join(printable_path(p) for p in hidden[:SHOWN])
    more = f" and {len(hidden) - SHOWN} more" if len(hidden) > SHOWN else ""
    return (f"{git.short(commit)}: {where} {_shown(globs)} hides tracked files that are not "
            f"bookkeeping: {shown}{more}; a receipt would vouch for changes to them that no "
            f"test run saw: ignore is for the ledger, the skip baseline and artifacts/, so take "
            f"those globs out of it")
