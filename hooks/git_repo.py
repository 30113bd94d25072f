"""The one place that talks to git.

Every call goes through ``git()`` below, as the git command line: it is what the user's repo
already trusts, it understands worktrees, submodules and shallow clones, and it starts in a few
milliseconds where importing a git library costs more than the whole hook should.
"""

from __future__ import annotations

import functools
import os
import subprocess
from collections.abc import Iterable
from collections.abc import Mapping

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

# Variables a surrounding hook or a test harness may leave behind that would point our calls
# at another repository or index than the one the user is standing in.
_REPO_LOCATION_VARS = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX")


class GitError(Exception):
    """git exited non-zero; the message is git's own last line."""


class NotAGitRepository(GitError):
    pass


def git(
    *args: str,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    stdin: bytes | None = None,
) -> bytes:
    """Run git and return its stdout; raise GitError with git's message on failure."""
    proc = subprocess.run(
        ("git", *args),
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        check=False,
    )
    if proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        text = message[-1] if message else f"git {args[0]} exited {proc.returncode}"
        if "not a git repository" in text:
            raise NotAGitRepository(text)
        raise GitError(text)
    return proc.stdout


def git_text(*args: str, cwd: str | None = None, env: Mapping[str, str] | None = None) -> str:
    return git(*args, cwd=cwd, env=env).decode("utf-8", "surrogateescape").strip()


class RepoPaths:
    """The work tree root, this worktree's git dir and the git dir worktrees share."""

    __slots__ = ("common_dir", "git_dir", "root")

    def __init__(self, root: str, git_dir: str, common_dir: str) -> None:
        self.root = root
        self.git_dir = git_dir
        self.common_dir = common_dir


def repo_paths(cwd: str | None = None) -> RepoPaths:
    """The work tree root, this worktree's git dir and the shared git dir, in one git call."""
    out = git_text(
        "rev-parse", "--show-toplevel", "--absolute-git-dir", "--git-common-dir", cwd=cwd
    ).splitlines()
    if len(out) < 3 or not out[0]:
        raise NotAGitRepository("not inside a git work tree")
    root, git_dir, common = out[0], out[1], out[2]
    if not os.path.isabs(common):
        common = os.path.normpath(os.path.join(cwd or os.getcwd(), common))
    return RepoPaths(root=root, git_dir=git_dir, common_dir=common)


def resolve_commit(rev: str, cwd: str | None = None) -> str | None:
    """Full commit id of REV, or None when it names no commit (unborn branch, typo)."""
    try:
        return git_text("rev-parse", "--verify", "--quiet", "--end-of-options",
                        f"{rev}^{{commit}}", cwd=cwd)
    except GitError:
        return None


def tree_of(commit: str, cwd: str | None = None) -> str:
    return git_text("rev-parse", "--verify", "--end-of-options", f"{commit}^{{tree}}", cwd=cwd)


def head_commit(cwd: str | None = None) -> str | None:
    return resolve_commit("HEAD", cwd=cwd)


def current_branch(cwd: str | None = None) -> str | None:
    try:
        return git_text("symbolic-ref", "--quiet", "--short", "HEAD", cwd=cwd) or None
    except GitError:
        return None


def _temp_index_path() -> str:
    """A path for a throwaway index: git will create it (it refuses an empty file)."""
    import tempfile  # only the snapshot paths need it

    fd, path = tempfile.mkstemp(prefix="receipt-index-")
    os.close(fd)
    os.unlink(path)
    return path


def _env_with_index(index_file: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _REPO_LOCATION_VARS}
    env["GIT_INDEX_FILE"] = index_file
    return env


@functools.cache  # the fuse snapshots once a step; the index does not move
def _real_index_path(root: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in _REPO_LOCATION_VARS}
    path = git_text("rev-parse", "--git-path", "index", cwd=root, env=env)
    return path if os.path.isabs(path) else os.path.join(root, path)


def snapshot_tree(root: str, leave_out: Iterable[str] = ()) -> str:
    """Tree id of the work tree as it is now: tracked files plus untracked, unignored ones.

    Works on a throwaway copy of the real index, so the user's staging area is untouched and
    files whose stat data is unchanged are not hashed again. ``leave_out`` are repo-relative
    paths (the receipt and its log) kept out of the tree whether tracked or not.
    """
    import shutil

    temp_index = _temp_index_path()
    try:
        real_index = _real_index_path(root)
        if os.path.exists(real_index):
            shutil.copyfile(real_index, temp_index)
        env = _env_with_index(temp_index)
        paths = [p for p in leave_out if p]
        git("add", "--all", "--ignore-errors", "--", ":/", cwd=root, env=env)
        if paths:  # tracked or not, the receipt, log and ledger are never part of the tree
            git("update-index", "--force-remove", "--", *paths, cwd=root, env=env)
        return git_text("write-tree", cwd=root, env=env)
    finally:
        if os.path.exists(temp_index):
            os.unlink(temp_index)


def tree_without(commit: str, paths: Iterable[str], cwd: str | None = None) -> str:
    """Tree id of COMMIT with PATHS removed: compares fairly when a receipt was committed."""
    temp_index = _temp_index_path()
    try:
        env = _env_with_index(temp_index)
        git("read-tree", commit, cwd=cwd, env=env)
        git("rm", "--cached", "--quiet", "--ignore-unmatch", "-r", "--", *paths, cwd=cwd, env=env)
        return git_text("write-tree", cwd=cwd, env=env)
    finally:
        if os.path.exists(temp_index):
            os.unlink(temp_index)


def paths_in_commit(commit: str, paths: Iterable[str], cwd: str | None = None) -> list[str]:
    out = git("ls-tree", "-r", "-z", "--name-only", "--full-tree", commit, "--", *paths, cwd=cwd)
    return [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]


def is_ignored(path: str, cwd: str | None = None) -> bool:
    proc = subprocess.run(
        ("git", "check-ignore", "--quiet", "--", path),
        cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
    )
    return proc.returncode == 0


def short(object_id: str | None) -> str:
    return object_id[:7] if object_id else "(none)"


def changed_paths(base: str | None, target: str | None) -> list[str]:
    """Paths a change touches, repo-relative: staged (no refs) or the range BASE...TARGET.

    Renames are listed as their old and new path; ``-z`` keeps odd names intact.
    """
    spec = ["--cached"] if base is None or target is None else [f"{base}...{target}"]
    out = git("diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", *spec, "--")
    return [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]


def merge_base(a: str, b: str) -> str | None:
    try:
        return git_text("merge-base", a, b) or None
    except GitError:
        return None


def blob(spec: str) -> bytes | None:
    """Content of a blob spec (``:path`` for the index, ``REV:path``); None if absent."""
    proc = subprocess.run(("git", "cat-file", "blob", spec), stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, check=False)
    return proc.stdout if proc.returncode == 0 else None


def toplevel_if_not_here() -> str | None:
    """None when the current directory is the work tree root (as under pre-commit), else it."""
    if os.path.exists(".git"):
        return None
    return repo_paths().root
