"""Which change a diff-reading hook looks at: the one answer to "what changed?".

- refs given (``--from-ref/--to-ref``, or pre-commit's ``PRE_COMMIT_FROM_REF/TO_REF`` at
  pre-push and in ``pre-commit run --from-ref A --to-ref B``): the range ``A...B``;
- at pre-push with no refs (a first push of a whole history, a push by URL, an orphan branch:
  pre-commit then passes none), the pushed commit's history that no remote-tracking ref has
  (``git rev-list TO --not --remotes``), or its whole history when no remote has any of it.
  The index is never read at pre-push: a commit made with ``--no-verify`` is still seen;
- otherwise the staged change, which also works on an unborn branch;
- nothing staged and no refs (``pre-commit run --all-files``, as pre-commit.ci runs): no diff
  exists, and each hook says what it does instead.

Every path is relative to the repository root, and ``detect`` makes the root the current
directory (where pre-commit already runs hooks), so a path git prints is a path that opens.
"""

from __future__ import annotations

import os

from hooks.core import git
from hooks.core.errors import UserError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hooks.core.diff import FileDiff  # loaded where a diff is read; a push's check reads none

PRE_PUSH_VARIABLES = ("PRE_COMMIT_REMOTE_NAME", "PRE_COMMIT_REMOTE_URL", "PRE_COMMIT_LOCAL_BRANCH")


class Change:
    """The change: its range (None for the staged change), the paths it touches, the lines.

    ``base`` is the commit the change is measured from: for a range, the merge base of its
    ends (what ``A...B`` diffs against); ``git.empty_tree()`` when the whole history is new.
    Given the raw diff (DIFF_OUTPUT), the paths are read only if someone asks for them: a
    hook that reads the lines starts one git process, not two.
    """

    __slots__ = ("_diffs", "_old_rev", "_paths", "_touches", "base", "published", "target")

    def __init__(self, base: str | None, target: str | None, paths: list[str] | None = None,
                 diff_output: bytes | None = None) -> None:
        self.base = base
        self.target = target
        self._paths = paths
        # at pre-push, (name, commit) of what the remote already has of the pushed branch
        self.published: tuple[str, str] | None = None
        self._old_rev: str | None = None
        self._diffs: list[FileDiff] | None = None
        # git prints a header for every path a change touches (a mode change, an empty new
        # file, a pure rename too), so its raw diff is empty exactly when no path is touched
        self._touches: bool | None = None
        if diff_output is not None:
            from hooks.core.diff import parse_diff

            self._diffs = parse_diff(diff_output)
            self._touches = bool(diff_output)

    @property
    def paths(self) -> list[str]:
        """The paths the change touches; a rename lists its old and new path."""
        if self._paths is None:
            self._paths = git.changed_paths(self.base, self.target)
        return self._paths

    @property
    def is_range(self) -> bool:
        return self.target is not None

    @property
    def is_empty(self) -> bool:
        """Nothing staged and no refs: the --all-files case."""
        if self.is_range:
            return False
        if self._touches is not None:
            return not self._touches
        return not self.paths

    @property
    def old_rev(self) -> str:
        """What the change is compared with: HEAD (staged) or the range's merge base."""
        if self._old_rev is None:
            if self.base is None or self.target is None:
                self._old_rev = "HEAD"
            elif self.base == git.empty_tree():
                self._old_rev = self.base
            else:
                self._old_rev = git.merge_base(self.base, self.target) or self.base
        return self._old_rev

    @property
    def merging(self) -> bool:
        """A merge is being committed: the staged diff then holds the whole merged branch."""
        return not self.is_range and git.merge_in_progress()

    def diffs(self) -> list[FileDiff]:
        if self._diffs is None:
            from hooks.core.diff import diff

            self._diffs = diff(self.base, self.target)
        return self._diffs

    def old_content(self, path: str) -> bytes | None:
        """PATH before the change; None where it did not exist."""
        if self.is_range and self.old_rev == git.empty_tree():  # staged: no git call
            return None
        return git.blob(f"{self.old_rev}:{path}")

    def new_content(self, path: str) -> bytes | None:
        """PATH after the change: in the index (staged) or at the range's target."""
        return git.blob(self.blob_spec(path))

    def differs_from_published(self, path: str) -> bool:
        """PATH at the target is not what the remote already has (a rewrite, at pre-push)."""
        if self.published is None:
            return False
        return git.blob(f"{self.published[1]}:{path}") != self.new_content(path)

    def blob_spec(self, path: str) -> str:
        return f"{self.target}:{path}" if self.is_range else f":{path}"


def resolve_refs(from_ref: str | None, to_ref: str | None) -> tuple[str | None, str | None]:
    """The range to scan, as commit ids: options first, then pre-commit's variables."""
    base = from_ref or os.environ.get("PRE_COMMIT_FROM_REF") or None
    target = to_ref or os.environ.get("PRE_COMMIT_TO_REF") or None
    if (base is None) != (target is None):
        raise UserError("--from-ref and --to-ref go together")
    if base is not None and target is not None:
        return _commit(base), _commit(target)
    return None, None


def at_pre_push() -> bool:
    """pre-commit runs a pre-push hook with these set, with or without a range."""
    return any(os.environ.get(name) for name in PRE_PUSH_VARIABLES)


