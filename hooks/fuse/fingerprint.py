"""Failure fingerprints that see through noise: the same failure, however it is dressed.

Output is decoded with replacement, stripped of colours and progress redraws, and the parts
that change from run to run for no reason (durations, times, addresses, temp dirs, pids, ports,
seeds, percentages, the repo root and $HOME) are replaced by placeholders. Where the runner
names its failing tests, the fingerprint is the sorted set of them with the exit code;
otherwise the last 40 normalised lines.

Two strengths: ``strict`` keeps the numbers in assertion messages (``3 != 5`` becoming
``4 != 5`` is progress); ``loose`` drops every digit and is used to spot oscillation. The
failing test ids alone would lose those numbers where the runner prints the compared values
on lines of their own (go's ``got 3, want 5``, jest's ``Expected: 5`` / ``Received: 3``,
Rust's ``left: 3`` / ``right: 5``, pytest's ``E assert 3 == 5``), so the strict fingerprint
of failing tests also holds those assertion lines.
"""

from __future__ import annotations

import os
import re
from collections import deque

from hooks.core import digests
from hooks.core.text import LineBuffer
from hooks.core.text import visible

TAIL_LINES = 40
_MAX_IDS = 2000
_MAX_LINE = 2000

# (pattern, replacement): order matters, most specific first. Rules are data.
NOISE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?"),
     "<time>"),
    (re.compile(r"\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b"), "<time>"),
    (re.compile(r"\b\d{4}-\d{2}-\d{2}\b"), "<date>"),
    (re.compile(r"\b0x[0-9a-fA-F]{4,}\b"), "<addr>"),
    (re.compile(r"/(?:private/)?(?:tmp|var/folders/[^/\s]+/[^/\s]+/T)/pytest-of-[^/\s]+/pytest-\d+"),
     "<tmp>"),
    (re.compile(r"/(?:private/)?tmp/(?:tmp|pytest-)[\w.-]+"), "<tmp>"),
    (re.compile(r"(?i)(?:--randomly-seed|random[_ -]?seed|seed)[=: ]\s*\d+"), "seed=<seed>"),
    (re.compile(r"(?i)\b(?:pid|process)[=: ]\s*\d+"), "pid=<pid>"),
    (re.compile(r"(?i)\bport[=: ]\s*\d+"), "port=<port>"),
    (re.compile(r"\b(localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):\d{2,5}\b"), r"\1:<port>"),
    (re.compile(r"\[\s*\d{1,3}%\]|\b\d{1,3}(?:\.\d+)?%"), "<pct>"),
    (re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds|µs|us|ns|m)\b"), "<dur>"),
    (re.compile(r"\((?:<dur>|<time>)\)"), "(<dur>)"),
)

# Failing-test lines, by runner: a pattern whose group 'id' names the test, and optionally
# group 'msg' its message.
FAILING_TEST_LINES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("pytest", re.compile(r"^(?:FAILED|ERROR) (?P<id>\S+)(?: - (?P<msg>.*))?$")),
    ("jest", re.compile(r"^\s*\u25cf (?P<id>.+?\u203a.+?)\s*$")),  # "(bullet) Suite (angle) test"
    ("go", re.compile(r"^\s*--- FAIL: (?P<id>\S+)")),
    ("cargo", re.compile(r"^test (?P<id>\S+) \.\.\. FAILED$")),
)

# Lines that carry the values an assertion compared: they belong to the strict fingerprint.
ASSERTION_LINES = re.compile(
    r"^\s*(?:E\s+(?:assert|AssertionError|where|\+|-)|AssertionError\b|assert(?:ion)?\b|"
    r"Expected\b|Received\b|expected\b|actual\b|got\b|want\b|left\b|right\b)"
    r"|\s(?:!=|==)\s|\bgot\b.*\bwant\b|\bexpected\b.*\b(?:got|but was|actual)\b")
_MAX_ASSERTIONS = 200

_DIGITS = re.compile(r"\d+")


class Fingerprint:
    __slots__ = ("loose", "source", "strict")

    def __init__(self, strict: str, loose: str, source: str) -> None:
        self.strict = strict
        self.loose = loose
        self.source = source

    def __repr__(self) -> str:
        return f"Fingerprint({self.source}, {self.strict[:12]}, {self.loose[:12]})"


def _digest(parts: list[str]) -> str:
    return digests.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


class Normaliser:
    """Replace the per-run noise in a line, including this repo's root and $HOME."""

    def __init__(self, root: str | None = None, home: str | None = None) -> None:
        paths = [p for p in (root, home if home is not None else os.environ.get("HOME"))
                 if p and p != "/"]
        # the longer first: the repo usually lives under $HOME
        self._paths = sorted(((p, "<root>" if p == root else "<home>") for p in paths),
                             key=lambda item: -len(item[0]))

    def __call__(self, line: str) -> str:
        line = visible(line)
        for path, name in self._paths:
            if path in line:
                line = line.replace(path, name)
        for pattern, replacement in NOISE:
            line = pattern.sub(replacement, line)
        return line.rstrip()


class FingerprintBuilder:
    """Feed output as it streams; ``result(exit_code)`` gives the fingerprint."""

    def __init__(self, root: str | None = None, home: str | None = None) -> None:
        self._normalise = Normaliser(root, home)
        self._tail: deque[str] = deque(maxlen=TAIL_LINES)
        self._failing: dict[str, str] = {}
        self._assertions: list[str] = []
        self._lines = LineBuffer(_MAX_LINE)

    def feed(self, data: bytes) -> None:
        for raw in self._lines.feed(data):
            self._line(raw)

    def _line(self, raw: bytes) -> None:
        line = self._normalise(raw.decode("utf-8", "replace"))
        if not line.strip():
            return
        self._tail.append(line)
        if len(self._assertions) < _MAX_ASSERTIONS and ASSERTION_LINES.search(line):
            self._assertions.append(line.strip())
        if len(self._failing) >= _MAX_IDS:
            return
        for _runner, pattern in FAILING_TEST_LINES:
            m = pattern.match(line)
            if m:
                groups = m.groupdict()
                self._failing.setdefault(m.group("id"), (groups.get("msg") or "").strip())
                return

    def result(self, exit_code: int) -> Fingerprint:
        for raw in self._lines.close():
            self._line(raw)
        code = f"exit={exit_code}"
        if self._failing:
            ids = sorted(self._failing)
            strict = [f"{i} - {self._failing[i]}" for i in ids] + self._assertions + [code]
            loose = [_DIGITS.sub("#", i) for i in ids] + [code]
            return Fingerprint(_digest(strict), _digest(loose), "failing_tests")
        if self._tail:
            tail = list(self._tail)
            return Fingerprint(_digest([*tail, code]),
                               _digest([_DIGITS.sub("#", t) for t in tail] + [code]),
                               "output_tail")
        return Fingerprint(_digest([code]), _digest([code]), "exit_code")


def fingerprint(output: bytes, exit_code: int, root: str | None = None,
                home: str | None = None) -> Fingerprint:
    builder = FingerprintBuilder(root, home)
    builder.feed(output)
    return builder.result(exit_code)
