"""Which change a commit-stage hook looks at (DESIGN.md, "How the hooks see changes").

- refs given (``--from-ref/--to-ref``, or pre-commit's ``PRE_COMMIT_FROM_REF/TO_REF`` at
  pre-push and in ``pre-commit run --from-ref A --to-ref B``): the range ``A...B``;
- otherwise the staged change, which also works on an unborn branch;
- nothing staged and no refs (``pre-commit run --all-files``, as pre-commit.ci runs): no diff
  exists, and each hook says what it does instead.
"""

from __future__ import annotations

import os

from hooks import git_repo


class Change:
    __slots__ = ("base", "old_rev", "paths", "target")

    def __init__(self, base: str | None, target: str | None, paths: list[str]) -> None:
        self.base = base
        self.target = target
        self.paths = paths
        self.old_rev: str | None = None

    @property
    def is_range(self) -> bool:
        return self.target is not None

    @property
    def is_empty(self) -> bool:
        """Nothing staged and no refs: the --all-files case."""
        return not self.paths and not self.is_range

    def old_content(self, path: str) -> bytes | None:
        """PATH before the change: at HEAD (staged) or at the range's merge base."""
        if self.is_range:
            assert self.base is not None and self.target is not None  # noqa: S101  # is_range
            if self.old_rev is None:
                self.old_rev = git_repo.merge_base(self.base, self.target) or self.base
            return git_repo.blob(f"{self.old_rev}:{path}")
        return git_repo.blob(f"HEAD:{path}")

    def new_content(self, path: str) -> bytes | None:
        """PATH after the change: in the index (staged) or at the range's target."""
        return git_repo.blob(f"{self.target}:{path}" if self.is_range else f":{path}")


def resolve_refs(from_ref: str | None, to_ref: str | None) -> tuple[str | None, str | None]:
    """The range to scan, as commit ids: options first, then pre-commit's variables."""
    base = from_ref or os.environ.get("PRE_COMMIT_FROM_REF") or None
    target = to_ref or os.environ.get("PRE_COMMIT_TO_REF") or None
    if (base is None) != (target is None):
        raise ValueError("--from-ref and --to-ref go together")
    if base is not None and target is not None:
        base = git_repo.resolve_commit(base) or _unknown(base)
        target = git_repo.resolve_commit(target) or _unknown(target)
    return base, target


def detect(from_ref: str | None, to_ref: str | None) -> Change:
    base, target = resolve_refs(from_ref, to_ref)
    return Change(base, target, git_repo.changed_paths(base, target))


def _unknown(rev: str) -> str:
    raise ValueError(f"{rev} names no commit here (fetch it first?)")
