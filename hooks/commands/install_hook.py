"""``receipt install-hook``: check-receipt as a plain git pre-push hook, without pre-commit.

Installed this way the hook reads every ref line git sends on stdin, so a push of several
branches checks each of their commits.
"""

from __future__ import annotations

import argparse
import os
import shlex
import stat
from collections.abc import Sequence

from hooks.core import git
from hooks.core.cmdline import own_command
from hooks.core.fileio import atomic_write
from hooks.core.output import warn

MARKER = "# installed by receipt-hooks (receipt install-hook)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--force", action="store_true", help="replace an existing pre-push hook")
    parser.add_argument("hook_args", nargs="*", metavar="CHECK_ARG",
                        help="extra check-receipt arguments, after --")


def run(args: argparse.Namespace) -> int:
    return install(force=args.force, extra_args=args.hook_args)


def hook_script(extra_args: Sequence[str]) -> str:
    # The installed check-receipt by absolute path: works when the venv is not on PATH, and
    # never imports code from the repository being pushed. git passes the remote's name and
    # URL as arguments (passed on: --publish publishes to that remote); the refs come on stdin.
    command = shlex.join([*own_command("check-receipt", "hooks.check_receipt"),
                          "--git-pre-push", *extra_args])
    return f'#!/bin/sh\n{MARKER}\nexec {command} -- "$@"\n'


def install(*, force: bool, extra_args: Sequence[str]) -> int:
    root = git.repo_paths().root
    path = git.text("rev-parse", "--git-path", "hooks/pre-push", cwd=root)
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
