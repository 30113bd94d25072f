"""The environment the fuse's steps run in, and redaction of the values kept out of it."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Sequence

CLEAN_ENV_KEEP = ("PATH", "HOME", "LANG", "LC_*", "TERM", "TMPDIR", "USER", "SHELL", "PWD")
SECRET_NAME_PATTERNS = ("*KEY*", "*SECRET*", "*TOKEN*", "*PASSWORD*")


def _matches(name: str, patterns: Sequence[str]) -> bool:
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


class StepEnvironment:
    """The steps' environment, and a redactor for the values that must not be written down."""

    def __init__(self, base: dict[str, str], unset: Sequence[str], clean: bool,
                 keep: Sequence[str]) -> None:
        env = dict(base)
        if clean:
            env = {k: v for k, v in env.items() if _matches(k, (*CLEAN_ENV_KEEP, *keep))}
        env = {k: v for k, v in env.items() if not _matches(k, unset)}
        self.env = env
        secret = {k: v for k, v in base.items()
                  if (k not in env or _matches(k.upper(), SECRET_NAME_PATTERNS)) and len(v) >= 4}
        values = sorted({v for v in secret.values()}, key=len, reverse=True)
        self._pattern = re.compile("|".join(re.escape(v) for v in values)) if values else None
        self._names = {v: k for k, v in secret.items()}

    def redact(self, text: str) -> str:
        if self._pattern is None:
            return text
        return self._pattern.sub(lambda m: f"[redacted:{self._names[m.group(0)]}]", text)

    def redact_bytes(self, data: bytes) -> bytes:
        if self._pattern is None:
            return data
        return self.redact(data.decode("utf-8", "surrogateescape")).encode(
            "utf-8", "surrogateescape")
