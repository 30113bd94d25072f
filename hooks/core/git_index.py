"""git on a throwaway index: trees of a commit or of the work tree with some paths left out,
and what ``git add`` would store. Part of the git access (see ``git``); the user's own index is
never written."""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable
from collections.abc import Mapping

from hooks.core import git


def temp_index_path(near: str | None = None) -> str:
    """A path for a throwaway index: git will create it (it refuses an empty file). NEAR is
    an index file: the path is then in its directory when that is writable (one filesystem,
    so the copy's timestamps compare with the files' as the index's do), else in the system's
    temporary directory."""
    import tempfile

    try:
        fd, path = tempfile.mkstemp(prefix="receipt-index-",
                                    dir=os.path.dirname(near) if near else None)
    except OSError:
        if not near:
            raise
        fd, path = tempfile.mkstemp(prefix="receipt-index-")
    os.close(fd)
    os.unlink(path)
    return path


def env_with_index(index_file: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in git.REPO_LOCATION_VARS}
    env["GIT_INDEX_FILE"] = index_file
    return env


@functools.cache  # the fuse snapshots once a step; the index does not move
def real_index_path(root: str) -> str:
    if not any(os.environ.get(v) for v in git.REPO_LOCATION_VARS):
        # what `rev-parse --git-path index` answers with no GIT_* location set: the work
        # tree's own git dir (a linked worktree's too), known without a process at a root
        return os.path.join(git.repo_paths(root).git_dir, "index")
    env = {k: v for k, v in os.environ.items() if k not in git.REPO_LOCATION_VARS}
    path = git.text("rev-parse", "--git-path", "index", cwd=root, env=env)
    return path if os.path.isabs(path) else os.path.join(root, path)


def glob_pathspecs(globs: Iterable[str]) -> list[str]:
    """Config globs as git pathspecs from the root: ``*`` stays in a directory, ``**`` spans."""
    return [f":(top,glob){g}" for g in globs if g]


def remove_from_index(pathspecs: Iterable[str], globs: Iterable[str], cwd: str | None,
                      env: Mapping[str, str], config: Iterable[str] = ()) -> None:
    """Take the files PATHSPECS and GLOBS match out of the index ENV names (a throwaway one),
    in one process; CONFIG are ``-c`` options (``core.sparseCheckout=false``: git rm skips
    paths outside a sparse checkout, where update-index did not)."""
    specs = [*(p for p in pathspecs if p), *glob_pathspecs(globs)]
    if specs:
        git.run(*config, "rm", "--cached", "-r", "-f", "--quiet", "--ignore-unmatch", "--", *specs,
            cwd=cwd, env=env)


def where_to_look(paths: Iterable[str], globs: Iterable[str]) -> list[str] | None:
    """The literal paths and, for each glob, the folder its first wildcard sits in: where an
    entry that PATHS or GLOBS match can be. None when a glob starts with a wildcard (it could
    match anywhere)."""
    wanted = list(paths)
    for glob in globs:
        wild = next((at for at, c in enumerate(glob) if c in "*?[\\"), None)
        if wild is None:
            wanted.append(glob)
            continue
        folder = glob[:glob.rfind("/", 0, wild) + 1].rstrip("/")
        if not folder:
            return None
        wanted.append(folder)
    return wanted


def may_hold(commit: str, paths: Iterable[str], cwd: str | None = None,
             ignore: Iterable[str] = ()) -> bool:
    """Might COMMIT's tree hold a file PATHS or the IGNORE globs match? False only when it
    holds none, and ``tree_without`` then has nothing to take out. One ``ls-tree`` of the
    paths and of the directories the globs start with, which reads only the trees on the
    way (a diff against the empty tree reads them all); a glob that starts with a wildcard
    could match anywhere: True."""
    wanted = where_to_look((p for p in paths if p), (g for g in ignore if g))
    if wanted is None:
        return True
    if not wanted:
        return False
    return bool(git.run("ls-tree", "-r", "--full-tree", "--name-only", "-z", commit, "--",
                        *wanted, cwd=cwd))


def tree_without(commit: str, paths: Iterable[str], cwd: str | None = None,
                 ignore: Iterable[str] = ()) -> str:
    """Tree id of COMMIT with PATHS and the IGNORE globs removed: what a receipt vouches for."""
    temp_index = temp_index_path()
    try:
        env = env_with_index(temp_index)
        git.run("read-tree", commit, cwd=cwd, env=env)
        remove_from_index(paths, ignore, cwd=cwd, env=env)
        return git.text("write-tree", cwd=cwd, env=env)
    finally:
        if os.path.exists(temp_index):
            os.unlink(temp_index)


def commits_as(path: str, data: bytes, expected: bytes) -> bool:
    """Would ``git add`` store DATA, as the work-tree file PATH, as the blob EXPECTED? (eol
    conversion by core.autocrlf or .gitattributes, clean filters.)"""
    where = os.path.dirname(os.path.abspath(path))
    stored = git.run("hash-object", f"--path={os.path.abspath(path)}", "--stdin", cwd=where,
                 stdin=data)
    return stored == git.run("hash-object", "--no-filters", "--stdin", cwd=where, stdin=expected)
