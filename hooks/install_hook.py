"""``receipt install-hook``: check-receipt as a plain git pre-push hook, without pre-commit.

Installed this way the hook reads every ref line git sends on stdin, so a push of several
branches checks each of their commits.
"""

from __future__ import annotations

import os
import shlex
import stat
import sys
from collections.abc import Sequence

from hooks import git_repo
from hooks.fileio import atomic_write
from hooks.output import warn

MARKER = "# installed by receipt-hooks (receipt install-hook)"


def hook_script(extra_args: Sequence[str]) -> str:
    # The absolute interpreter keeps the hook working when the venv is not on PATH.
    # git passes the remote's name and URL as arguments; the refs come on stdin.
    args = "".join(" " + shlex.quote(a) for a in extra_args)
    return (f"#!/bin/sh\n{MARKER}\n"
            f"exec {shlex.quote(sys.executable)} -m hooks.check_receipt --git-pre-push{args}\n")


def install(*, force: bool, extra_args: Sequence[str]) -> int:
    try:
        root = git_repo.repo_paths().root
        path = git_repo.git_text("rev-parse", "--git-path", "hooks/pre-push", cwd=root)
    except git_repo.GitError as e:
        warn(f"receipt install-hook: {e}: run it inside a git work tree")
        return 1
    path = path if os.path.isabs(path) else os.path.join(root, path)
    if os.path.exists(path) and not force:
        with open(path, encoding="utf-8", errors="replace") as f:
            ours = MARKER in f.read()
        if not ours:
            warn(f"receipt install-hook: {path} already exists and is not ours: "
                 f"pass --force to replace it, or call 'check-receipt --git-pre-push' from it")
            return 1
    atomic_write(path, hook_script(extra_args).encode())
    mode = os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH
    os.chmod(path, mode)  # a git hook must be executable
    print(f"receipt install-hook: installed {os.path.relpath(path, root)}")
    return 0
