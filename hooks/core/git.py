"""The one place that talks to git, with its two siblings: ``git_notes`` (notes refs, remotes)
and ``git_index`` (trees made on a throwaway index). No other module starts git.

Every call is the git command line: it is what the user's repo already trusts, it understands
worktrees, submodules and shallow clones, and it starts in a few milliseconds where importing a
git library costs more than the whole hook should.

Over 300 lines for a reason: reading objects (``tree_of``, ``blobs``, ``paths_in_commit``) shares
its memos and the one ``cat-file --batch`` session of a check (``batch_session``,
``commits_and_files``) with the runner here; split apart, each half would reach into the
other's state.

Modules only the snapshot paths need are imported there.
"""

from __future__ import annotations

import contextlib
import functools
import os
import subprocess
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping

from hooks.core.errors import UserError

# The empty tree's id differs with the repository's object format (`git hash-object -t tree
# /dev/null`); ``empty_tree()`` gives the current repository's.
EMPTY_TREES = {
    "sha1": "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
    "sha256": "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321",
}

# Variables a surrounding hook or a test harness may leave behind that would point our calls
# at another repository or index than the one the user is standing in.
REPO_LOCATION_VARS = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX")


class GitError(UserError):
    """git exited non-zero; the message is git's own first fatal or error line (else its last),
    ``stderr`` all it said."""

    stderr = ""


class NotAGitRepository(GitError):
    pass


def git_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment every git call of ours runs in: ENV (default ours) with replace refs
    off. ``git replace BAD GOOD`` would otherwise make every call see GOOD's tree where the
    push sends BAD's; the remote and every fresh clone see BAD. No GIT_DIFF_OPTS."""
    merged = dict(os.environ if env is None else env)
    merged["GIT_NO_REPLACE_OBJECTS"] = "1"
    # GIT_DIFF_OPTS=-u3 would override a diff's -U0: context lines in what must be the
    # added and removed lines only
    merged.pop("GIT_DIFF_OPTS", None)
    return merged


def run(
    *args: str,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    stdin: bytes | None = None,
) -> bytes:
    """Run git and return its stdout; raise GitError with git's message on failure."""
    proc = subprocess.run(
        ("git", *args),
        cwd=cwd,
        env=git_env(env),
        input=stdin,
        capture_output=True,
        check=False,
    )
    return checked(args, proc.returncode, proc.stdout, proc.stderr)


def started(*args: str, cwd: str | None = None,
            env: Mapping[str, str] | None = None) -> Callable[[], bytes]:
    """Start git in the background, its output into an unnamed file (no pipe to fill while
    the caller does other work); the function returned waits and returns what ``run``
    would."""
    import tempfile

    out = tempfile.TemporaryFile()  # noqa: SIM115  # closed by wait()
    try:
        proc = subprocess.Popen(("git", *args), cwd=cwd, env=git_env(env), stdout=out,
                                stderr=subprocess.PIPE)
    except BaseException:
        out.close()
        raise

    def wait() -> bytes:
        with out:
            _none, stderr = proc.communicate()
            out.seek(0)
            return checked(args, proc.returncode, out.read(), stderr)

    return wait


def checked(args: tuple[str, ...], code: int, stdout: bytes, stderr: bytes) -> bytes:
    """STDOUT of ``git ARGS`` that exited CODE; GitError with git's message when it failed."""
    if code != 0:
        message = stderr.decode("utf-8", "replace").strip().splitlines()
        # git's first fatal or error line says what went wrong; its last is often a hint
        # ("and the repository exists.")
        said = [line for line in message if line.startswith(("fatal:", "error:"))]
        text = said[0] if said else message[-1] if message else f"git {args[0]} exited {code}"
        if "not a git repository" in text:
            raise NotAGitRepository("not a git repository (nor any parent directory): run it "
                                    "inside the git work tree it is about")
        error = GitError(text)
        error.stderr = stderr.decode("utf-8", "surrogateescape")
        raise error
    return stdout


def text(*args: str, cwd: str | None = None, env: Mapping[str, str] | None = None) -> str:
    return run(*args, cwd=cwd, env=env).decode("utf-8", "surrogateescape").strip()


