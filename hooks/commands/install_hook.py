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
from hooks.core.output import print_line
from hooks.core.output import warn

MARKER = "# installed by receipt-hooks (receipt install-hook)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--force", action="store_true", help="replace an existing hook")
    parser.add_argument("--server", action="store_true",
                        help="in a server's (bare) repository: pre-receive judges each pushed "
                             "branch ('receipt verify --pre-receive'), post-receive merges the "
                             "notes the pushes brought ('receipt verify --post-receive')")
    parser.add_argument("hook_args", nargs="*", metavar="CHECK_ARG",
                        help="extra check-receipt arguments, after --")


def run(args: argparse.Namespace) -> int:
    if args.server:
        return install_server(force=args.force, extra_args=args.hook_args)
    return install(force=args.force, extra_args=args.hook_args)


def hook_script(extra_args: Sequence[str]) -> str:
    # The installed check-receipt by absolute path: works when the venv is not on PATH, and
    # never imports code from the repository being pushed. git passes the remote's name and
    # URL as arguments (passed on: --publish publishes to that remote); the refs come on stdin.
    return _script([*own_command("check-receipt", "hooks.check_receipt"), "--git-pre-push",
                    *extra_args], pass_arguments=True)


def _script(argv: Sequence[str], *, pass_arguments: bool = False) -> str:
    # exec: the hook's process is git's own child, which the server hooks rely on (both hooks
    # of one push see the same parent process)
    tail = ' -- "$@"' if pass_arguments else ""
    return f"#!/bin/sh\n{MARKER}\nexec {shlex.join(argv)}{tail}\n"


def install(*, force: bool, extra_args: Sequence[str]) -> int:
    root = git.repo_paths().root
    path = _hook_path("pre-push", root)
    if not _replaceable(path, force, "call 'check-receipt --git-pre-push' from it"):
        return 1
    _write_hook(path, hook_script(extra_args))
    print_line(f"receipt install-hook: installed {os.path.relpath(path, root)}")
    return 0


def install_server(*, force: bool, extra_args: Sequence[str]) -> int:
    """pre-receive and post-receive in this repository (a server's bare one, usually)."""
    receipt = own_command("receipt", "hooks.cli")
    hooks = {"pre-receive": _script([*receipt, "verify", "--pre-receive", *extra_args]),
             "post-receive": _script([*receipt, "verify", "--post-receive"])}
    where = os.getcwd()
    paths = {name: _hook_path(name, where) for name in hooks}
    for name, path in paths.items():
        if not _replaceable(path, force, f"call 'receipt verify --{name}' from it"):
            return 1
    for name, path in paths.items():
        _write_hook(path, hooks[name])
        print_line(f"receipt install-hook: installed {path}")
    return 0


def _hook_path(name: str, cwd: str) -> str:
    path = git.text("rev-parse", "--git-path", f"hooks/{name}", cwd=cwd)
    return path if os.path.isabs(path) else os.path.join(cwd, path)


def _replaceable(path: str, force: bool, instead: str) -> bool:
    if os.path.exists(path) and not force:
        with open(path, encoding="utf-8", errors="replace") as f:
            ours = MARKER in f.read()
        if not ours:
            warn(f"receipt install-hook: {path} already exists and is not ours: "
                 f"pass --force to replace it, or {instead}")
            return False
    return True


def _write_hook(path: str, script: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    atomic_write(path, script.encode())
    mode = os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH
    os.chmod(path, mode)  # a git hook must be executable
