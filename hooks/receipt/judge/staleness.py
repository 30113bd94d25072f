"""Is a commit the tree a receipt tested, and if not, what changed?

The tree a receipt vouches for leaves out what ``receipt run`` writes (``model.Written``: the
receipt, its log, the per-command copies) and the ``ignored`` globs it records (the
repository's bookkeeping: the ledger, the skip baseline). The commit's side is computed from
the commit alone, with the same globs, so the answer is the same on the machine that ran the
tests, in CI and on a server. A config whose ``ignore`` now counts paths the receipt left out
makes it stale, and the message says that, not that files changed.
"""

from __future__ import annotations

from hooks.core import git
from hooks.core import git_index
from hooks.core.text import printable_path
from hooks.receipt.store.layout import Written

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SHOWN_CHANGES = 10


class TreeMatch:
    """COMMIT against a receipt: ``matches``, else ``why`` it does not (a message fragment)."""

    __slots__ = ("matches", "why")

    def __init__(self, matches: bool, why: str = "") -> None:
        self.matches = matches
        self.why = why


def _written(data: dict[str, Any], receipt: str) -> Written:
    output = data.get("output")
    log = output.get("log") if isinstance(output, dict) else None
    return Written(receipt, log if isinstance(log, str) else None)


def compare(commit: str, data: dict[str, Any], receipt: str, root: str,
            ignore: list[str], config_path: str | None) -> TreeMatch:
    """Whether schema-valid receipt DATA tested COMMIT's tree under today's IGNORE globs."""
    tested = str(data.get("git_tree"))
    full = git.tree_of(commit, root)
    if full == tested:  # the common case: one git call
        return TreeMatch(True)
    recorded = [str(g) for g in data.get("ignored") or []]
    own = _written(data, receipt)
    comparable = git_index.tree_without(commit, own.paths, root, own.and_ignored(recorded))
    if comparable != tested:
        why = describe(commit, comparable, data, own, recorded, root)
        if config_path and git.paths_in_commit(commit, [config_path], root) and \
                _changed(config_path, commit, data, root):
            why += f" (the policy in {config_path} changed since the run)"
        return TreeMatch(False, why)
    newly_counted = sorted(set(recorded) - set(ignore))
    if newly_counted:
        counted_now = git_index.tree_without(commit, own.paths, root, own.and_ignored(ignore))
        left_out_before = git_index.tree_without(commit, own.paths, root,
                                           own.and_ignored([*recorded, *ignore]))
        if counted_now != left_out_before:
            paths = [p for _s, p in git.tree_changes(left_out_before, counted_now, root)]
            return TreeMatch(False, (
                f"{git.short(commit)} holds {_listed(paths)}, which the receipt left out of "
                f"the tree it tested (ignore {', '.join(newly_counted)}) and the config "
                f"({config_path or 'its default'}) now counts"))
    return TreeMatch(True)


def _changed(path: str, commit: str, data: dict[str, Any], root: str) -> bool:
    """PATH differs between COMMIT and the tested tree (or the run's commit, if that is all
    there is here)."""
    tested = str(data.get("git_tree"))
    head = data.get("git_head")
    base = tested if git.has_object(tested, root) else head if isinstance(head, str) and \
        git.has_object(head, root) else None
    if base is None:
        return False
    return any(p == path for _s, p in git.tree_changes(base, commit, root))


def describe(commit: str, comparable: str, data: dict[str, Any], own: Written,
             recorded: list[str], root: str) -> str:
    """'<commit> differs from the tested tree in N paths: M a, A b, ...', by the best evidence
    here: the tested tree itself, else the commit the run started from, else its name."""
    tested = str(data.get("git_tree"))
    label = git.short(commit)
    if git.has_object(tested, root):
        return f"{label} differs from the tested tree in {_changes(tested, comparable, root)}"
    head = data.get("git_head")
    dirty = " and uncommitted changes" if data.get("git_dirty") else ""
    if isinstance(head, str) and git.has_object(head, root):
        base = git_index.tree_without(head, own.paths, root, own.and_ignored(recorded))
        if base == comparable:
            return (f"{label} has the tree of the commit the run started from, "
                    f"{git.short(head)}, but the run also tested uncommitted changes (tree "
                    f"{git.short(tested)}, not in this repository)")
        return (f"{label} is not the tested tree ({git.short(tested)}, not in this repository); "
                f"it differs from the commit the run started from, {git.short(head)}{dirty}, in "
                f"{_changes(base, comparable, root)}")
    where = f"commit {git.short(head)}{dirty}" if isinstance(head, str) else "an unborn branch"
    return (f"{label} is not the tested tree ({git.short(tested)}, from {where}; neither is "
            f"in this repository)")


def _changes(old: str, new: str, root: str) -> str:
    changes = git.tree_changes(old, new, root)
    if not changes:
        return "0 paths (only in ignored or receipt paths)"
    shown = ", ".join(f"{status} {printable_path(path)}"
                      for status, path in changes[:SHOWN_CHANGES])
    more = len(changes) - SHOWN_CHANGES
    noun = "path" if len(changes) == 1 else "paths"
    return f"{len(changes)} {noun}: {shown}" + (f" and {more} more" if more > 0 else "")


def _listed(paths: list[str]) -> str:
    shown = ", ".join(printable_path(p) for p in paths[:SHOWN_CHANGES])
    more = len(paths) - SHOWN_CHANGES
    return shown + (f" and {more} more" if more > 0 else "")
