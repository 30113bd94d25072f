"""Which refs of a push carry code for the receipt check to judge.

Notes (``refs/notes/*``: receipts travel in ``refs/notes/receipts``) are not code: their commits
hold notes on other objects, never a tree a test run could have seen, so judging one refuses
every push that carries the receipts with the branch (``git push origin main
refs/notes/receipts``, or a ``remote.origin.push`` refspec for them). A plain pre-push hook
skips such ref lines; under pre-commit, which hands the hook only the push's first ref, a
first ref that is notes gives way to HEAD, the code such a push sends when it sends any.
"""

from __future__ import annotations

import os

NOT_CODE = ("refs/notes/",)


def is_code(ref: str) -> bool:
    """Whether the remote ref REF holds code: anything but notes."""
    return not ref.startswith(NOT_CODE)


def first_ref_not_code() -> str | None:
    """The push's first remote ref as pre-commit hands it to a pre-push hook, when it is not
    code; None otherwise (code, or not run by pre-commit at pre-push)."""
    ref = os.environ.get("PRE_COMMIT_REMOTE_BRANCH", "")
    return ref if ref and not is_code(ref) else None


def instead_of(ref: str) -> list[str]:
    """What to judge when pre-commit hands the hook only REF, which is not code: HEAD when it
    has commits no remote has (what the push sends of code, as for a push without a range),
    else nothing; said on stderr either way, so a pass is never silent about it."""
    from hooks.core import git
    from hooks.core.output import warn

    root = git.repo_paths().root
    head = git.head_commit(root)
    said = (f"check-receipt: note: the push's first ref, {ref}, is notes, not code, and "
            f"pre-commit hands this hook no other ref")
    if head is None or not git.unpublished(head, root)[0]:
        warn(f"{said}; HEAD's commits are all on a remote, so there is no code to judge")
        return []
    warn(f"{said}; judging HEAD ({git.short(head)}), whose commits no remote has")
    return [head]
