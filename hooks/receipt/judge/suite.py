"""The receipts a commit needs under the repository's policy: the suite, and routed commands.

``test-command`` names the whole suite (one command or several); ``[[route]]`` entries add a
command whenever the pushed change touches their paths. Which change: the range pre-commit
gives (``PRE_COMMIT_FROM_REF...PRE_COMMIT_TO_REF``) when it ends at the commit; else the
commit's history that no remote-tracking ref has; else (everything already on a remote, as in
CI) the commit's own change against its first parent.
"""

from __future__ import annotations

import re

from hooks.core import change
from hooks.core import git
from hooks.core.cmdline import quoted
from hooks.core.config import Config
from hooks.core.text import printable_path


class Need:
    """A command whose receipt the commit needs, and why (for the message)."""

    __slots__ = ("command", "route")

    def __init__(self, command: str, route: tuple[str, list[str]] | None = None) -> None:
        self.command = command
        self.route = route  # (paths regex, the changed paths it matched) for a route

    def why(self) -> str:
        if self.route is None:
            return f"the suite is {quoted(self.command)}"
        pattern, paths = self.route
        shown = ", ".join(printable_path(p) for p in paths[:3])
        shown += f" and {len(paths) - 3} more" if len(paths) > 3 else ""
        return (f"the change touches {shown} (route '{pattern}'), which needs a receipt from "
                f"{quoted(self.command)}")


def needs(policy: Config, commit: str, root: str) -> list[Need]:
    """Every command COMMIT needs a receipt from; empty when the policy names none."""
    found = [Need(command) for command in policy.test_commands]
    if policy.routes:
        changed = changed_paths(commit, root)
        for pattern, command in policy.routes:
            regex = re.compile(pattern)
            matched = [p for p in changed if regex.search(p)]
            if matched and not any(n.command == command for n in found):
                found.append(Need(command, (pattern, matched)))
    return found


def changed_paths(commit: str, root: str) -> list[str]:
    paths: list[str] = []
    for base in change_bases(commit, root):
        paths += [p for p in git.changed_paths(base, commit, cwd=root) if p not in paths]
    return paths


def start_change_bases(commits: list[str], root: str) -> None:
    """Let git find what each of COMMITS' change is measured from while the caller does other
    work (``change_bases`` then waits for the answer); nothing to start under pre-commit."""
    if change.pre_commit_range() is None:
        git.start_unpublished(commits, root)


def change_bases(commit: str, root: str) -> list[str]:
    """What COMMIT's change is measured from: pre-commit's from-ref; else the commits no remote
    has yet start from their boundary (the empty tree for a whole new history); else (all on a
    remote already, as in CI) the first parent, or the empty tree for a root commit."""
    given = change.pre_commit_range()
    if given is not None and git.resolve_commit(given[1], root) == commit:
        return [git.resolve_commit(given[0], root) or git.empty_tree(root, like=commit)]
    new, boundary = git.unpublished(commit, root)
    if new:
        return boundary or [git.empty_tree(root, like=commit)]
    parent = git.resolve_commit(f"{commit}^", root)
    return [parent or git.empty_tree(root, like=commit)]
