"""The work tree as a git tree: what a command saw on disk, including what the index hides.

``git add --all`` on a throwaway copy of the index gives the work tree's tree fast (files whose
stat data is unchanged are not hashed again). But the index can hide what is on disk: entries
marked ``assume-unchanged`` or ``skip-worktree`` are never looked at, a sparse checkout's
excluded files are not on disk at all, and ``core.fileMode=false`` ignores the exec bit.

The design: the snapshot describes what was on disk, never what the index claims. Flagged
entries are re-registered in the copy without their flags, so git hashes their disk content (a
file a sparse checkout left out becomes a deletion), and on POSIX the exec bit is read from disk
whatever ``core.fileMode`` says. Such a tree matches only a commit that holds what was tested,
so the check stays one tree comparison and no receipt vouches for content nobody ran. What a
tree cannot hold (uncommitted changes inside a submodule, whose gitlink is only a commit id; a
nested repository with no commit) is returned as ``Hidden`` entries: the receipt records them
and the check refuses it, naming each. The paths the index hid are named too, so a person whose
``git status`` is clean learns why the receipt's tree is not their commit's.

Cost on the common path: one ``git ls-files -v -s`` (reads the index, not the disk). The rest
runs only when there are flagged entries, gitlinks, or a tree that differs from the expected one.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from collections.abc import Callable
from collections.abc import Iterable

from hooks.core import git
from hooks.core import git_index
from hooks.core.text import printable_path

REGULAR_MODES = ("100644", "100755")
# Why a path is listed. The first three are in the tree as they were on disk (the message
# explains a tree mismatch); the last two are not in the tree at all (the receipt cannot vouch).
IN_TREE = ("assume-unchanged", "skip-worktree", "exec-bit")
NOT_IN_TREE = ("submodule", "nested-repository")
EXPLAINED = {
    "assume-unchanged": "marked assume-unchanged, and different on disk",
    "skip-worktree": "marked skip-worktree (a sparse checkout does), and different or absent "
                     "on disk",
    "exec-bit": "exec bit differs on disk, which core.fileMode=false hides",
    "submodule": "a submodule or nested repository with uncommitted changes in its work tree",
    "nested-repository": "a nested git repository with no commit, which no tree can hold",
}
# How to clear each flag, for the messages.
UNFLAG = {
    "assume-unchanged": "git update-index --no-assume-unchanged PATH",
    "skip-worktree": "git update-index --no-skip-worktree PATH, or git sparse-checkout disable",
    "exec-bit": "git config core.fileMode true",
}
# Untracked, un-ignored directories that are plainly a tool's environment or cache, not the
# project's files: left out of the tree (a test run that fills one did not change what it
# tested, and a receipt must not be stale for the 2000 files of a .venv). Why, by what shows it.
ENVIRONMENT_MARKS = (
    ("pyvenv.cfg", "a Python virtual environment (it holds pyvenv.cfg)"),
    ("CACHEDIR.TAG", "a cache directory (it holds CACHEDIR.TAG)"),
)
ENVIRONMENT_NAMES = {
    "node_modules": "installed npm packages (node_modules)",
    "__pycache__": "Python's bytecode cache (__pycache__)",
}
_NO_COMMIT = re.compile(r"^error: '(.+?)/?' does not have a commit checked out$", re.MULTILINE)


class Hidden:
    """A path whose content on disk the index (or git's tree format) does not show."""

    __slots__ = ("path", "why")

    def __init__(self, path: str, why: str) -> None:
        self.path = path
        self.why = why

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hidden) and (self.path, self.why) == (other.path, other.why)

    def __hash__(self) -> int:
        return hash((self.path, self.why))

    def as_dict(self) -> dict[str, str]:
        return {"path": self.path, "why": self.why}


