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
            # copy2 keeps the index's mtime: git's racy-entry check compares file mtimes with
            # it, and a fresh mtime would make a same-size edit within the second look clean
            shutil.copy2(real_index, temp_index)
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


class FileDiff:
    """What a change does to one file: the lines it adds (new line numbers) and removes."""

    __slots__ = ("added", "deleted", "path", "removed", "submodule")

    def __init__(self, path: str) -> None:
        self.path = path
        self.added: list[tuple[int, bytes]] = []
        self.removed: list[tuple[int, bytes]] = []  # (new-side line the removal sits at, text)
        self.deleted = False
        self.submodule = False


def _unquote(raw: bytes) -> str:
    """A path as git prints it in a diff header, C-quoted when it has odd bytes."""
    if not raw.startswith(b'"'):
        return raw.decode("utf-8", "surrogateescape")
    body = raw[1:-1]
    out = bytearray()
    i = 0
    escapes = {ord("n"): 10, ord("t"): 9, ord('"'): 34, ord("\\"): 92, ord("a"): 7,
               ord("b"): 8, ord("f"): 12, ord("r"): 13, ord("v"): 11}
    while i < len(body):
        c = body[i]
        if c == 92 and i + 1 < len(body):
            nxt = body[i + 1]
            if 48 <= nxt <= 55:
                out.append(int(body[i + 1:i + 4], 8))
                i += 4
                continue
            out.append(escapes.get(nxt, nxt))
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out).decode("utf-8", "surrogateescape")


def _header_path(raw: bytes) -> str:
    """A ---/+++ header's path: git ends it with a tab when the name has a space."""
    return _strip_prefix(_unquote(raw[:-1] if raw.endswith(b"\t") else raw))


def _strip_prefix(path: str) -> str:
    return path[2:] if path[:2] in ("a/", "b/") else path


def diff(base: str | None, target: str | None) -> list[FileDiff]:
    """The staged change (no refs) or BASE...TARGET, as added and removed lines per file.

    Zero context, renames detected (a rename adds no lines), no external diff or textconv.
    """
    spec = ["--cached"] if base is None or target is None else [f"{base}...{target}"]
    out = git("-c", "core.quotepath=on", "diff", "-U0", "-M", "--no-color", "--no-ext-diff",
              "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/", *spec, "--")
    return parse_diff(out)


def parse_diff(out: bytes) -> list[FileDiff]:
    files: list[FileDiff] = []
    current: FileDiff | None = None
    new_line = 0
    in_hunk = False
    for line in out.split(b"\n"):
        if in_hunk and current is not None and line[:1] == b"+":  # the hot path: added lines
            current.added.append((new_line, line[1:]))
            new_line += 1
            continue
        if line.startswith(b"diff --git "):
            current, in_hunk = None, False
            continue
        if not in_hunk or line[:1] not in (b"+", b"-", b" ", b"\\"):
            in_hunk = False
            if line.startswith(b"+++ "):
                target = line[4:]
                if target == b"/dev/null":
                    if current is not None:
                        current.deleted = True
                    continue
                path = _header_path(target)
                if current is None:
                    current = FileDiff(path)
                    files.append(current)
                current.path = path  # the new name, when the file was renamed
                continue
            if line.startswith(b"--- "):
                source = line[4:]
                if source != b"/dev/null":
                    current = FileDiff(_header_path(source))
                    files.append(current)
                continue
            if line.startswith((b"new file mode 160000", b"index ")) and line.endswith(b" 160000"):
                if current is not None:
                    current.submodule = True
                continue
            if line.startswith(b"@@ ") and current is not None:
                header = line.split(b" ")
                new = header[2]  # +start[,count]
                new_line = int(new[1:].split(b",")[0])
                in_hunk = True
            continue
        if current is None:
            continue
        if line.startswith(b"+"):
            current.added.append((new_line, line[1:]))
            new_line += 1
        elif line.startswith(b"-"):
            current.removed.append((max(new_line, 1), line[1:]))
    return files


def blobs(specs: Iterable[str]) -> dict[str, bytes | None]:
    """Many blobs in one git process (``cat-file --batch``): spec -> content, None if absent."""
    wanted = list(dict.fromkeys(specs))
    # --batch reads one spec a line: a name with a newline is asked for on its own
    result: dict[str, bytes | None] = {s: blob(s) for s in wanted if "\n" in s}
    wanted = [s for s in wanted if "\n" not in s]
    if not wanted:
        return result
    stdin = b"".join(s.encode("utf-8", "surrogateescape") + b"\n" for s in wanted)
    out = git("cat-file", "--batch", stdin=stdin)
    pos = 0
    for spec in wanted:
        end = out.index(b"\n", pos)
        header = out[pos:end].split(b" ")
        pos = end + 1
        if len(header) == 3 and header[1] == b"blob":
            size = int(header[2])
            result[spec] = out[pos:pos + size]
            pos += size + 1
        elif len(header) == 3:  # a tree or commit: skip its body
            pos += int(header[2]) + 1
            result[spec] = None
        else:
            result[spec] = None  # "<spec> missing" (or ambiguous)
    return result


def merge_in_progress() -> bool:
    """MERGE_HEAD exists: the staged diff then holds the whole merged branch."""
    if os.path.isdir(".git"):
        return os.path.exists(os.path.join(".git", "MERGE_HEAD"))
    return resolve_commit("MERGE_HEAD") is not None


def tracked_files() -> list[str]:
    out = git("ls-files", "-z")
    return [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]