def unpushed_range() -> tuple[str, str] | None:
    """(base, target) of what a push without refs sends: the history no remote has.

    None when every commit is already on a remote (nothing new to scan). The base is the
    newest commit a remote has (the boundary), or the empty tree when none has any.
    """
    target = _commit(os.environ.get("PRE_COMMIT_LOCAL_BRANCH") or "HEAD")
    new, boundary = git.unpublished(target)
    if not new:
        return None
    return (boundary[0] if boundary else git.empty_tree()), target


def enter_root() -> None:
    """Make the repository root the current directory. pre-commit already runs hooks there,
    which a ``.git`` entry shows without starting git (a hook's budget is milliseconds)."""
    if os.path.exists(".git"):
        return
    root = git.repo_paths().root
    if os.path.realpath(os.getcwd()) != os.path.realpath(root):
        os.chdir(root)


def detect(from_ref: str | None, to_ref: str | None, *, lines: bool = False) -> Change:
    """The change to check. LINES: the caller reads the diff's lines (``Change.diffs``), so
    read them now, in the one git process that also tells whether anything changed."""
    enter_root()
    base, target = resolve_refs(from_ref, to_ref)
    pushing = at_pre_push()
    if target is None and pushing:
        found = unpushed_range()
        if found is None:  # every pushed commit is on a remote already: an empty range
            head = _commit(os.environ.get("PRE_COMMIT_LOCAL_BRANCH") or "HEAD")
            return Change(head, head, [])
        base, target = found
    if lines:
        from hooks.core.diff import diff_output

        result = Change(base, target, diff_output=diff_output(base, target))
    else:
        result = Change(base, target, git.changed_paths(base, target))
    if base is None or target is None:
        return result
    if pushing:
        result.published = remote_tracking()
    return result


def remote_tracking() -> tuple[str, str] | None:
    """(name, commit) of the pushed branch's remote-tracking ref, when pre-commit names the
    remote and branch and the ref exists: what the remote already has, as last fetched.

    A push by URL finds the remote whose configured URL it is.
    """
    branch = os.environ.get("PRE_COMMIT_REMOTE_BRANCH") or ""
    remote = os.environ.get("PRE_COMMIT_REMOTE_NAME") or ""
    if not branch.startswith("refs/heads/") or not remote:
        return None
    name = branch[len("refs/heads/"):]
    for candidate in (remote, *_remotes_with_url(os.environ.get("PRE_COMMIT_REMOTE_URL"))):
        commit = git.resolve_commit(f"refs/remotes/{candidate}/{name}")
        if commit:
            return f"{candidate}/{name}", commit
    return None


def _remotes_with_url(url: str | None) -> list[str]:
    if not url:
        return []
    try:
        lines = git.text("config", "--get-regexp", r"^remote\..*\.url$").splitlines()
    except git.GitError:  # no remote configured
        return []
    found = []
    for line in lines:
        key, _, value = line.partition(" ")
        if value == url:
            found.append(key[len("remote."):-len(".url")])
    return found


def _commit(rev: str) -> str:
    commit = git.resolve_commit(rev)
    if commit is None:
        raise UserError(f"{rev} names no commit here (fetch it first?)")
    return commit


# What a push sends. pre-commit runs a pre-push hook with the push's first ref in these
# variables (and no stdin); a plain git pre-push hook reads every ref line from stdin instead.
# Notes (``refs/notes/*``: receipts travel in ``refs/notes/receipts``, or to a server's
# ``refs/receipts/incoming/*``: docs/servers.md) are not code: their commits hold notes on other
# objects, never a tree a test run could have seen, so judging one would refuse every push that
# carries the receipts with the branch. A plain pre-push hook skips such ref lines; under
# pre-commit, a first ref that is notes gives way to HEAD, the code such a push sends when it
# sends any.

NOT_CODE = ("refs/notes/", "refs/receipts/incoming/")


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


def pre_commit_range() -> tuple[str, str] | None:
    """(from, to) as pre-commit gives a pre-push hook or ``run --from-ref/--to-ref``; None
    when it gives no range."""
    base = os.environ.get("PRE_COMMIT_FROM_REF")
    target = os.environ.get("PRE_COMMIT_TO_REF")
    return (base, target) if base and target else None


def pre_commit_push() -> tuple[str, str | None] | None:
    """The tip pre-commit says a push sends, and what the remote had of it (None: unknown,
    the remote-tracking refs tell), or None outside a pre-commit pre-push run. A branch whose
    whole history is new (its root commit not on the remote) runs as --all-files with no refs;
    its local ref still names the tip."""
    if os.environ.get("PRE_COMMIT_TO_REF"):
        return os.environ["PRE_COMMIT_TO_REF"], os.environ.get("PRE_COMMIT_FROM_REF") or None
    if os.environ.get("PRE_COMMIT_LOCAL_BRANCH"):
        return os.environ["PRE_COMMIT_LOCAL_BRANCH"], None
    return None


def push_remote() -> str | None:
    """The remote pre-commit says the push goes to."""
    return os.environ.get("PRE_COMMIT_REMOTE_NAME") or None
