"""``--once`` state: the history of failing steps between calls, in a file in the git dir."""

from __future__ import annotations

import contextlib
import json
import os

from hooks.core.fileio import atomic_write
from hooks.core.output import warn

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

STATE_VERSION = 1


def load_state(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as f:
            state = json.load(f)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as e:
        warn(f"receipt fuse: warning: {path} is not a fuse state file ({e}); starting over")
        return {}
    if not isinstance(state, dict) or state.get("version") != STATE_VERSION:
        return {}  # e.g. the seed script's one-line fingerprint file
    return state


def save_state(path: str, state: dict[str, Any]) -> None:
    atomic_write(path, (json.dumps(state) + "\n").encode())


def clear_state(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
