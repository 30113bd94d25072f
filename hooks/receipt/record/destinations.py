"""Where ``receipt run`` writes: only regular files that are its own to replace.

A receipt or log path that names a tracked file would overwrite the user's work (and the
receipt would then vouch for whatever that file holds), as would one that names an untracked
file git does not ignore (the tests read it, and the tree recorded leaves it out); one that
names a device, a FIFO or a directory would be replaced by a regular file (``--log
/dev/null`` as root would destroy /dev/null). All are refused before the command runs, in one
line. ``--log /dev/null`` means "keep no log": the output is still counted and digested, and
the receipt says no log was kept.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable

from hooks.core import git
from hooks.core.errors import UserError
from hooks.core.fileio import UnreadableFile
from hooks.core.fileio import read_bounded
from hooks.core.output import warn
from hooks.receipt.store import layout


class Destinations:
    """Absolute and shown (repo-relative when inside) paths; no log when ``log_path`` is None."""

    __slots__ = ("log_path", "log_rel", "receipt_path", "receipt_rel")

    def __init__(self, receipt_path: str, receipt_rel: str, log_path: str | None,
                 log_rel: str | None) -> None:
        self.receipt_path = receipt_path
        self.receipt_rel = receipt_rel
        self.log_path = log_path
        self.log_rel = log_rel

    @property
    def written(self) -> layout.Written:
        """What the run writes in the work tree: left out of the tree snapshot."""
        return layout.Written(self.receipt_rel, self.log_rel)


def _named(option: str, given: str | None, shown: str) -> str:
    return f"{option} {given}" if given else f"the default {option[2:]} path {shown}"


def _kind(path: str) -> str | None:
    """What is at PATH when it is not a regular file we may replace; None when fine."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as e:
        return f"cannot be examined ({e.strerror})"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return "is a symbolic link"
    if stat.S_ISDIR(mode):
        return "is a directory"
    if stat.S_ISFIFO(mode):
        return "is a FIFO"
    if stat.S_ISSOCK(mode):
        return "is a socket"
    return "is a device"


def _previous_log(receipt_path: str) -> str | None:
    """The log the receipt already at RECEIPT_PATH names, when it is a receipt."""
    try:
        data = json.loads(read_bounded(receipt_path, layout.MAX_RECEIPT_BYTES))
    except (OSError, UnreadableFile, ValueError):
        return None
    if not isinstance(data, dict) or data.get("schema") not in layout.SCHEMAS:
        return None
    output = data.get("output")
    log = output.get("log") if isinstance(output, dict) else None
    return log if isinstance(log, str) else ""


def resolve(paths: git.RepoPaths, receipt_arg: str | None, log_arg: str | None,
            tracked_of: Callable[[list[str]], set[str]] | None = None) -> Destinations:
    """The receipt and log paths, or a UserError (exit 1) naming the one that is not ours.
    TRACKED_OF tells which of some paths the index tracks (default: ``git ls-files``)."""
    root = paths.root
    no_log = log_arg is not None and os.path.realpath(log_arg) == os.devnull
    receipt_path, log_path = layout.resolve_paths(root, receipt_arg, None if no_log else log_arg)
    receipt_rel = layout.repo_relative(root, receipt_path)
    log_rel = None if no_log else layout.repo_relative(root, log_path)
    wanted = [("--receipt", receipt_arg, receipt_path, receipt_rel)]
    if log_rel is not None:
        wanted.append(("--log", log_arg, log_path, log_rel))
        if os.path.isabs(log_rel):
            raise UserError(f"receipt run: --log {log_arg} is outside the repository ({root}): "
                            f"the receipt names its log relative to the root; choose a path "
                            f"inside it that git ignores, or --log {os.devnull} to keep none")
        if os.path.abspath(log_path) == os.path.abspath(receipt_path):
            raise UserError(f"receipt run: the receipt and the log are the same file "
                            f"({receipt_rel}): give them different paths")
    git_dirs = {os.path.realpath(paths.git_dir), os.path.realpath(paths.common_dir)}
    for option, given, path, _rel in wanted:
        what = _kind(path)
        if what is None and any(os.path.realpath(path).startswith(d + os.sep) for d in git_dirs):
            what = "is inside the git directory"
        if what:
            raise UserError(f"receipt run: {_named(option, given, path)} {what}: receipt run "
                            f"writes only regular files of its own; choose another path"
                            + (f" (--log {os.devnull} keeps no log)" if option == "--log" else ""))
    inside = [(o, g, p, r) for o, g, p, r in wanted if not os.path.isabs(r)]
    rels = [r for _o, _g, _p, r in inside]
    tracked = (tracked_of(rels) if tracked_of else set(git.tracked_files(root, rels))) \
        if inside else set()
    previous_log = _previous_log(receipt_path) if tracked else None
    for option, given, _path, rel in inside:
        ours = previous_log is not None and (option == "--receipt" or rel == previous_log)
        if rel in tracked and not ours:
            default = layout.DEFAULT_LOG if option == "--log" else layout.DEFAULT_RECEIPT
            raise UserError(f"receipt run: {_named(option, given, rel)} is a file tracked by "
                            f"git: receipt run would overwrite it, and the receipt would vouch "
                            f"for whatever it holds; choose a path git ignores, such as "
                            f"{default}")
    untracked = [r for _o, _g, _p, r in inside if r not in tracked]
    ignored = set(git.ignored_paths(root, untracked, untracked=True)) if untracked else set()
    for option, given, path, rel in inside:
        if rel in tracked or rel in ignored:
            continue
        # its folder when it has one ("artifacts/"); a file at the root is ignored by its own
        # name ("/mine.json": "mine.json/" would match only a directory)
        ignore = f"'{os.path.dirname(rel)}/'" if os.path.dirname(rel) else f"'/{rel}'"
        if os.path.lexists(path):
            # the run leaves its own files out of the tree it records, then replaces them: a
            # file already there would be read by the tests and recorded nowhere
            raise UserError(f"receipt run: {_named(option, given, rel)} already holds a file "
                            f"that is part of the tree under test (untracked, not ignored): "
                            f"receipt run would leave it out of the tested tree and overwrite "
                            f"it; delete it or add {ignore} to .gitignore")
        warn(f"receipt: warning: {rel} is not ignored by git; add "
             f"{ignore} to .gitignore so it is never committed")
    for _option, _given, path, _rel in wanted:
        _make_parent(path)
    return Destinations(receipt_path, receipt_rel, None if no_log else log_path, log_rel)


def _make_parent(path: str) -> None:
    directory = os.path.dirname(path)
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as e:
        raise UserError(f"receipt run: cannot create the directory {directory} for {path}: "
                        f"{e.strerror or e}") from e