class Snapshot:
    """The tree, the paths it cannot show, the environments it left out ((directory, why)),
    and the index listing it started from (with the index file's identity: a later snapshot
    of the same unchanged index reuses the listing).

    Taken with ``keep``, it also holds its throwaway index (``temp_index``) and what ``git add``
    changed in it (``added``, ``removed``), for the next snapshot to start from; ``discard``
    deletes that file."""

    __slots__ = ("added", "config", "environments", "hidden", "index", "listing", "removed",
                 "temp_index", "tree")

    def __init__(self, tree: str, hidden: list[Hidden], listing: bytes = b"",
                 index: tuple[int, ...] | None = None,
                 environments: list[tuple[str, str]] | None = None) -> None:
        self.tree = tree
        self.hidden = hidden
        self.listing = listing
        self.index = index
        self.environments = environments or []
        self.temp_index: str | None = None
        self.config: list[str] = []
        self.added: list[str] | None = []
        self.removed: list[str] = []

    def discard(self) -> None:
        """Delete the kept throwaway index, if any (a later snapshot may have taken it)."""
        path, self.temp_index = self.temp_index, None
        if path and os.path.exists(path):
            os.unlink(path)


def _identity(path: str) -> tuple[int, ...] | None:
    """Changes whenever the file can have: git writes an index by renaming a new file over it."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


# Records of `git ls-files -s -z` ("<mode> <id> <stage>\t<path>"); with -v each starts with a
# tag letter: lower case for assume-unchanged, S for skip-worktree.
_RECORD = re.compile(rb"(?:([A-Za-z]) )?([0-7]{6}) ([0-9a-f]+) 0\t(.*)", re.DOTALL)
# what precedes the tab of a `git ls-files -v -s` record, at any stage
_HEADER = re.compile(rb"[A-Za-z] [0-7]{6} [0-9a-f]+ [0-3]")
_FLAG_TAGS = (b"S", b"h", b"s")  # merged entries only: M and m are conflicts


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def _parsed(records: Iterable[bytes]) -> dict[str, tuple[str, str, str]]:
    """path -> (tag, mode, object id) of the merged entries among RECORDS."""
    entries = {}
    for record in records:
        m = _RECORD.fullmatch(record)
        if m:
            entries[_decode(m[4])] = ((m[1] or b"H").decode(), m[2].decode(), m[3].decode())
    return entries


def _gitlinks(raw: bytes, tagged: bool) -> list[str]:
    if b"160000 " not in raw:  # the common case: no submodule, one scan in C
        return []
    at = 2 if tagged else 0
    return [_decode(r.partition(b"\t")[2]) for r in raw.split(b"\0")
            if r[at:at + 7] == b"160000 "]


def _literal(path: str, *magic: str) -> str:
    return f":({','.join(('top', 'literal', *magic))}){path}"


# `git add --verbose` prints "add 'PATH'" or "remove 'PATH'" a line, the path unquoted
_VERBOSE = re.compile(rb"(add|remove) '(.*?)'\n", re.DOTALL)


def _add_args(config: list[str], left_out: list[str]) -> list[str]:
    return [*config, "add", "--all", "--ignore-errors", "--verbose", "--", ":/",
            *(_literal(p, "exclude") for p in left_out)]


def _add_all(root: str, env: dict[str, str], config: list[str],
             first: Callable[[], bytes] | None = None,
             ) -> tuple[list[Hidden], list[str] | None, list[str]]:
    """``git add --all`` into the copy (FIRST: one already started, waited for); a nested
    repository with no commit is left out (git cannot record one) and returned when it holds
    files. Also what the add changed: the paths it added or updated (None when its output
    cannot be read back whole) and the paths it removed."""
    left_out: list[str] = []
    while True:
        try:
            if first is not None:
                started, first = first, None
                out = started()
            else:
                out = git.run(*_add_args(config, left_out), cwd=root, env=env)
            break
        except git.GitError as e:
            found = [p for p in _NO_COMMIT.findall(e.stderr) if p not in left_out]
            if not found:
                raise
            left_out += found
    lines = _VERBOSE.findall(out)
    added = [_decode(path) for kind, path in lines if kind == b"add"]
    removed = [_decode(path) for kind, path in lines if kind == b"remove"]
    whole = not left_out and sum(len(k) + len(p) + 4 for k, p in lines) == len(out)
    hidden = [Hidden(p, "nested-repository") for p in left_out
              if _holds_files(os.path.join(root, p))]
    return hidden, added if whole else None, removed


def _holds_files(directory: str) -> bool:
    try:
        return any(name != ".git" for name in os.listdir(directory))
    except OSError:
        return True


def _dirty_gitlinks(root: str, env: dict[str, str], links: list[str]) -> list[Hidden]:
    """Submodules (and nested repositories recorded as gitlinks) with changes in their own
    work tree: the tree records only their commit."""
    out = git.run("status", "--porcelain=v2", "-z", "--ignore-submodules=none", "--",
                  *(_literal(p) for p in links), cwd=root, env=env)
    hidden = []
    records = iter(out.split(b"\0"))
    for record in records:
        kind = record[:2]
        if kind not in (b"1 ", b"2 "):
            continue
        fields = record.decode("utf-8", "surrogateescape").split(" ", 9 if kind == b"2 " else 8)
        if kind == b"2 ":
            next(records, None)  # a rename's original path follows
        sub = fields[2]
        if sub.startswith("S") and (sub[2] == "M" or sub[3] == "U"):
            hidden.append(Hidden(fields[-1], "submodule"))
    return hidden


def _file_mode_trusted(root: str) -> bool:
    try:
        return git.text("config", "--type=bool", "--get", "core.fileMode", cwd=root) != "false"
    except git.GitError:  # unset: git's default is true
        return True


def _named(root: str, flagged: dict[str, tuple[str, str, str]], before: list[bytes],
           after: list[bytes]) -> list[Hidden]:
    """The paths whose disk state (now in AFTER) the real index (BEFORE) hid from git status."""
    old, new = _parsed(before), _parsed(after)
    hidden = [Hidden(path, "skip-worktree" if tag in "Ss" else "assume-unchanged")
              for path, (tag, mode, oid) in flagged.items() if new.get(path, ())[1:] != (mode, oid)]
    mode_only = [path for path, (_tag, mode, oid) in old.items()
                 if path not in flagged and path in new and new[path][2] == oid
                 and new[path][1] != mode and {new[path][1], mode} <= set(REGULAR_MODES)]
    if mode_only and not _file_mode_trusted(root):
        hidden += [Hidden(p, "exec-bit") for p in mode_only]
    return hidden


def environments(root: str) -> list[tuple[str, str]]:
    """(directory, why) of the untracked, un-ignored directories that are an environment or a
    cache: one ``ls-files`` of the real index that stops at each untracked directory, then a
    stat or two each; a new directory's own subdirectories are looked at too (``web/`` with
    its ``node_modules/``), asking git whether they are ignored only when one is found."""
    out = git.run("ls-files", "-z", "--others", "--exclude-standard", "--directory",
                  "--no-empty-directory", cwd=root)
    found: list[tuple[str, str]] = []
    inside: list[tuple[str, str]] = []
    for raw in out.split(b"\0"):
        if not raw.endswith(b"/"):
            continue
        directory = _decode(raw)
        why = _environment(root, directory)
        if why:
            found.append((directory, why))
            continue
        try:
            children = [e.name for e in os.scandir(os.path.join(root, directory)) if e.is_dir()]
        except OSError:
            continue
        for name in sorted(children):
            child = f"{directory}{name}/"
            why = _environment(root, child)
            if why:
                inside.append((child, why))
    if inside:
        ignored = set(git.ignored_paths(root, [d for d, _why in inside], untracked=True))
        found += [(d, why) for d, why in inside if d not in ignored]
    return found


def _environment(root: str, directory: str) -> str | None:
    """Why DIRECTORY is an environment or a cache, None when it is not plainly one."""
    name = os.path.basename(directory.rstrip("/"))
    return ENVIRONMENT_NAMES.get(name) or next(
        (said for mark, said in ENVIRONMENT_MARKS
         if os.path.isfile(os.path.join(root, directory, mark))), None)


# a record with a flag tag, after the NUL that ends the record before it: one scan in C
_FLAG_AFTER_NUL = re.compile(rb"\0[" + b"".join(_FLAG_TAGS) + rb"] ")


def _flagged(listing: bytes) -> dict[str, tuple[str, str, str]]:
    """The flagged entries of a ``git ls-files -v -s -z`` LISTING. A record starts the listing
    or follows a NUL (no path holds one), so one scan tells whether any record has a flag
    tag: the loop over the records runs only then."""
    first_flagged = listing[1:2] == b" " and listing[:1] in _FLAG_TAGS
    if not first_flagged and not _FLAG_AFTER_NUL.search(listing):
        return {}
    return _parsed(r for r in listing.split(b"\0") if r[:1] in _FLAG_TAGS)


def _may_hold(listing: bytes, added: list[str] | None, paths: list[str],
              globs: list[str]) -> bool:
    """Can the index hold a path that PATHS (literal) or GLOBS match, when LISTING is what
    it held before the add (``ls-files -s -z`` records) and ADDED what the add put in it?
    False only when none is there or below: no entry sits at or under a literal path, nor
    under the folder a wildcard glob starts with (one without a folder could match anything:
    True). One regular-expression scan of the listing; a loop over ADDED, what changed."""
    if added is None:
        return True
    needles = git_index.where_to_look(paths, globs)
    if needles is None:
        return True
    if not needles:
        return False
    if any(p == n or p.startswith(n + "/") for p in added for n in needles):
        return True
    found = re.compile(rb"\t(?:" + b"|".join(re.escape(n.encode("utf-8", "surrogateescape"))
                                             for n in needles) + rb")[\0/]")
    return bool(listing) and found.search(listing) is not None


def _unflaggable(index_file: str) -> bool:
    """Can no entry of INDEX_FILE be skip-worktree? Version 2 has no extended flags: git
    writes version 3 as soon as one entry needs them (a sparse checkout's do)."""
    try:
        with open(index_file, "rb") as f:
            header = f.read(8)
    except OSError:
        return False
    return header == b"DIRC\0\0\0\2"


class Started:
    """A first snapshot under way (``start``): the copy of the real index made, its listing
    and ``git add --all`` running; ``take(..., started=)`` finishes it, ``discard`` drops it."""

    __slots__ = ("_listed", "_listing", "add", "config", "index", "temp_index")

    def __init__(self, temp_index: str, index: tuple[int, ...], config: list[str],
                 listing: Callable[[], bytes], add: Callable[[], bytes]) -> None:
        self.temp_index: str | None = temp_index
        self.index = index
        self.config = config
        self._listing = listing
        self._listed: bytes | None = None
        self.add = add

    def listing(self) -> bytes:
        """The real index's ``ls-files -s -v -z``, waited for once."""
        if self._listed is None:
            self._listed = self._listing()
        return self._listed

    def tracked(self, paths: Iterable[str]) -> set[str]:
        """Those of PATHS (from the root) the listing has an entry for: what ``ls-files``
        of the paths says of them as files, without reading the index again."""
        listing = self.listing()
        found = set()
        for path in paths:
            record_end = b"\t" + path.encode("utf-8", "surrogateescape") + b"\0"
            at = listing.find(record_end)
            while at >= 0:
                start = listing.rfind(b"\0", 0, at) + 1
                if _HEADER.fullmatch(listing, start, at):  # the tab ends the header
                    found.add(path)
                    break
                at = listing.find(record_end, at + 1)
        return found

    def discard(self) -> None:
        """Wait for the processes (never leave git running) and delete the copy."""
        path, self.temp_index = self.temp_index, None
        if path is None:
            return
        try:
            for wait in (self.listing, self.add):
                with contextlib.suppress(git.GitError):
                    wait()
        finally:
            if os.path.exists(path):
                os.unlink(path)


def start(root: str) -> Started | None:
    """Begin the snapshot ``take`` would make, so that git reads the work tree while the
    caller does other work; None when it cannot begin early (no index yet, or one whose
    entries may carry a skip-worktree flag: those are cleared before the add). Only what
    the real index and the work tree hold is read: the paths to leave out and the tree to
    expect are ``take``'s. Call it after refusing clone-local filters (git add runs them)."""
    real_index = git_index.real_index_path(root)
    index = _identity(real_index)
    if index is None:
        return None
    temp_index = git_index.temp_index_path(real_index)
    try:
        shutil.copy2(real_index, temp_index)  # its mtime kept: see take
        if not _unflaggable(temp_index):
            os.unlink(temp_index)
            return None
        config = ["-c", "core.fileMode=true"] if os.name == "posix" else []
        listing = git.started("ls-files", "-s", "-v", "-z", cwd=root,
                              env=git_index.env_with_index(real_index))
        try:
            add = git.started(*_add_args(config, []), cwd=root,
                              env=git_index.env_with_index(temp_index))
        except BaseException:
            with contextlib.suppress(git.GitError):
                listing()
            raise
    except BaseException:
        if os.path.exists(temp_index):
            os.unlink(temp_index)
        raise
    return Started(temp_index, index, config, listing, add)


def begin(root: str, common_dir: str) -> Started | None:
    """``start``, after refusing clone-local filters (``git add`` would run them): how a run
    begins its first snapshot, so that git reads the work tree while the run is set up."""
    from hooks.core.attributes import refuse_local_filters

    refuse_local_filters(root, common_dir)
    return start(root)


def _reusable(root: str, previous: Snapshot | None,
              index: tuple[int, ...] | None) -> str | None:
    """PREVIOUS's kept index, taken over, when starting from it gives the tree a fresh copy of
    the real index would: the real index is the same file, no path its add removed is back (a
    tracked file deleted and written again would be tracked in a fresh copy, untracked here),
    and no untracked path it added is ignored now (the ignore rules changed: a fresh copy would
    leave it out, the kept index tracks it). None otherwise."""
    if previous is None or previous.temp_index is None or index is None \
            or previous.index != index or previous.added is None \
            or not os.path.exists(previous.temp_index):
        return None
    if any(os.path.lexists(os.path.join(root, p)) for p in previous.removed):
        return None
    # the environments' files were taken out again; check-ignore never reports tracked paths
    inside = tuple(d for d, _why in previous.environments)
    added = [p for p in previous.added if not (inside and p.startswith(inside))]
    if added and git.ignored_paths(root, added, untracked=True):
        return None  # (a tracked file the run changed that an ignore rule matches: too)
    path, previous.temp_index = previous.temp_index, None
    return path


def take(root: str, leave_out: Iterable[str] = (), ignore: Iterable[str] = (), *,
         expect: str | None = None, previous: Snapshot | None = None,
         keep: bool = False, started: Started | None = None) -> Snapshot:
    """Tree id of the work tree as it is on disk: tracked files plus untracked, unignored ones.

    Works on a throwaway copy of the real index (next to it, its timestamps kept: files whose
    stat data is unchanged are not hashed again, and git's racy-entry rules still apply), so
    the user's staging area is untouched. ``leave_out`` are repo-relative paths (the receipt
    and its log) kept out of the tree whether tracked or not; ``ignore`` are globs (the
    config's bookkeeping files) kept out the same way. ``expect`` is the tree the caller
    expects (HEAD's): only when the snapshot differs from it are the paths that explain the
    difference looked for. ``previous`` is an earlier snapshot of this repository with the same
    LEAVE_OUT and IGNORE: when it was taken with ``keep`` and the real index has not changed
    since, this one starts from its throwaway index (no copy; the untracked files it added and
    the entries it re-registered are not hashed again, nor files that were racily clean in the
    real index); else its index listing is reused when the index file has not changed.
    ``keep`` keeps this snapshot's throwaway index for the next one: the caller then calls
    ``discard`` on the snapshot it returns, and on PREVIOUS. ``started`` is this snapshot begun
    by ``start`` (taken over here; with no PREVIOUS).
    """
    leave_out = [p for p in leave_out if p]
    ignore = [g for g in ignore if g]
    real_index = git_index.real_index_path(root)
    began, started = started, None
    index: tuple[int, ...] | None
    if began is not None and began.temp_index is not None:
        index = began.index  # taken before its copy
        reused, temp_index, began.temp_index = None, began.temp_index, None
    else:
        began = None
        index = _identity(real_index)  # before the copy: a change after it shows next time
        reused = _reusable(root, previous, index)
        temp_index = reused or git_index.temp_index_path(real_index)
    try:
        env = git_index.env_with_index(temp_index)
        left_environments: list[tuple[str, str]] = []
        early: tuple[list[Hidden], list[str] | None, list[str]] | None = None
        if previous is not None and reused:
            listing = previous.listing
            flagged = _flagged(listing)
            config = previous.config
        else:
            if index is not None and began is None:
                # copy2 keeps the index's mtime: git's racy-entry check compares file mtimes
                # with it, and a fresh mtime would make a same-size edit within the second
                # look clean
                shutil.copy2(real_index, temp_index)
            config = ["-c", "core.fileMode=true"] if os.name == "posix" else []
            if began is None and previous is not None and index is not None \
                    and previous.index == index:
                listing = previous.listing
            else:
                if began is None and index is not None and _unflaggable(temp_index):
                    # the listing is read while git add runs: no entry can be skip-worktree,
                    # and should one be assume-unchanged, the copy is made and added again
                    began = Started(temp_index, index, config,
                                    git.started("ls-files", "-s", "-v", "-z", cwd=root,
                                                env=git_index.env_with_index(real_index)),
                                    git.started(*_add_args(config, []), cwd=root, env=env))
                    began.temp_index = None  # the copy is this call's
                if began is not None:
                    try:
                        early = _add_all(root, env, config, first=began.add)
                    finally:
                        listing = began.listing()
                    now = _identity(real_index)
                    if now != index or _flagged(listing):
                        early, index = None, now  # a new index, or flags to clear first
                        if index is not None:
                            shutil.copy2(real_index, temp_index)
                        elif os.path.exists(temp_index):
                            os.unlink(temp_index)  # no index now: git starts from none
                        listing = git.run("ls-files", "-s", "-v", "-z", cwd=root, env=env)
                else:
                    listing = git.run("ls-files", "-s", "-v", "-z", cwd=root, env=env)
            flagged = _flagged(listing)
            if flagged:
                # Re-registered entries carry no flags and no stat data: git add hashes them
                # from disk, and one missing from disk (a sparse checkout) is recorded as
                # deleted.
                config += ["-c", "core.sparseCheckout=false"]
                git.run(*config, "update-index", "-z", "--index-info", cwd=root, env=env,
                        stdin=b"".join(f"{mode} {oid} 0\t".encode()
                                       + p.encode("utf-8", "surrogateescape") + b"\0"
                                       for p, (_tag, mode, oid) in flagged.items()))
        hidden, added, removed = early or _add_all(root, env, config)
        # tracked or not, the receipt, log and ledger are never part of the tree; after
        # `add --all` no entry can sit below a path that is a file, so `rm -r` of the literal
        # path removes exactly what `update-index --force-remove` did. It runs only when the
        # index can hold one: the real index's (a kept index has none) or what the add put in.
        if _may_hold(b"" if reused else listing, added, leave_out, ignore):
            git_index.remove_from_index([_literal(p) for p in leave_out], ignore, cwd=root,
                                        env=env, config=config)
        tree = git.text("write-tree", cwd=root, env=env)
        if tree != expect:  # an environment would make it differ: looked for only then
            left_environments = environments(root)
            if left_environments:
                git_index.remove_from_index([_literal(d) for d, _why in left_environments], (),
                                            cwd=root, env=env, config=config)
                tree = git.text("write-tree", cwd=root, env=env)
        links = _gitlinks(listing, tagged=True)
        if tree != expect:
            after = git.run("ls-files", "-s", "-z", cwd=root, env=env)
            hidden += _named(root, flagged, listing.split(b"\0"), after.split(b"\0"))
            links += [p for p in _gitlinks(after, tagged=False) if p not in links]
        if links:
            hidden += _dirty_gitlinks(root, env, links)
        snap = Snapshot(tree, hidden, listing, index, left_environments)
        if keep:
            snap.temp_index, temp_index = temp_index, ""
            snap.config = config
            if previous is not None and reused:
                snap.added = None if added is None or previous.added is None \
                    else previous.added + added
                snap.removed = previous.removed + removed
            else:
                snap.added, snap.removed = added, removed
        return snap
    finally:
        if temp_index and os.path.exists(temp_index):
            os.unlink(temp_index)


def explain(hidden: Iterable[Hidden], limit: int = 3) -> str:
    """'a (marked assume-unchanged, ...); sub (...)', at most LIMIT paths and a count of more."""
    items = list(hidden)
    shown = "; ".join(f"{printable_path(h.path)} ({EXPLAINED.get(h.why, h.why)})"
                      for h in items[:limit])
    return shown + (f"; and {len(items) - limit} more" if len(items) > limit else "")