class RepoPaths:
    """The work tree root, this worktree's git dir and the git dir worktrees share."""

    __slots__ = ("common_dir", "git_dir", "root")

    def __init__(self, root: str, git_dir: str, common_dir: str) -> None:
        self.root = root
        self.git_dir = git_dir
        self.common_dir = common_dir


def repo_paths(cwd: str | None = None) -> RepoPaths:
    """The work tree root, this worktree's git dir and the shared git dir, in one git call.

    Remembered per directory: a hook asks for them in several places, the answer cannot move.
    """
    where = os.path.abspath(cwd or os.getcwd())
    return _repo_paths(where, tuple(os.environ.get(v) for v in REPO_LOCATION_VARS))


@functools.lru_cache(maxsize=8)
def _repo_paths(cwd: str, location_vars: tuple[str | None, ...]) -> RepoPaths:
    # At the root of a plain (non-worktree) checkout, where pre-commit runs every hook, a
    # .git directory answers without starting git: hooks have milliseconds to spend.
    dot_git = os.path.join(cwd, ".git")
    if not any(location_vars) and os.path.isfile(os.path.join(dot_git, "HEAD")) \
            and not os.path.exists(os.path.join(dot_git, "commondir")):
        root = os.path.realpath(cwd)
        git_dir = os.path.join(root, ".git")
        return RepoPaths(root=root, git_dir=git_dir, common_dir=git_dir)
    out = text(
        "rev-parse", "--show-toplevel", "--absolute-git-dir", "--git-common-dir", cwd=cwd
    ).splitlines()
    if len(out) < 3 or not out[0]:
        raise NotAGitRepository("not inside a git work tree")
    root, git_dir, common = out[0], out[1], out[2]
    if not os.path.isabs(common):
        common = os.path.normpath(os.path.join(cwd, common))
    return RepoPaths(root=root, git_dir=git_dir, common_dir=common)


def resolve_commit(rev: str, cwd: str | None = None) -> str | None:
    """Full commit id of REV, or None when it names no commit (unborn branch, typo)."""
    try:
        return text("rev-parse", "--verify", "--quiet", "--end-of-options",
                        f"{rev}^{{commit}}", cwd=cwd)
    except GitError:
        return None


# commit id -> tree id, filled by commit_trees(): a commit's tree never changes, and a range
# check would otherwise pay a process per commit to ask again
_TREES: dict[str, str] = {}


def known_commits() -> dict[str, str]:
    """Commit ids already listed in this process (by ``commit_trees``), with their trees."""
    return _TREES


def tree_of(commit: str, cwd: str | None = None) -> str:
    if commit in _TREES:
        return _TREES[commit]
    return text("rev-parse", "--verify", "--end-of-options", f"{commit}^{{tree}}", cwd=cwd)


# The length of an object id says its repository's format: no process to ask.
_FORMAT_BY_LENGTH = {40: "sha1", 64: "sha256"}


def empty_tree(cwd: str | None = None, like: str | None = None) -> str:
    """The empty tree's id in this repository's object format (SHA-1 or SHA-256).

    LIKE, a full object id of the same repository (a resolved commit), says the format
    without a git process."""
    form = _FORMAT_BY_LENGTH.get(len(like)) if like else None
    return EMPTY_TREES[form] if form else _empty_tree(cwd)


@functools.cache
def _empty_tree(cwd: str | None) -> str:
    try:
        form = text("rev-parse", "--show-object-format", cwd=cwd)
    except GitError:
        form = "sha1"
    if form in EMPTY_TREES:
        return EMPTY_TREES[form]
    return text("hash-object", "-t", "tree", "/dev/null", cwd=cwd)  # a format to come


def is_null_id(object_id: str) -> bool:
    """All zeros, of either length: git's "no object" (a deleted or not yet existing ref)."""
    return len(object_id) in (40, 64) and not object_id.strip("0")


def head_commit(cwd: str | None = None) -> str | None:
    return resolve_commit("HEAD", cwd=cwd)


