"""Which policy judges a pushed commit, and what a push does to it.

A commit is judged by the config committed in it (``COMMIT:.receipt-hooks.toml``, else its
pyproject.toml table), never by the work tree's copy: that copy may be uncommitted, ignored or
another branch's, and none of those reach the remote. When the work tree's copy differs, the
check says so. A push can still change its own policy (narrow ``test-command``, delete the
config); the check applies the committed one, and says so every time. A server or CI check
(``receipt verify``) takes its policy from the command line or the base branch instead.

``ignore`` is the owner's, as CI's ``paths-ignore`` is: by default the bookkeeping (the ledger,
the skip baseline), and any globs the committed policy lists (``docs/**``), so a docs-only change
keeps the receipt. The receipt records the globs it left out (``ignored``), and every check that
lets a receipt vouch over changes to such paths names them (``ignored_changes``). A pushed commit
cannot widen its own ``ignore`` on a server or in CI: ``receipt verify`` judges by the base's.
"""

from __future__ import annotations

import json

from hooks.core import config
from hooks.core import git
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


def owner_globs(policy: Config, allowed: list[str]) -> list[str]:
    """The committed ``ignore`` globs that are not bookkeeping: the ones a check must name."""
    if "ignore" not in policy.data:
        return []
    return [g for g in policy.ignore
            if g not in allowed and not (g.startswith(ARTIFACTS) and ".." not in g)]


def ignored_changes(commit: str, data: dict[str, Any], globs: list[str], allowed: list[str],
                    root: str) -> list[str] | None:
    """The paths under GLOBS that COMMIT changed since the run of receipt DATA (from the commit
    it started from), bookkeeping left out; None when that commit is not here to compare."""
    from hooks.core.git_index import glob_pathspecs

    head = data.get("git_head")
    if not globs or data.get("git_tree") == git.tree_of(commit, root):
        return []  # nothing was left out of this commit's comparison
    if not isinstance(head, str) or not git.has_object(head, root):
        return None
    out = git.run("diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", head, commit,
                  "--", *glob_pathspecs(globs), cwd=root)
    changed = [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]
    return [p for p in changed if p not in allowed and not p.startswith(ARTIFACTS)]


def ignored_message(label: str, commit: str, changed: list[str] | None, globs: list[str],
                    where: str) -> str:
    """'N paths changed since the run are ignored by the policy: a, b' (or, with no run commit
    to compare with, that the policy's globs were not compared)."""
    if changed is None:
        return (f"{label}: {git.short(commit)}: the commit the run started from is not here, so "
                f"changes since the run to paths ignored by the policy ({where} "
                f"{_shown(globs)}) are not known: the receipt vouches without them")
    shown = ", ".join(printable_path(p) for p in changed[:SHOWN])
    more = f" and {len(changed) - SHOWN} more" if len(changed) > SHOWN else ""
    verb = "path changed since the run is" if len(changed) == 1 else \
        "paths changed since the run are"
    return (f"{label}: {git.short(commit)}: {len(changed)} {verb} ignored by the policy: "
            f"{shown}{more} ({where} {_shown(globs)}); the receipt vouches without them")
