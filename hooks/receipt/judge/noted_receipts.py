"""The receipts the notes hold for the commits being checked, read once for all of them.

A note sits on the tree the run tested. That is the commit's own tree, or, when the config
leaves bookkeeping paths out (``ignore``), the commit's tree without them; both are looked up.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from hooks.core import exits
from hooks.core import git
from hooks.core import git_index
from hooks.core import schemas
from hooks.core.cmdline import quoted
from hooks.core.output import Finding
from hooks.receipt.store import layout
from hooks.receipt.store.load import LoadedReceipt
from hooks.receipt.store.load import beyond_schema
from hooks.receipt.store.notes import NOTES_REF
from hooks.receipt.store.notes import canonical
from hooks.receipt.store.notes import receipts_for

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class NotedReceipts:
    def __init__(self, commits: Sequence[str], root: str, ignore: Sequence[str],
                 receipt_shown: str, notes_revs: Sequence[str]) -> None:
        self.commits = list(commits)
        self.root = root
        self.ignore = list(ignore)
        self.own = layout.Written(receipt_shown, layout.DEFAULT_LOG)
        self.notes_revs = list(notes_revs)
        self.trees: dict[str, list[str]] | None = None
        self.found: dict[str, list[dict[str, Any]]] = {}

    def _load(self) -> dict[str, list[str]]:
        trees = {commit: [git.tree_of(commit, self.root)] for commit in self.commits}
        self.found = receipts_for({t[0] for t in trees.values()}, self.notes_revs,
                                  cwd=self.root)
        # only a commit with no note on its own tree pays for building the tree without the
        # ignored paths (four git calls): a range where every commit was tested pays nothing
        unnoted = [c for c, t in trees.items() if t[0] not in self.found] if self.ignore else []
        for commit in unnoted:
            # a bare repository cannot build one: the full tree was still asked for
            with contextlib.suppress(git.GitError):
                trees[commit].append(git_index.tree_without(commit, self.own.paths, self.root,
                                                      self.own.and_ignored(self.ignore)))
        more = {t[1] for t in trees.values() if len(t) > 1} - set(self.found)
        if more:
            self.found.update(receipts_for(more, self.notes_revs, cwd=self.root))
        return trees

    def trees_of(self, commit: str) -> list[str]:
        """The trees COMMIT's note receipts sit on: its own, and (when the config leaves paths
        out) its tree without them."""
        if self.trees is None:
            self.trees = self._load()
        return self.trees.get(commit, [])

    def candidates(self, commit: str, command: str | None) -> list[tuple[dict[str, Any], str]]:
        """COMMIT's note receipts, newest first; only COMMAND's when it is given."""
        if self.trees is None:
            self.trees = self._load()
        from hooks.receipt.store.keyed import judged_argv
        from hooks.receipt.store.keyed import same_command

        listed: list[tuple[dict[str, Any], str]] = []
        for tree in self.trees.get(commit, []):
            for data in self.found.get(tree, []):
                argv = judged_argv(data)
                if command is not None and not (argv is not None
                                                and same_command(argv, command)):
                    continue
                listed.append((data, f"{NOTES_REF} on tree {git.short(tree)}"))
        # times are to the second: of two runs finished in one second, the one the note
        # recorded later (its list is oldest first) is the newer
        order = {id(item[0]): i for i, item in enumerate(listed)}
        listed.sort(key=lambda item: (str(item[0].get("finished_utc")), order[id(item[0])]),
                    reverse=True)
        return listed

    @staticmethod
    def load(data: dict[str, Any], shown: str, memo: str | None) -> LoadedReceipt:
        """A note receipt checked against its schema, as a file receipt would be."""
        errors = schemas.validate_remembered(layout.schema_file(data), canonical(data), data,
                                             memo)
        problem = None if errors else beyond_schema(data)
        errors = [*errors, problem] if problem else errors
        return LoadedReceipt(data=data, findings=[
            Finding(f"{shown} is not a valid receipt: {err}: run "
                    f"{quoted(layout.rerun_hint(data))}",
                    exits.INVALID, "invalid") for err in errors])

    def unreadable(self, commit: str) -> Finding | None:
        """A note on COMMIT's tree that holds no receipt (not JSON, not a list of receipts):
        named, so that a corrupt note is not reported as a missing receipt."""
        for tree in self.trees_of(commit):
            if tree in self.found and not self.found[tree]:
                return Finding(
                    f"{git.short(commit)}: the note on tree {git.short(tree)} in {NOTES_REF} "
                    f"holds no receipt (it is not a JSON list of receipts): run 'receipt run' "
                    f"on it, then 'receipt publish', which replaces it", exits.INVALID,
                    "invalid", commit=commit)
        return None

    def missing(self, commit: str, command: str | None) -> Finding:
        if self.trees is None:
            self.trees = self._load()
        tree = git.short((self.trees.get(commit) or [""])[0])
        what = f" from '{command}'" if command else ""
        return Finding(
            f"{git.short(commit)}: no receipt{what} in {NOTES_REF} for tree {tree}: run "
            f"'receipt run' on it, then 'receipt publish' (or fetch the notes first: "
            f"'receipt fetch')", exits.MISSING, "missing", commit=commit)
