"""Does a green receipt cover the work tree as the agent leaves it?

The work tree is snapshotted the way ``receipt run`` snapshots it (tracked and untracked,
unignored files; the receipt, its log and the config's bookkeeping globs left out), so the
answer is a comparison of two tree ids. The receipts judged are the ones the policy needs:
one per configured ``test-command``, else the last run's. A receipt is green when the check
would pass it apart from the commit: it succeeded, counted tests, left the tree as it found
it, ran the whole suite.
"""

from __future__ import annotations

import os

from hooks.core import git
from hooks.core import git_index
from hooks.core import snapshot
from hooks.core.cmdline import quoted
from hooks.core.cmdline import rerun_command
from hooks.core.config import Config
from hooks.receipt.judge.staleness import TreeMatch
from hooks.receipt.judge.verdict import Requirements
from hooks.receipt.judge.verdict import evaluate
from hooks.receipt.store import layout
from hooks.receipt.store.load import load

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Judged:
    """One receipt the policy needs: its path as shown, its data, whether it is green."""

    __slots__ = ("data", "green", "kind", "problem", "shown")

    def __init__(self, shown: str, data: dict[str, Any] | None, green: bool,
                 problem: str, kind: str = "") -> None:
        self.shown = shown
        self.data = data
        self.green = green
        self.problem = problem  # why it is not green, a message fragment
        self.kind = kind  # the verdict's finding kind for PROBLEM ("failed", "no-tests", ...)


# which of a receipt's findings an agent must hear first: a failure before a tree the run
# changed (a failing pytest run also writes __pycache__/), both before the rest
_FIRST = ("failed", "tests-failed", "no-tests", "none-passed", "not-counted",
          "changed-during-run")


def _rank(kind: str) -> int:
    return _FIRST.index(kind) if kind in _FIRST else len(_FIRST)


class Coverage:
    __slots__ = ("commands", "committed_since_run", "head_tree", "judged", "tree")

    def __init__(self, tree: str, judged: list[Judged], commands: list[str],
                 head_tree: str | None) -> None:
        self.tree = tree
        self.judged = judged
        self.commands = commands  # what to run, as 'receipt run -- ...'
        self.head_tree = head_tree  # HEAD's tree compared the same way; None unless needed
        # with no green receipt: the receipt of a run HEAD was committed after (its work since
        # is untested, so HEAD is no baseline), else None
        self.committed_since_run: Judged | None = None

    @property
    def covered(self) -> bool:
        return bool(self.judged) and all(j.green and self._on_tree(j) for j in self.judged)

    @property
    def any_green(self) -> bool:
        return any(j.green for j in self.judged)

    @property
    def failing(self) -> list[Judged]:
        """Receipts of this very tree that are not green: the agent ran the suite; it failed."""
        return [j for j in self.judged if self._on_tree(j) and not j.green]

    def green_trees(self) -> list[str]:
        return [str(j.data.get("git_tree")) for j in self.judged if j.green and j.data]

    def _on_tree(self, judged: Judged) -> bool:
        return judged.data is not None and judged.data.get("git_tree") == self.tree

    @property
    def command(self) -> str:
        return " and ".join(quoted(c) for c in self.commands)


def coverage(paths: git.RepoPaths, policy: Config) -> Coverage:
    root = paths.root
    receipt_path, log_path = layout.resolve_paths(root, None, None)
    own = layout.Written(layout.repo_relative(root, receipt_path),
                        layout.repo_relative(root, log_path))
    left_out = own.and_ignored(policy.ignore)
    memo = layout.memo_dir(paths)
    requirements = Requirements(require_tests=policy.require_tests,
                                allow_narrowing=bool(policy.test_commands))
    if policy.test_commands:
        from hooks.receipt.store.keyed import configured_argv
        from hooks.receipt.store.keyed import keyed_path

        argvs = [configured_argv(c) for c in policy.test_commands]
        wanted = [keyed_path(receipt_path, a) for a in argvs]
        commands = [rerun_command(a) for a in argvs]
    else:
        wanted, commands = [receipt_path], []
    judged: list[Judged] = []
    for path in wanted:
        shown = layout.repo_relative(root, path)
        if not os.path.isfile(path):
            continue
        loaded = load(path, shown, memo)
        if loaded.data is None or loaded.findings:
            problem = loaded.findings[0].message if loaded.findings else "unreadable"
            judged.append(Judged(shown, loaded.data, False, problem))
            continue
        found = evaluate(loaded.data, commit=str(loaded.data.get("git_tree")),
                         tree_match=TreeMatch(True), shown_path=shown, requirements=requirements)
        first = min(found, key=lambda f: _rank(f.kind)) if found else None
        judged.append(Judged(shown, loaded.data, first is None,
                             first.message if first else "", first.kind if first else ""))
        if not policy.test_commands:
            commands = [layout.rerun_hint(loaded.data)]
    if not commands:
        commands = [rerun_command(None)]
    # expected: a green receipt's tree. The snapshot equal to it is the one `receipt run`
    # took, which looked for no environment and named no hidden path either (nor is either
    # needed here): only a tree that differs costs those looks.
    green = next((j.data for j in judged if j.green and j.data), None)
    tree = snapshot.take(root, own.paths, left_out,
                         expect=str(green.get("git_tree")) if green else None).tree
    result = Coverage(tree, judged, commands, None)
    if not result.any_green:  # nothing green to compare with: what HEAD holds is the baseline
        head = git.head_commit(root)
        if head is not None and judged:
            result.committed_since_run = _committed_after(head, judged, tree, root)
        if head is None:
            result.head_tree = git.empty_tree(root)
        elif git.tree_of(head, root) == tree:  # one call when the agent left HEAD as it was
            result.head_tree = tree
        else:
            result.head_tree = git_index.tree_without(head, own.paths, root, left_out)
    return result


def _committed_after(head: str, judged: list[Judged], tree: str, root: str) -> Judged | None:
    """The newest of JUDGED (none green), when it tested another tree than TREE and HEAD was
    committed after it finished: the run did not pass and what was committed since it has not
    been tested, so HEAD cannot stand for a turn that changed nothing."""
    from hooks.core.times import parse_utc

    runs = [(parse_utc(str(j.data.get("finished_utc"))), j) for j in judged
            if j.data is not None and j.data.get("git_tree") != tree]
    dated = [(when, j) for when, j in runs if when is not None]
    if not dated:
        return None
    when, newest = max(dated, key=lambda item: item[0])
    try:
        committed = int(git.text("show", "-s", "--format=%ct", head, cwd=root))
    except (git.GitError, ValueError):
        return None
    return newest if committed > when.timestamp() else None
