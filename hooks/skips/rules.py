"""Rules and packs: the data the skip guard runs on.

A rule is an id (SKP001..SKP009, docs/skip-guard.md), a one-line message, a regex, and a bad and a
good example that the test suite runs through the real staged-diff path. A pack is the rules
of one ecosystem with the files it applies to and how to lex them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Sequence

from hooks.skips.needles import literals

RULE_TITLES = {
    "SKP001": "a skip",
    "SKP002": "a focus that silently skips the rest",
    "SKP003": "a skip whose condition is constant",
    "SKP004": "a vacuous assertion or empty test body",
    "SKP005": "expected-failure or todo",
    "SKP006": "a test definition commented out",
    "SKP007": "a test made uncollectable",
    "SKP008": "a CI or config escape hatch",
    "SKP009": "an assertion removed from a test file with none added in its place",
}


# Where a comment can start, by lexer family: a rule about comments needs one on the line.
COMMENT_MARKERS: dict[str, tuple[str, ...]] = {
    "python": ("#",), "ruby": ("#",), "conf": ("#",), "php": ("//", "#", "/*", "*"),
    "js": ("//", "/*", "*"), "go": ("//", "/*", "*"), "c": ("//", "/*", "*"),
    "jvm": ("//", "/*", "*"),
}


# (the file's raw lines, its text, line number, column of the match) -> is it a finding?
Confirm = Callable[[Sequence[str], str, int, int], bool]


def lazy_confirm(module: str, name: str) -> Confirm:
    """The check NAME of hooks.skips.MODULE (pybody, cheats: they read Python with ast),
    imported only when a line needs it: most commits never do."""
    def confirm(lines: Sequence[str], text: str, line: int, col: int) -> bool:
        import importlib

        checks = importlib.import_module(f"hooks.skips.{module}")
        reported: bool = getattr(checks, name)(lines, text, line, col)
        return reported
    return confirm
# how many lines below a match ``body_start`` looks for the first non-blank one
BODY_START_LOOKAHEAD = 20


class LazyRegex:
    """A regex compiled on first use: importing every pack must not compile every pattern."""

    __slots__ = ("_compiled", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.source)
        return self._compiled

    def search(self, text: str) -> re.Match[str] | None:
        return self.compiled.search(text)


class Rule:
    """One pattern. ``scope`` says what it reads: the line's code (strings blanked, comments
    gone), its comment text, or the raw line (for patterns that live inside strings).
    ``previous``, when set, must match the nearest non-blank code line above.
    ``files``, when set, limits the rule to paths it matches; ``tests_only`` to the pack's
    test files. An ``opt_in`` rule runs only when ``--enable`` names its id. ``confirm``,
    when set, decides a match the regex can only propose (the file's raw lines, its text, the
    line and the column of the match -> reported?). ``body_start``, when set, is what the
    first non-blank line after the match (stripped) must satisfy for ``confirm`` to report it:
    the scan reads it from the added lines and drops the match without the file's content."""

    __slots__ = ("_needles", "_pattern", "bad", "before", "body_start", "confirm", "files", "good", "id",
                 "message", "opt_in", "previous", "sample", "scope", "source", "tests_only")

    def __init__(self, rule_id: str, message: str, pattern: str, bad: str, good: str, *,
                 scope: str = "code", files: str | None = None,
                 previous: str | None = None, sample: str | None = None,
                 before: str | None = None, tests_only: bool = False,
                 opt_in: bool = False, confirm: Confirm | None = None,
                 body_start: Callable[[str], bool] | None = None) -> None:
        assert rule_id in RULE_TITLES, rule_id  # noqa: S101  # a typo in the data is our bug
        self.id = rule_id
        self.message = message
        self.source = pattern
        self._pattern: re.Pattern[str] | None = None
        self._needles: tuple[str, ...] | bool | None = False
        self.confirm = confirm
        self.body_start = body_start
        self.bad = bad
        self.good = good
        self.scope = scope
        self.files = LazyRegex(files) if files else None
        self.previous = LazyRegex(previous) if previous else None
        self.sample = sample  # where its examples are staged, when not the pack's sample
        self.before = before  # committed before the example is staged (rules about removals)
        self.tests_only = tests_only  # only in the pack's test files (not library source)
        self.opt_in = opt_in  # below 90% precision on real history: runs only with --enable

    @property
    def needles(self) -> tuple[str, ...] | None:
        """Literal substrings, one of which every match contains (from the regex's own parse
        tree); None when there is none to rely on."""
        if self._needles is False:
            self._needles = literals(self.source)
        return self._needles if isinstance(self._needles, tuple) else None

    @property
    def pattern(self) -> re.Pattern[str]:
        """Compiled on first use: a commit only pays for the packs of the files it touches."""
        if self._pattern is None:
            self._pattern = re.compile(self.source)
        return self._pattern


