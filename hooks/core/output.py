"""Findings and how they are shown: one line each for people on stdout, JSON for agents and CI,
GitHub annotations when running in GitHub Actions. Messages that are not findings go to stderr.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from collections.abc import Sequence

from hooks.core.errors import say
from hooks.core.errors import write_text

TYPE_CHECKING = False  # typing costs a hook ~10 ms to import: only the type checker needs it
if TYPE_CHECKING:
    from typing import TextIO


class Finding:
    """One problem: what, where, and the command that fixes it, all in ``message``.

    ``code`` is the exit code this finding alone would give; ``kind`` a stable name for
    machines (missing, stale, SKP001, ...). A plain class: dataclasses cost an import of inspect.
    """

    __slots__ = ("code", "col", "commit", "kind", "line", "message", "path")

    def __init__(self, message: str, code: int = 1, kind: str = "error", *,
                 path: str | None = None, line: int | None = None, col: int | None = None,
                 commit: str | None = None) -> None:
        self.message = message
        self.code = code
        self.kind = kind
        self.path = path
        self.line = line
        self.col = col
        self.commit = commit

    def as_dict(self) -> dict[str, object]:
        fields = {name: getattr(self, name) for name in self.__slots__}
        return {k: v for k, v in fields.items() if v is not None}

    def __repr__(self) -> str:
        return f"Finding({self.as_dict()!r})"


# The layout of every --format json document; a change that breaks readers gets a new number.
JSON_VERSION = 1


def first_exit_code(codes: Iterable[int], order: Sequence[int]) -> int:
    """The code of the first kind in ORDER that is present; 0 for none."""
    present = set(codes)
    for code in order:
        if code in present:
            return code
    return max(present, default=0)


def _annotation_escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property_escape(text: str) -> str:
    return _annotation_escape(text).replace(":", "%3A").replace(",", "%2C")


def annotation(f: Finding) -> str:
    """FINDING as a GitHub workflow command: on its file and line when it has them."""
    where = []
    if f.path:
        where.append(f"file={_property_escape(f.path)}")
        if f.line:
            where.append(f"line={f.line}")
            if f.col:
                where.append(f"col={f.col}")
    where.append(f"title={_property_escape(f.kind)}")
    return f"::error {','.join(where)}::{_annotation_escape(f.message)}"


def print_findings(
    findings: Sequence[Finding],
    *,
    fmt: str,
    exit_code: int,
    extra: dict[str, object] | None = None,
    stream: TextIO | None = None,
) -> None:
    if fmt == "json":
        import json

        doc: dict[str, object] = {
            "version": JSON_VERSION,
            "ok": exit_code == 0,
            "exit_code": exit_code,
            "findings": [f.as_dict() for f in findings],
        }
        doc.update(extra or {})
        write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", stream)
        return
    # a usage error is not a finding about the code: stderr, as every other message
    usage = [f.message for f in findings if f.kind == "usage"]
    if usage:
        write("\n".join(usage) + "\n", sys.stderr if stream is None else stream)
    lines = [f.message for f in findings if f.kind != "usage"]
    if os.environ.get("GITHUB_ACTIONS") == "true":
        lines += [annotation(f) for f in findings]
    if lines:
        write("\n".join(lines) + "\n", stream)


def print_line(text: str = "") -> None:
    """One line of a command's output on stdout, through ``write`` (never ``print``: a closed
    pipe must end the output, not the command)."""
    write_text(sys.stdout, text + "\n")


def write(text: str, stream: TextIO | None = None) -> None:
    """Write to stdout (or STREAM); a closed or broken stream loses output, never a verdict."""
    write_text(stream if stream is not None else sys.stdout, text)


warn = say  # messages go to stderr, findings to stdout
