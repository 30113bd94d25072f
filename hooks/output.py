"""Findings and how they are shown: one line each for people, JSON for agents and CI,
GitHub annotations when running in GitHub Actions. Also the argparse flavour every command
uses, since argparse's own usage exit code (2) means "receipt missing" here."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence

TYPE_CHECKING = False  # typing costs a hook ~10 ms to import: only the type checker needs it
if TYPE_CHECKING:
    from typing import NoReturn
    from typing import TextIO

USAGE_ERROR = 1


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


def first_exit_code(codes: Iterable[int], order: Sequence[int]) -> int:
    """The code of the first kind in ORDER that is present; 0 for none."""
    present = set(codes)
    for code in order:
        if code in present:
            return code
    return max(present, default=0)


def _annotation_escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def print_findings(
    findings: Sequence[Finding],
    *,
    fmt: str,
    exit_code: int,
    extra: dict[str, object] | None = None,
    stream: TextIO | None = None,
) -> None:
    out = stream if stream is not None else sys.stdout
    if fmt == "json":
        import json

        doc: dict[str, object] = {
            "ok": exit_code == 0,
            "exit_code": exit_code,
            "findings": [f.as_dict() for f in findings],
        }
        doc.update(extra or {})
        out.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
        return
    for f in findings:
        out.write(f.message + "\n")
    if os.environ.get("GITHUB_ACTIONS") == "true":
        for f in findings:
            if f.path and f.line:
                col = f",col={f.col}" if f.col else ""
                out.write(f"::error file={f.path},line={f.line}{col},title={f.kind}::"
                          f"{_annotation_escape(f.message)}\n")


def warn(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def regex_argument(text: str) -> str:
    """argparse type for a REGEX option: refused in one line when it does not compile, kept as
    text so that the paths that never use it never compile it."""
    import re

    try:
        re.compile(text)
    except re.error as e:
        raise argparse.ArgumentTypeError(f"not a regular expression: {text!r} ({e})") from e
    return text


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error exits 1 in one line: 2 is taken by "receipt missing"."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def guarded(prog: str) -> Callable[[Callable[..., int]], Callable[..., int]]:
    """Turn any escaped exception into one line and exit 1: no input gives a traceback."""

    def wrap(main: Callable[..., int]) -> Callable[..., int]:
        def run(argv: Sequence[str] | None = None) -> int:
            try:
                return main(argv)
            except KeyboardInterrupt:
                warn(f"{prog}: interrupted")
                return 130
            except BrokenPipeError:
                return 1
            except Exception as e:  # the promise is one line, not a traceback
                warn(f"{prog}: internal error: {type(e).__name__}: {e} "
                     f"(a bug in receipt-hooks; please report it with this line)")
                return 1

        run.__doc__ = main.__doc__
        return run

    return wrap