class Pack:
    """The rules of one ecosystem (which files it reads: ``hooks.skips.FILES``)."""

    __slots__ = ("_gate", "_needles", "assertion", "family", "name", "rules",
                 "sample", "test_definition", "test_files", "test_module")

    def __init__(self, name: str, *, family: str, sample: str, rules: Sequence[Rule],
                 test_files: str | None = None, assertion: str | None = None,
                 test_definition: str | None = None, test_module: str | None = None) -> None:
        self.name = name
        self.family = family
        self.sample = sample  # the file name examples are staged under
        self.rules = tuple(rules)
        self.test_files = LazyRegex(test_files) if test_files else None
        self.assertion = LazyRegex(assertion) if assertion else None
        self.test_definition = LazyRegex(test_definition) if test_definition else None
        # in a source file that is not a test file, where its tests start (Rust's
        # #[cfg(test)] module): only assertions below it are the tests' assertions
        self.test_module = LazyRegex(test_module) if test_module else None
        self._needles: tuple[str, ...] | bool | None = False  # False: not computed yet
        self._gate: re.Pattern[str] | None = None

    @property
    def gate(self) -> re.Pattern[str]:
        """One literal alternation of every rule's needles: a line it does not match cannot
        match any rule of the pack (matches everything when some rule has no needle)."""
        if self._gate is None:
            needles = self.needles
            self._gate = re.compile("|".join(re.escape(n) for n in needles) if needles else "")
        return self._gate

    def needles_of(self, rule: Rule) -> tuple[str, ...] | None:
        """What must be on a raw line before RULE can match it: a comment marker for a rule
        about comments, else the literals of the rule's regex."""
        if rule.scope == "comment":
            return COMMENT_MARKERS.get(self.family)
        return rule.needles

    @property
    def needles(self) -> tuple[str, ...] | None:
        """Substrings one of which is in every line some rule of the pack matches; None when a
        rule has no such literal. ``in`` checks cost a fraction of a regex search."""
        if self._needles is False:
            found: list[str] = []
            for rule in self.rules:
                needles = self.needles_of(rule)
                if needles is None:
                    self._needles = None
                    return None
                found += needles
            self._needles = tuple(dict.fromkeys(found))
        return self._needles if isinstance(self._needles, tuple) else None

    def is_test_file(self, path: str) -> bool:
        return bool(self.test_files and self.test_files.search(path))


# Rules about what a change removes, judged per file from the diff (not per added line), for
# every pack that says what its assertions and test definitions look like.
REMOVED_ASSERTION = Rule(
    "SKP009", "assertion removed from a test file with none added in its place", r"(?!)",
    before="def test_pay():\n    total = pay()\n    assert total == 1\n",
    bad="def test_pay():\n    total = pay()\n",
    good="def test_pay():\n    total = pay()\n    assert total == pay_expected()\n",
    scope="change", sample="tests/test_pay.py")
RENAMED_TEST = Rule(
    "SKP007", "test renamed so the runner no longer collects it", r"(?!)",
    before="def test_pay():\n    assert pay() == 1\n",
    bad="def _test_pay():\n    assert pay() == 1\n",
    good="def test_pay_once():\n    assert pay() == 1\n",
    scope="change", sample="tests/test_pay.py")
RENAMED_TEST_MODULE = Rule(
    "SKP007", "test file renamed to a name its runner does not collect (test_*.py, "
    "*.test.js, *_test.go, *_spec.rb)",
    r"(?!)", bad="git mv tests/test_pay.py tests/pay_tests.py",
    good="git mv tests/test_pay.py tests/test_payment.py", scope="change")
# judged on the rename itself (git mv), so it has no before/after example of one path
CHANGE_RULES = (REMOVED_ASSERTION, RENAMED_TEST)