def has_object(object_id: str, cwd: str | None = None) -> bool:
    proc = subprocess.run(("git", "cat-file", "-e", object_id), cwd=cwd, env=git_env(),
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return proc.returncode == 0


def tree_changes(old: str, new: str, cwd: str | None = None) -> list[tuple[str, str]]:
    """(status letter, path) for each file that differs between two trees, A/M/D/T."""
    out = run("diff-tree", "-r", "-z", "--no-renames", "--name-status", old, new, "--",
              cwd=cwd).split(b"\0")
    fields = [f.decode("utf-8", "surrogateescape") for f in out if f]
    return list(zip(fields[0::2], fields[1::2]))


def paths_in_commit(commit: str, paths: Iterable[str], cwd: str | None = None) -> list[str]:
    """Those of PATHS (from the root) that name files tracked in COMMIT, or directories
    holding some (``ls-tree -r``)."""
    paths = list(paths)
    if len(paths) == 1 and _SESSION is not None and _SESSION.cwd == cwd:
        tracked = _tracked_in_batch(_SESSION, commit, paths[0])
        if tracked is not None:
            return paths if tracked else []
    out = run("ls-tree", "-r", "-z", "--name-only", "--full-tree", commit, "--", *paths, cwd=cwd)
    return [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]


def ignored_paths(cwd: str, paths: Iterable[str], untracked: bool = False) -> list[str]:
    """Which of PATHS (relative to CWD) git ignores, in one ``git check-ignore``. UNTRACKED:
    the caller knows none is tracked (a tracked path is never reported), so the index, which
    says so, is not read (``--no-index``: a large index costs milliseconds to read)."""
    wanted = [p for p in paths if p]
    proc = subprocess.run(
        ("git", "check-ignore", "-z", "--stdin", *(["--no-index"] if untracked else [])),
        input=b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in wanted),
        cwd=cwd, env=git_env(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False,
    )  # exit 1 means "none ignored", not an error
    return [p.decode("utf-8", "surrogateescape") for p in proc.stdout.split(b"\0") if p]


def short(object_id: str | None) -> str:
    return object_id[:7] if object_id else "(none)"


def changed_paths(base: str | None, target: str | None, cwd: str | None = None) -> list[str]:
    """Paths a change touches, repo-relative: staged (no refs) or the range BASE...TARGET.

    Renames are listed as their old and new path; ``-z`` keeps odd names intact.
    """
    out = run("diff", "--name-only", "-z", "--no-renames", "--no-ext-diff",
              *diff_spec(base, target, cwd), "--", cwd=cwd)
    return [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]


def diff_spec(base: str | None, target: str | None, cwd: str | None = None) -> list[str]:
    """git diff's arguments for a change: the index, BASE...TARGET, or all of TARGET's tree."""
    if base is None or target is None:
        return ["--cached"]
    known = target if len(target) in (40, 64) and not target.strip("0123456789abcdef") else None
    if base == empty_tree(cwd, like=known):  # a whole new history: everything in it is added
        return [base, target]
    return [f"{base}...{target}"]


def unpublished(commit: str, cwd: str | None = None) -> tuple[bool, list[str]]:
    """Whether COMMIT's history has commits no remote-tracking ref has, and the boundary: the
    newest commits a remote has (none for a whole new history)."""
    args = _unpublished_args(commit)
    started = _UNPUBLISHED.pop((commit, cwd), None)
    if started is None:
        lines = text(*args, cwd=cwd).splitlines()
    else:
        out, err = started.communicate()
        lines = checked(args, started.returncode, out, err).decode(
            "utf-8", "surrogateescape").strip().splitlines()
    return (any(not line.startswith("-") for line in lines),
            [line[1:] for line in lines if line.startswith("-")])


def _unpublished_args(commit: str) -> tuple[str, ...]:
    return ("rev-list", "--boundary", commit, "--not", "--remotes")


# (commit, cwd) -> its ``unpublished`` query, started early by ``start_unpublished`` so that git
# walks while the check does its own work; ``batch_session`` ends any left unread
_UNPUBLISHED: dict[tuple[str, str | None], subprocess.Popen[bytes]] = {}


def start_unpublished(commits: Iterable[str], cwd: str | None = None) -> None:
    """Start ``unpublished``'s git process for each of COMMITS now; it answers when asked."""
    for commit in commits:
        if (commit, cwd) not in _UNPUBLISHED:
            _UNPUBLISHED[commit, cwd] = subprocess.Popen(
                ("git", *_unpublished_args(commit)), cwd=cwd, env=git_env(),
                stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _end_unpublished() -> None:
    while _UNPUBLISHED:
        _key, proc = _UNPUBLISHED.popitem()
        proc.kill()
        proc.communicate()


def merge_base(a: str, b: str) -> str | None:
    try:
        return text("merge-base", a, b) or None
    except GitError:
        return None


def blob(spec: str) -> bytes | None:
    """Content of a blob spec (``:path`` for the index, ``REV:path``); None if absent."""
    proc = subprocess.run(("git", "cat-file", "blob", spec), env=git_env(),
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False)
    return proc.stdout if proc.returncode == 0 else None


def blobs(specs: Iterable[str]) -> dict[str, bytes | None]:
    """Many blobs in one git process (``cat-file --batch``): spec -> content, None if absent.

    ``COMMIT:path`` specs that ``commits_and_files`` already read need no process."""
    wanted = list(dict.fromkeys(specs))
    # --batch reads one spec a line: a name with a newline is asked for on its own
    result: dict[str, bytes | None] = {s: blob(s) for s in wanted if "\n" in s}
    result.update((s, _COMMITTED[s]) for s in wanted if s in _COMMITTED)
    wanted = [s for s in wanted if s not in result]
    if not wanted:
        return result
    stdin = b"".join(s.encode("utf-8", "surrogateescape") + b"\n" for s in wanted)
    out = run("cat-file", "--batch", stdin=stdin)
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


def session_blobs(specs: Iterable[str], cwd: str | None = None) -> dict[str, bytes] | None:
    """SPEC -> blob content for those of SPECS that name a blob, asked in the running
    ``batch_session`` for CWD; None when none runs (or it gave no answer this reads)."""
    if _SESSION is None or _SESSION.cwd != cwd:
        return None
    found: dict[str, bytes] = {}
    try:
        for spec in specs:
            if "\n" in spec:
                return None
            _id, kind, body = _SESSION.ask(spec)
            if kind == "blob" and body is not None:
                found[spec] = body
    except (_BatchEnded, OSError):
        return None
    return found


def object_kinds(specs: Iterable[str], cwd: str | None = None) -> dict[str, str]:
    """SPEC -> its object's type (blob, tree, commit) for those of SPECS that name one, in one
    ``cat-file --batch-check``."""
    wanted = [s for s in dict.fromkeys(specs) if "\n" not in s]
    if not wanted:
        return {}
    if _SESSION is not None and _SESSION.cwd == cwd:  # a check's questions: its one process
        try:
            asked = {spec: _SESSION.ask(spec)[1] for spec in wanted}
            return {spec: kind for spec, kind in asked.items() if kind}
        except (_BatchEnded, OSError):
            pass
    out = run("cat-file", "--batch-check=%(objecttype)", cwd=cwd,
              stdin=b"".join(s.encode("utf-8", "surrogateescape") + b"\n" for s in wanted))
    answers = out.decode("utf-8", "surrogateescape").split("\n")
    return {spec: kind for spec, kind in zip(wanted, answers)
            if kind in ("blob", "tree", "commit", "tag")}


def merge_in_progress() -> bool:
    """MERGE_HEAD exists: the staged diff then holds the whole merged branch."""
    if os.path.isdir(".git"):
        return os.path.exists(os.path.join(".git", "MERGE_HEAD"))
    return resolve_commit("MERGE_HEAD") is not None


def tracked_files(cwd: str | None = None, paths: Iterable[str] = ()) -> list[str]:
    """Tracked files, relative to CWD; with PATHS (repo-relative), those of them tracked."""
    specs = [f":(top,literal){p}" for p in paths]
    out = run("ls-files", "-z", *(["--full-name", "--", *specs] if specs else []), cwd=cwd)
    return [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]


# Git notes: receipts travel as notes on tree objects (hooks/receipt/store/notes.py says why).


def objects(ids: Iterable[str], cwd: str | None = None) -> dict[str, bytes]:
    """The content of many objects by id in one ``cat-file --batch`` pass; absent ones left out."""
    wanted = list(dict.fromkeys(i for i in ids if i and "\n" not in i))
    if not wanted:
        return {}
    out = run("cat-file", "--batch", stdin="".join(f"{i}\n" for i in wanted).encode(), cwd=cwd)
    found: dict[str, bytes] = {}
    pos = 0
    for object_id in wanted:
        end = out.index(b"\n", pos)
        header = out[pos:end].split(b" ")
        pos = end + 1
        if len(header) == 3:
            size = int(header[2])
            found[object_id] = out[pos:pos + size]
            pos += size + 1
    return found


def commit_trees(revs: Iterable[str], walk: bool = True,
                 cwd: str | None = None) -> list[tuple[str, str]]:
    """(commit, tree) for the commits REVS name (a range when WALK), newest first, one pass."""
    args = ["rev-list", "--no-commit-header", "--format=%H %T", *([] if walk else ["--no-walk"])]
    out = text(*args, "--end-of-options", *revs, "--", cwd=cwd)
    pairs: list[tuple[str, str]] = []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 2:
            pairs.append((fields[0], fields[1]))
            _TREES[fields[0]] = fields[1]
    return pairs


# "<full commit id>:<path>" -> that file's content (None: no blob there), filled by
# commits_and_files(): what a commit id names never changes, so ``blobs`` answers these
_COMMITTED: dict[str, bytes | None] = {}


class _BatchEnded(Exception):
    """cat-file --batch gave no answer this reads: the caller asks again the usual way."""


class _Batch:
    """One ``git cat-file --batch`` for the questions of one check (``batch_session``).

    One line out, one answer in: git answers each line before it reads the next (no
    --buffer), so neither pipe can fill up while the other waits."""

    def __init__(self, cwd: str | None) -> None:
        self.cwd = cwd
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self) -> subprocess.Popen[bytes]:
        if self._proc is None:
            self._proc = subprocess.Popen(("git", "cat-file", "--batch"), cwd=self.cwd,
                                          env=git_env(), stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        return self._proc

    def ask(self, line: str) -> tuple[str, str, bytes | None]:
        """(id, type, content) of the object LINE names; ("", "", None) when there is none."""
        proc = self.start()
        stdin, stdout = proc.stdin, proc.stdout
        assert stdin is not None and stdout is not None  # noqa: S101  # PIPE above
        asked = line.encode("utf-8", "surrogateescape")
        stdin.write(asked + b"\n")
        stdin.flush()
        header = stdout.readline()
        if header == asked + b" missing\n":
            return "", "", None
        fields = header.split()
        if len(fields) != 3 or not _is_full_id(fields[0].decode("ascii", "replace")) \
                or not fields[2].isdigit():
            raise _BatchEnded  # not an answer this reads (or none)
        size = int(fields[2])
        body = stdout.read(size + 1)
        if len(body) != size + 1:
            raise _BatchEnded
        return fields[0].decode("ascii"), fields[1].decode("ascii", "replace"), body[:size]

    def close(self) -> None:
        if self._proc is not None:
            for pipe in (self._proc.stdin, self._proc.stdout):
                if pipe is not None:
                    pipe.close()
            self._proc.wait()
            self._proc = None


_SESSION: _Batch | None = None


@contextlib.contextmanager
def batch_session(cwd: str | None, start: bool = False) -> Iterator[None]:
    """Within it, ``commits_and_files`` and ``paths_in_commit`` (one path, from CWD) share one
    ``cat-file --batch`` process, closed at the end: a check's questions in one process. Queries
    ``start_unpublished`` started and nobody asked for end with it too. START: start git now,
    to have it ready when the first question comes (the caller has modules to load first).
    A session inside one for the same CWD is that one."""
    global _SESSION  # noqa: PLW0603  # one session at a time, for the calls inside it
    if _SESSION is not None and _SESSION.cwd == cwd:
        yield
        return
    outer, _SESSION = _SESSION, _Batch(cwd)
    try:
        if start:
            _SESSION.start()
        yield
    finally:
        _SESSION.close()
        _SESSION = outer
        _end_unpublished()


def _tracked_in_batch(batch: _Batch, commit: str, path: str) -> bool | None:
    """Whether ``ls-tree -r COMMIT -- PATH`` lists anything, read from PATH's directory in the
    batch; None when only ls-tree can say (PATH a directory, or a name it reads differently:
    magic, ``.``/``..``, an empty part)."""
    parts = path.split("/")
    if path.startswith(":") or "\n" in path or any(p in ("", ".", "..") for p in parts):
        return None
    parent = "/".join(parts[:-1])
    try:
        _id, kind, body = batch.ask(f"{commit}:{parent}" if parent else f"{commit}^{{tree}}")
    except (_BatchEnded, OSError):
        return None
    if kind != "tree" or body is None:
        return False  # no such directory (or a file, a submodule): ls-tree lists nothing
    name = parts[-1].encode("utf-8", "surrogateescape")
    pos = 0
    while pos < len(body):  # entries: "<mode> <name>\0<binary id>"
        space = body.index(b" ", pos)
        nul = body.index(b"\0", space)
        if body[space + 1:nul] == name:
            return None if body[pos:space] == b"40000" else True  # a directory: ls-tree's -r
        pos = nul + 1 + len(commit) // 2
    return False


def _is_full_id(rev: str) -> bool:
    return len(rev) in _FORMAT_BY_LENGTH and not rev.strip("0123456789abcdef")


def commits_and_files(revs: Iterable[str], names: Iterable[str],
                      cwd: str | None = None) -> dict[str, str | None]:
    """REVS resolved to commit ids (None: names no commit), with each commit's tree (for
    ``tree_of``) and the files NAMES in it (for ``blobs``), in one ``cat-file --batch``: the
    questions a check of one commit asks first, which would otherwise take three processes.

    HEAD and full ids are resolved in the batch (``REV^{commit}`` reads there exactly as
    ``rev-parse --verify`` reads it); any other name by ``resolve_commit``, as before."""
    resolved: dict[str, str | None] = {}
    asked: dict[str, str] = {}  # rev -> the line that asks for its commit
    for rev in dict.fromkeys(revs):
        if rev in _TREES:
            resolved[rev] = rev
        elif rev == "HEAD" or _is_full_id(rev):
            asked[rev] = f"{rev}^{{commit}}"
        else:
            commit = resolve_commit(rev, cwd=cwd)
            resolved[rev] = commit
            if commit is not None and commit not in _TREES:
                asked[rev] = commit
    shared = _SESSION is not None and _SESSION.cwd == cwd
    batch = _SESSION if _SESSION is not None and shared else _Batch(cwd)
    try:
        found: dict[str, str | None] = {}
        for rev, line in asked.items():
            object_id, kind, body = batch.ask(line)
            tree = body.split(b"\n", 1)[0] if body is not None else b""
            if kind != "commit" or not tree.startswith(b"tree "):
                if line != resolved.get(rev):  # else rev-parse's answer stands
                    found[rev] = None
                continue
            _TREES[object_id] = tree[5:].decode("ascii")
            found[rev] = object_id
        for commit in dict.fromkeys(c for c in [*found.values(), *resolved.values()] if c):
            for name in names:
                spec = f"{commit}:{name}"
                if name and "\n" not in name and spec not in _COMMITTED:
                    _id, kind, body = batch.ask(spec)
                    _COMMITTED[spec] = body if kind == "blob" else None
        resolved.update(found)
    except (_BatchEnded, OSError):  # e.g. git gone or the repository unreadable: ask as before
        for rev in asked:
            resolved[rev] = resolve_commit(rev, cwd=cwd)
    finally:
        if not shared:
            batch.close()
    return resolved
