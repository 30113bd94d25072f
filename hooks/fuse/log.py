"""The fuse log: every step's output, redacted, a line at a time."""

from __future__ import annotations

import os

from hooks.fuse.environment import StepEnvironment

LONG_LINE = 1 << 16  # a line without an end is held up to this size, then written in parts


class LineRedactingLog:
    """Writes output to the log a line at a time, so a secret split across chunks is caught;
    a line longer than LONG_LINE is written in parts cut where no secret straddles them."""

    def __init__(self, path: str, env: StepEnvironment, truncate: bool) -> None:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self._file = open(path, "wb" if truncate else "ab")  # noqa: SIM115  # closed in close()
        self._env = env
        self._partial = b""

    def write(self, data: bytes) -> None:
        data = self._partial + data
        cut = data.rfind(b"\n") + 1
        if cut == 0 and len(data) < LONG_LINE:
            self._partial = data
            return
        if cut == 0:  # a long line with no end yet: write most of it, never half a secret
            cut = self._env.safe_cut(data)
        self._partial = data[cut:]
        self._file.write(self._env.redact_bytes(data[:cut]))

    def note(self, text: str) -> None:
        self.flush()
        self._file.write(self._env.redact(text + "\n").encode("utf-8", "replace"))
        self._file.flush()

    def flush(self) -> None:
        if self._partial:
            self._file.write(self._env.redact_bytes(self._partial) + b"\n")
            self._partial = b""
        self._file.flush()

    def close(self) -> None:
        self.flush()
        self._file.close()
