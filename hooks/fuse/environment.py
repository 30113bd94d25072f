"""The environment the fuse's steps run in, and redaction of the values kept out of it.

A value is redacted from the log and the ledger when it can be a secret: its variable was kept
out of the steps (``--unset``, ``--clean-env``) or has a secret's name (``*TOKEN*``,
``GH_PAT``, ``BASIC_AUTH``, ...), and the value itself is not an ordinary one (8 characters or
more; not a path, a common setting such as ``true`` or ``main``, and, unless the name says
secret, not a number or a few words of prose). Redacting ``true`` would turn every "true" in
the output into ``[redacted:CI]`` and hide what the step printed.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Sequence

CLEAN_ENV_KEEP = ("PATH", "HOME", "LANG", "LC_*", "TERM", "TMPDIR", "USER", "SHELL", "PWD")
# Names of variables that hold secrets, in upper case: anywhere in the name, or (short words
# that other names contain: PATH, AUTHOR) as a whole word between underscores.
SECRET_NAME_PATTERNS = ("*KEY*", "*SECRET*", "*TOKEN*", "*PASSWORD*", "*PASSWD*",
                        "*CREDENTIAL*", "*COOKIE*", "*PRIVATE*", "*SESSION*", "*AUTHORIZATION*")
SECRET_NAME_WORDS = frozenset({"PAT", "AUTH", "OAUTH", "PASS", "PW"})
MIN_SECRET_LENGTH = 8
COMMON_VALUES = frozenset({
    "true", "false", "yes", "no", "on", "off", "none", "null", "nil", "undefined", "enabled",
    "disabled", "main", "master", "develop", "development", "production", "staging", "testing",
    "release", "debug", "info", "warning", "error", "localhost", "default", "password",
})
_NUMBER = re.compile(r"[-+]?\d[\d_.,:/-]*(?:[eE][-+]?\d+)?")  # 3600, 1.5, 2026-09-07
_PROSE = re.compile(r"[A-Za-z][A-Za-z.,'-]*(?: [A-Za-z][A-Za-z.,'-]*)+")


def _matches(name: str, patterns: Sequence[str]) -> bool:
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


def secret_name(name: str) -> bool:
    upper = name.upper()
    return _matches(upper, SECRET_NAME_PATTERNS) or bool(
        SECRET_NAME_WORDS & set(upper.split("_")))


def _is_path(value: str) -> bool:
    parts = value.split(":")
    return all(p.startswith(("/", "~/", "./", "../")) for p in parts if p) and any(parts)


def can_be_secret(value: str, named: bool = False) -> bool:
    """VALUE is long and odd enough to be a secret rather than an ordinary setting. Under a
    secret's name (NAMED), digits are a PIN and words a passphrase; elsewhere they are a
    number and prose ("Test User")."""
    value = value.strip()
    return (len(value) >= MIN_SECRET_LENGTH and value.lower() not in COMMON_VALUES
            and not _is_path(value)
            and (named or not (_NUMBER.fullmatch(value) or _PROSE.fullmatch(value))))


class StepEnvironment:
    """The steps' environment, and a redactor for the values that must not be written down."""

    def __init__(self, base: dict[str, str], unset: Sequence[str], clean: bool,
                 keep: Sequence[str]) -> None:
        env = dict(base)
        if clean:
            env = {k: v for k, v in env.items() if _matches(k, (*CLEAN_ENV_KEEP, *keep))}
        env = {k: v for k, v in env.items() if not _matches(k, unset)}
        self.env = env
        secret = {}
        for name, value in base.items():
            named = secret_name(name)
            if (named or name not in env) and can_be_secret(value, named):
                secret[name] = value
        values = sorted({v.encode("utf-8", "surrogateescape") for v in secret.values()},
                        key=len, reverse=True)
        self._pattern = re.compile(b"|".join(re.escape(v) for v in values)) if values else None
        self._names = {v.encode("utf-8", "surrogateescape"): k for k, v in secret.items()}
        self.longest = len(values[0]) if values else 0  # bytes: what a write must hold back

    def redact(self, text: str) -> str:
        if self._pattern is None:
            return text
        return self.redact_bytes(text.encode("utf-8", "surrogateescape")).decode(
            "utf-8", "surrogateescape")

    def redact_bytes(self, data: bytes) -> bytes:
        if self._pattern is None:
            return data
        return self._pattern.sub(lambda m: f"[redacted:{self._names[m.group(0)]}]".encode(), data)

    def safe_cut(self, data: bytes) -> int:
        """Where DATA (a line not yet ended) can be cut so that no secret straddles the cut:
        the last ``longest - 1`` bytes are held back, for they may begin a secret whose end
        has not arrived; a secret already whole across that point is written with its part."""
        if self._pattern is None:
            return len(data)
        cut = max(len(data) - (self.longest - 1), 0)
        for m in self._pattern.finditer(data, max(cut - self.longest, 0)):
            if m.start() < cut < m.end():
                return m.end()
        return cut
