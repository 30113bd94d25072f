"""Test counts read from a runner's output as it streams, or from a JUnit XML file.

Counts come from the runner that ran: the command names it (``python -m pytest`` is pytest,
whatever its tests print), and only that runner's summary is read, so a ``--- FAIL: TestX`` line
printed by a pytest test or a cargo summary inside a log counts for nothing. A command whose
runner is not known (``make test``) is read with every parser.

Each runner's closing line is one entry in ``SUMMARY_FORMATS``: a cheap substring that must be
on the line, a regex, and how its groups map to counts. The last summary line seen wins, except
that runners printing one summary per binary or package (cargo, go test -v) are summed. pytest
at ``-qq`` prints no summary, only progress lines: their marks count when no summary came.

pytest prints its summary last: a summary-shaped line after it (a conftest's
``pytest_unconfigure``, an ``atexit`` handler) is not pytest's and counts for nothing, unless
pytest ran again in between (a session header or a progress line came: ``pytest a && pytest
b``). A test printing such a line before the summary is overridden by the summary itself.

Lines read as they accumulate (unittest, mocha, node, TAP, uvu, ava) are parsed in
``TestCounter``. A project's own summary line (the config's ``summary-pattern``) is tried first
on every line, and once it matched its last match is the result.

The XML parser is imported only for ``--junit``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Collection
from collections.abc import Sequence

from hooks.core.config import SUMMARY_GROUPS
from hooks.core.text import LineBuffer
from hooks.core.text import visible

Counts = dict[str, object]

_MAX_LINE = 4096  # a summary line is short; longer lines are only scanned for their start


def _num(text: str | None) -> int:
    return int(text) if text else 0


def _words(line: str) -> dict[str, int]:
    """'3 passed, 1 failed, 2 skipped' -> {'passed': 3, 'failed': 1, 'skipped': 2}."""
    return {word: int(n) for n, word in re.findall(r"(\d+) ([a-z]+)", line)}


def _items(body: str) -> dict[str, int]:
    """'1 failed, 2 passed, 1 rerun, 2 subtests passed' -> each 'N words' item by its words."""
    found: dict[str, int] = {}
    for item in body.split(","):
        n, _, words = item.strip().partition(" ")
        found[words] = found.get(words, 0) + int(n)
    return found


def _counts(runner: str, passed: int, failed: int, skipped: int, errors: int,
            total: int | None = None) -> Counts:
    return {
        "runner": runner,
        "passed": passed,
        "failed": failed,
        "skipped": skipped,
        "errors": errors,
        "total": total if total is not None else passed + failed + skipped + errors,
    }


def _pytest(m: re.Match[str]) -> Counts:
    """Tests by their outcome; items that count no test (deselected, warnings, reruns,
    subtests passed or skipped) are left out, but a failed subtest is a failure."""
    w = _items(m.group("body"))
    failed = sum(n for words, n in w.items() if words.endswith("failed") and words != "xfailed")
    return _counts("pytest", w.get("passed", 0) + w.get("xpassed", 0), failed,
                   w.get("skipped", 0) + w.get("xfailed", 0),
                   w.get("error", 0) + w.get("errors", 0))


def _jest(m: re.Match[str]) -> Counts:
    w = _words(m.group("body"))
    skipped = w.get("skipped", 0) + w.get("todo", 0)
    return _counts("jest", w.get("passed", 0), w.get("failed", 0), skipped, 0,
                   total=w.get("total"))


def _vitest(m: re.Match[str]) -> Counts:
    w = _words(m.group("body"))
    return _counts("vitest", w.get("passed", 0), w.get("failed", 0),
                   w.get("skipped", 0) + w.get("todo", 0), 0, total=_num(m.group("total")))


def _plain(m: re.Match[str]) -> Counts:
    w = _words(m.group("body"))
    return _counts("plain", w.get("passed", 0), w.get("failed", 0), w.get("skipped", 0), 0)


class SummaryFormat:
    """A runner's summary line. A plain class: ``dataclasses`` costs every run an import of
    ``inspect``."""

    __slots__ = ("counts", "needle", "pattern", "runner")

    def __init__(self, runner: str, needle: str, pattern: re.Pattern[str],
                 counts: Callable[[re.Match[str]], Counts]) -> None:
        self.runner = runner
        # a substring every matching line contains: skips the regex on other lines
        self.needle = needle
        self.pattern = pattern
        self.counts = counts


SUMMARY_FORMATS: tuple[SummaryFormat, ...] = (
    SummaryFormat(
        "pytest", " in ",
        # by its shape, any "N word" items: plugins add their own (1 rerun, 2 subtests passed)
        re.compile(r"^(?:=+ )?(?P<body>\d+ [a-z]+(?: [a-z]+)*(?:, \d+ [a-z]+(?: [a-z]+)*)*)"
                   r" in [\d.]+s(?: \([^)]*\))?(?: =+)?$"),
        _pytest,
    ),
    SummaryFormat(
        "jest", "Tests:",
        re.compile(r"^Tests:\s+(?P<body>.*\d+ total)\s*$"),
        _jest,
    ),
    SummaryFormat(
        "vitest", "Tests",
        re.compile(r"^\s*Tests\s+(?P<body>(?:\d+ [a-z]+(?: \| )?)+)\s*\((?P<total>\d+)\)\s*$"),
        _vitest,
    ),
    SummaryFormat(
        "plain", "passed",
        # "297 passed", "3 passed, 1 failed", "1 failed, 3 passed, 2 skipped", "Result: 3 passed"
        re.compile(r"^(?:[A-Za-z]+: )?(?P<body>\d+ (?:passed|failed|skipped)"
                   r"(?:, \d+ (?:passed|failed|skipped)){0,2})\s*$"),
        _plain,
    ),
)

# unittest prints "Ran N tests in Xs" then, after a blank line, "OK (skipped=1)" or
# "FAILED (failures=1, errors=2)"; mocha prints "N passing", then "N failing", "N pending".
_UNITTEST_RAN = re.compile(r"^Ran (\d+) tests? in [\d.]+s$")
_UNITTEST_END = re.compile(r"^(OK|FAILED)(?: \((.*)\))?$")
_MOCHA = re.compile(r"^\s*(\d+) (passing|failing|pending)(?: \(\d+m?s\))?\s*$")
_CARGO = re.compile(r"^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored;")
_GO_TEST = re.compile(r"^\s*--- (PASS|FAIL|SKIP): ")
# pytest's progress lines, all it prints at -qq (or -q with addopts = "-q"): one mark per test
# then the progress, "..F.s  [ 40%]" (or "[2/5]" with console_output_style = count). Read only
# when no summary line came, and only marks pytest prints: . F E s x X.
_PYTEST_PROGRESS = re.compile(r"^(?P<marks>[.A-Za-z]+)\s*\[\s*(?:\d+%|\d+/\d+)\]$")
# What pytest prints only while a session runs: its header, a progress line at any verbosity
# ("tests/test_a.py ..s  [ 40%]", "t.py::test_a PASSED  [100%]", classic style's "..s").
_PYTEST_SESSION = re.compile(r"(?:\[\s*\d+%\]|\[\d+/\d+\])$|^=+ test session starts =+$"
                             r"|^[.FEsxX]+$")
_PROGRESS_MARKS = {".": "passed", "X": "passed", "F": "failed", "E": "errors",
                   "s": "skipped", "x": "skipped"}
# node --test: the TAP reporter's "# pass 2" and the spec reporter's "\u2139 pass 2" lines.
_NODE = re.compile(r"^(?:#|\u2139) (tests|pass|fail|cancelled|skipped|todo|duration_ms) "
                   r"(\d+)(?:\.\d+)?$")
# Any TAP producer's closing comments (tape, zora, node-tap): "# tests 3", "# pass  2",
# "# fail  1", "# skip 1", "# todo 1".
_TAP = re.compile(r"^# (tests|pass|fail|skip|todo)\s+(\d+)$")
# uvu: "Total:     44", "Passed:    44", "Skipped:   0" on lines of their own or on one.
_UVU = re.compile(r"(Total|Passed|Skipped):\s+(\d+)")
_UVU_LINE = re.compile(r"^(?:(?:Total|Passed|Skipped|Duration):\s+\S+\s*)+$")
# ava: "2 tests passed", "1 test failed", "1 known failure", "1 uncaught exception", ...
_AVA = re.compile(r"^(\d+) (tests? (?:passed|failed|skipped|todo)|known failures?|"
                  r"uncaught exceptions?|unhandled rejections?|tests? remained pending)$")
# How ava's closing words count: a known failure is an expected one (as pytest's xfailed).
_AVA_KINDS = {"passed": "passed", "failed": "failed", "skipped": "skipped", "todo": "skipped",
              "failure": "skipped", "failures": "skipped", "pending": "failed"}
# go test -json: one event per line; a test's last event says how it ended.
_GO_JSON = re.compile(r'"Action":\s*"(pass|fail|skip)"')
_GO_JSON_TEST = re.compile(r'"Test":\s*"')

# The parsers that read each runner's output, by the runner the command starts (see
# hooks.receipt.command.invocation); a package script may run any JavaScript runner.
PARSERS: dict[str, frozenset[str]] = {
    "pytest": frozenset({"pytest"}), "unittest": frozenset({"unittest"}),
    "jest": frozenset({"jest"}), "vitest": frozenset({"vitest"}),
    "mocha": frozenset({"mocha"}), "go": frozenset({"go"}), "cargo": frozenset({"cargo"}),
    "node": frozenset({"node"}), "bun": frozenset(),
    "script": frozenset({"jest", "vitest", "mocha", "node", "plain", "uvu", "ava", "tap"}),
}


def parsers_for(argv: Sequence[str]) -> frozenset[str] | None:
    """The parsers for the runners ARGV starts; None (every parser) when it starts none known."""
    from hooks.receipt.command.invocation import invocations

    found: set[str] = set()
    known = False
    for inv in invocations(argv):
        if inv.known and inv.kind in PARSERS:
            known = True
            found |= PARSERS[inv.kind]
    return frozenset(found) if known else None


class TestCounter:
    """Feed output bytes as they arrive; ``result()`` gives the counts or None."""

    __test__ = False  # not a pytest test class, despite the name

    def __init__(self, parsers: Collection[str] | None = None,
                 custom: re.Pattern[str] | None = None) -> None:
        """PARSERS: the runners whose summaries count (``parsers_for(argv)``); None: all.
        CUSTOM: the project's own summary line (``summary-pattern``), read before the others."""
        self._on = frozenset(parsers) if parsers is not None else None
        self._custom = custom
        self._own: Counts | None = None  # the last line CUSTOM matched: it wins
        self._tap: dict[str, int] = {}
        self._uvu: dict[str, int] = {}
        self._ava: dict[str, int] = {}
        self._lines = LineBuffer(_MAX_LINE)
        self._last: Counts | None = None
        self._unittest_ran: int | None = None
        self._mocha: dict[str, int] = {}
        self._cargo = [0, 0, 0]
        self._cargo_seen = False
        self._go = {"PASS": 0, "FAIL": 0, "SKIP": 0}
        self._node: dict[str, int] = {}
        self._progress: dict[str, int] = {}
        # pytest's summary came and no session ran since: later summary lines are not its own
        self._pytest_done = False

    @classmethod
    def for_command(cls, argv: Sequence[str],
                    custom: re.Pattern[str] | None = None) -> TestCounter:
        return cls(parsers_for(argv), custom)

    def _reads(self, runner: str) -> bool:
        return self._on is None or runner in self._on

    def feed(self, data: bytes) -> None:
        for raw in self._lines.feed(data):
            self._line(raw)

    def close(self) -> None:
        for raw in self._lines.close():
            self._line(raw)

    def _line(self, raw: bytes) -> None:
        line = visible(raw.decode("utf-8", "replace"))
        stripped = line.strip()
        if self._custom is not None:
            m = self._custom.search(stripped)
            if m:
                self._own = custom_counts(m)
                return
        for fmt in SUMMARY_FORMATS:
            if fmt.needle in line and self._reads(fmt.runner):
                m = fmt.pattern.match(stripped if fmt.runner != "vitest" else line)
                if m:
                    if fmt.runner == "pytest":
                        if self._pytest_done:
                            return
                        self._pytest_done = True
                    self._last = fmt.counts(m)
                    return
        if self._pytest_done and self._reads("pytest") and _PYTEST_SESSION.search(stripped):
            self._pytest_done = False  # pytest runs again: its next summary counts
        if stripped.endswith("]") and self._reads("pytest"):
            m = _PYTEST_PROGRESS.match(stripped)
            if m:
                for mark in m.group("marks"):
                    kind = _PROGRESS_MARKS.get(mark)
                    if kind is not None:
                        self._progress[kind] = self._progress.get(kind, 0) + 1
                return
        if self._reads("unittest"):
            m = _UNITTEST_RAN.match(stripped)
            if m:
                self._unittest_ran = int(m.group(1))
                return
            if self._unittest_ran is not None:
                m = _UNITTEST_END.match(stripped)
                if m:
                    self._last = self._unittest(m.group(1), m.group(2) or "")
                    self._unittest_ran = None
                    return
        if self._reads("mocha"):
            m = _MOCHA.match(line)
            if m:
                self._mocha[m.group(2)] = int(m.group(1))
                self._last = _counts("mocha", self._mocha.get("passing", 0),
                                     self._mocha.get("failing", 0),
                                     self._mocha.get("pending", 0), 0)
                return
        if self._reads("node") and (line.startswith("# ") or line.startswith("\u2139 ")):
            m = _NODE.match(stripped)
            if m:
                self._node_line(m.group(1), int(m.group(2)))
        if line.startswith("# ") and self._reads("tap"):  # node's TAP lines are TAP too
            m = _TAP.match(stripped)
            if m:
                self._tap_line(m.group(1), int(m.group(2)))
        if line.startswith(("# ", "\u2139 ")):
            return
        if ":" in stripped and self._reads("uvu") and _UVU_LINE.match(stripped):
            self._uvu_line(stripped)
            return
        if stripped[:1].isdigit() and self._reads("ava"):
            m = _AVA.match(stripped)
            if m:
                self._ava_line(m.group(2), int(m.group(1)))
                return
        if line.startswith("test result: ") and self._reads("cargo"):
            m = _CARGO.match(line)
            if m:
                self._cargo_seen = True
                for i in range(3):
                    self._cargo[i] += int(m.group(i + 1))
            return
        if "--- " in line and self._reads("go"):
            m = _GO_TEST.match(line)
            if m:
                self._go[m.group(1)] += 1
        elif line.startswith("{") and self._reads("go") and _GO_JSON_TEST.search(line):
            m = _GO_JSON.search(line)
            if m:
                self._go[m.group(1).upper()] += 1

    def _tap_line(self, name: str, value: int) -> None:
        if name == "tests":  # the first line of a summary: a new one starts
            self._tap = {}
        self._tap[name] = value
        t = self._tap
        self._last = _counts("tap", t.get("pass", 0), t.get("fail", 0),
                             t.get("skip", 0) + t.get("todo", 0), 0,
                             total=t.get("tests"))

    def _uvu_line(self, line: str) -> None:
        for name, value in _UVU.findall(line):
            if name == "Total":  # the first line of a summary: a new one starts
                self._uvu = {}
            self._uvu[name] = int(value)
        u = self._uvu
        if "Total" in u:
            passed, skipped = u.get("Passed", 0), u.get("Skipped", 0)
            self._last = _counts("uvu", passed, max(u["Total"] - passed - skipped, 0), skipped,
                                 0, total=u["Total"])

    def _ava_line(self, what: str, value: int) -> None:
        self._ava[what] = value
        a: dict[str, int] = {}
        for key, n in self._ava.items():
            kind = _AVA_KINDS.get(key.split()[-1], "errors")  # exceptions, rejections
            a[kind] = a.get(kind, 0) + n
        self._last = _counts("ava", a.get("passed", 0), a.get("failed", 0),
                             a.get("skipped", 0), a.get("errors", 0))

    def _node_line(self, name: str, value: int) -> None:
        if name == "tests":  # the first line of a summary: a new one starts
            self._node = {}
        self._node[name] = value
        if name == "duration_ms" and "tests" in self._node:  # the last line of one
            n = self._node
            self._last = _counts("node", n.get("pass", 0), n.get("fail", 0),
                                 n.get("skipped", 0) + n.get("todo", 0), n.get("cancelled", 0),
                                 total=n["tests"])

    def _unittest(self, verdict: str, detail: str) -> Counts:
        ran = self._unittest_ran or 0
        info = {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", detail)}
        failed = info.get("failures", 0) + info.get("unexpected_successes", 0)
        errors = info.get("errors", 0)
        skipped = info.get("skipped", 0) + info.get("expected_failures", 0)
        passed = max(ran - failed - errors - skipped, 0)
        return _counts("unittest", passed, failed, skipped, errors, total=ran)

    def result(self) -> Counts | None:
        self.close()
        if self._own is not None:
            return self._own
        if self._cargo_seen:
            passed, failed, ignored = self._cargo
            return _counts("cargo", passed, failed, ignored, 0)
        if any(self._go.values()):
            return _counts("go", self._go["PASS"], self._go["FAIL"], self._go["SKIP"], 0)
        if self._last is None and self._progress:  # pytest -qq: no summary, only progress
            p = self._progress
            return _counts("pytest", p.get("passed", 0), p.get("failed", 0),
                           p.get("skipped", 0), p.get("errors", 0))
        return self._last


def custom_counts(m: re.Match[str]) -> Counts:
    """Counts from a match of a project's ``summary-pattern``: its named groups, 0 if absent."""
    groups = {name: int(value) for name, value in m.groupdict().items()
              if name in SUMMARY_GROUPS and value and value.isdigit()}
    return _counts("custom", groups.get("passed", 0), groups.get("failed", 0),
                   groups.get("skipped", 0), groups.get("errors", 0), total=groups.get("total"))


def counts_from_junit(xml_bytes: bytes) -> Counts:
    """Sum the testsuite elements of a JUnit XML report (pytest, jest-junit, surefire, ...)."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(xml_bytes)  # noqa: S314  # expat refuses entity expansion attacks
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    # nested suites repeat their children's counts: keep the innermost with test cases
    leaves = [s for s in suites if s.find("testcase") is not None] or suites
    total = failed = errors = skipped = 0
    for suite in leaves:
        cases = suite.findall("testcase")
        if cases:
            total += len(cases)
            for case in cases:
                if case.find("failure") is not None:
                    failed += 1
                elif case.find("error") is not None:
                    errors += 1
                elif case.find("skipped") is not None:
                    skipped += 1
        else:
            total += int(suite.get("tests", "0"))
            failed += int(suite.get("failures", "0"))
            errors += int(suite.get("errors", "0"))
            skipped += int(suite.get("skipped", suite.get("disabled", "0")))
    passed = max(total - failed - errors - skipped, 0)
    return _counts("junit", passed, failed, skipped, errors, total=total)
