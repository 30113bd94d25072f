"""Where receipts live when a repository needs more than one: one per command.

A policy can ask for several receipts for one commit: the suite (``test-command``, one or
more commands) and, when a change touches a route's paths, that route's command too. The
storage, designed once for both:

- ``artifacts/test-receipt.json`` (or ``--receipt``) stays what it always was: the receipt of
  the last run, whatever it ran. The seed's checker and every older tool keep reading it;
- every run also writes the same bytes to ``artifacts/receipts/<key>.json`` beside it, where
  KEY is a digest of the command *as compared* (``runner_args.normalised``): ``pytest -q`` and
  ``.venv/bin/pytest`` share a file, ``pytest tests/pay`` has its own. A later run of the same
  suite replaces the earlier one, so the directory holds the newest receipt per command;
- the check asks, for each command the policy requires, for the file under that command's key
  (and accepts the last-run receipt when it ran that command). A receipt is still judged on its
  own: tree, result, age, platform.

Receipts that travel with the repository (git notes on the tested tree) can hold the same set:
the key is derived from the command alone, not from where the file is.
"""

from __future__ import annotations

import json
import os
import posixpath
import shlex
from collections.abc import Sequence

from hooks.core import digests
from hooks.core.cmdline import SHELL

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

KEYED_DIR = "receipts"
KEY_LENGTH = 20  # hex digits of the command's digest in a keyed file's name


def comparable(argv: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """ARGV as the suite comparison sees it: runner, then the arguments that select tests."""
    from hooks.receipt.command.runner_flags import normalised

    return normalised(argv)


def configured_argv(command: str) -> list[str]:
    """A configured command as ``receipt run`` runs it: words, or sh -c when it needs a shell."""
    try:
        words = shlex.split(command)
    except ValueError:
        return [SHELL, "-c", command]
    if any(c in command for c in "|&;<>()$`*?") or not words:
        return [SHELL, "-c", command]
    return words


def judged_argv(data: dict[str, Any]) -> list[str] | None:
    """A receipt's command as the check reads it: its argv, run in the recorded ``cwd`` with
    the recorded runner variables (``env``), written as ``env -C CWD VAR=VALUE ARGV`` so the
    one invocation parser reads them; None when the receipt has no argv list."""
    argv = data.get("argv")
    if not isinstance(argv, list):
        return None
    cwd = data.get("cwd")
    env = data.get("env")
    prefix = ["-C", str(cwd)] if isinstance(cwd, str) and cwd != "." else []
    if isinstance(env, dict):
        prefix += [f"{name}={value}" for name, value in sorted(env.items())]
    return ["env", *prefix, *[str(a) for a in argv]] if prefix else [str(a) for a in argv]


def described(data: dict[str, Any]) -> str:
    """A receipt's command for a message, with where it ran and the runner variables set."""
    text = str(data.get("command", ""))
    cwd = data.get("cwd")
    env = data.get("env")
    if isinstance(cwd, str) and cwd != ".":
        text += f" (run in {cwd})"
    if isinstance(env, dict) and env:
        text += " (with " + " ".join(f"{k}={shlex.quote(str(v))}" for k, v in
                                     sorted(env.items())) + ")"
    return text


def same_command(recorded: Sequence[str], configured: str) -> bool:
    return comparable(recorded) == comparable(configured_argv(configured))


def key_of(argv: Sequence[str]) -> str:
    text = json.dumps(comparable(argv), separators=(",", ":"))
    return digests.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:KEY_LENGTH]


def keyed_path(receipt_path: str, argv: Sequence[str]) -> str:
    """The per-command file beside RECEIPT_PATH for ARGV."""
    return os.path.join(os.path.dirname(receipt_path), KEYED_DIR, f"{key_of(argv)}.json")


def keyed_glob(receipt_rel: str) -> str:
    """Every per-command file beside the repo-relative RECEIPT_REL, whatever its command, as a
    config glob (``artifacts/receipts/<key>.json``); only names of that form, so no other file
    that happens to sit there matches."""
    directory = "".join("\\" + c if c in "*?[]\\" else c
                        for c in posixpath.dirname(receipt_rel))
    name = "[0-9a-f]" * KEY_LENGTH + ".json"
    return posixpath.join(directory, KEYED_DIR, name)
