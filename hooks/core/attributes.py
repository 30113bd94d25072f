"""Filters only this clone applies: content the tests read that the commit does not hold.

A clean filter rewrites a file as git stores it. Set by the repository's own ``.gitattributes``
(as staged), every clone applies it the same way, and reviewers see it. Set anywhere else
(``.git/info/attributes``, ``core.attributesFile``, the per-user attributes file), it is this
clone's secret: the tests read one text on disk, the commit holds another, and a receipt for
the disk would vouch for a commit nobody ran. ``receipt run`` refuses then, naming each path.

Cost when no such attributes file exists (the common case): one ``git config`` call.
"""

from __future__ import annotations

import os

from hooks.core import git
from hooks.core import git_index
from hooks.core.errors import UserError
from hooks.core.text import printable_path

SHOWN = 3


def outside_sources(common_dir: str) -> list[str]:
    """The attributes files outside the repository's .gitattributes that exist and say
    something, by the name a person would look for."""
    found: list[str] = []
    info = os.path.join(common_dir, "info", "attributes")
    if _says_something(info):
        found.append(info)
    try:
        configured = git.text("config", "--get", "--path", "core.attributesFile")
    except git.GitError:  # unset
        home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"),
                                                                 ".config")
        configured = os.path.join(home, "git", "attributes")
    if configured and _says_something(configured):
        found.append(configured)
    return found


def _says_something(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return any(line.strip() and not line.lstrip().startswith(b"#")
                       for line in f.read(1 << 20).splitlines())
    except OSError:
        return False


def _filters(root: str, paths: list[str], env: dict[str, str] | None = None,
             options: tuple[str, ...] = (), cached: bool = False) -> dict[str, str]:
    """path -> the ``filter`` attribute git gives it (only paths that have one)."""
    stdin = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths)
    out = git.run(*options, "check-attr", *(["--cached"] if cached else []), "-z", "--stdin",
                  "filter", cwd=root, env=env, stdin=stdin).split(b"\0")
    found: dict[str, str] = {}
    for i in range(0, len(out) - 2, 3):
        value = out[i + 2].decode("utf-8", "surrogateescape")
        if value not in ("unspecified", "unset"):
            found[out[i].decode("utf-8", "surrogateescape")] = value
    return found


def local_filters(root: str, common_dir: str) -> list[tuple[str, str]]:
    """(path, filter) for tracked paths whose filter does not come from the repository's own
    staged .gitattributes and whose driver this clone defines (a clean step or a process)."""
    if not outside_sources(common_dir):
        return []
    import tempfile

    tracked = git.tracked_files(cwd=root)
    here = _filters(root, tracked)
    if not here:
        return []
    with tempfile.TemporaryDirectory(prefix="receipt-attrs-") as empty:
        git.run("init", "-q", "--bare", empty)
        env = git_index.env_with_index(git_index.real_index_path(root))
        # an empty git dir (no info/attributes) reading the real index and objects
        env.update({"GIT_DIR": empty, "GIT_WORK_TREE": root, "GIT_ATTR_NOSYSTEM": "1",
                    "GIT_OBJECT_DIRECTORY": os.path.join(common_dir, "objects")})
        # --cached: .gitattributes as staged, so an ignored, uncommitted one does not count
        own = _filters(root, list(here), env, ("-c", f"core.attributesFile={os.devnull}"),
                       cached=True)
    return [(p, f) for p, f in here.items() if own.get(p) != f and _defined(f, root)]


def _defined(name: str, root: str) -> bool:
    import re

    pattern = rf"^filter\.{re.escape(name)}\.(clean|process)$"
    try:
        return bool(git.text("config", "--get-regexp", pattern, cwd=root))
    except git.GitError:  # no such driver: git stores the file as it is
        return False


def refuse_local_filters(root: str, common_dir: str) -> None:
    """Raise a one-line UserError naming the paths a clone-local filter changes."""
    found = local_filters(root, common_dir)
    if not found:
        return
    shown = ", ".join(f"{printable_path(p)} (filter={f})" for p, f in found[:SHOWN])
    more = f" and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
    sources = ", ".join(printable_path(s) for s in outside_sources(common_dir))
    raise UserError(
        f"receipt run: git applies a clean filter to {shown}{more} from {sources}, not from the "
        f"repository's .gitattributes: what the tests read on disk is not what a commit holds, "
        f"so no receipt could vouch for it: remove those lines (or commit them to "
        f".gitattributes), then run again")
