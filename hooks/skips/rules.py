"""Rules and packs: the data the skip guard runs on.

A rule is an id (SKP001..SKP009, DESIGN.md), a one-line message, a regex, and a bad and a
good example that the test suite runs through the real staged-diff path. A pack is the rules
of one ecosystem with the files it applies to and how to lex them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

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


class Rule:
    """One pattern. ``scope`` says what it reads: the line's code (strings blanked, comments
    gone), its comment text, or the raw line (for patterns that live inside strings).
    ``previous``, when set, must match the nearest non-blank code line above.
    ``files``, when set, limits the rule to paths it matches."""

    __slots__ = ("bad", "before", "files", "good", "id", "message", "pattern", "previous",
                 "sample", "scope")

    def __init__(self, rule_id: str, message: str, pattern: str, bad: str, good: str, *,
                 scope: str = "code", files: str | None = None,
                 previous: str | None = None, sample: str | None = None,
                 before: str | None = None) -> None:
        assert rule_id in RULE_TITLES, rule_id  # noqa: S101  # a typo in the data is our bug
        self.id = rule_id
        self.message = message
        self.pattern = re.compile(pattern)
        self.bad = bad
        self.good = good
        self.scope = scope
        self.files = re.compile(files) if files else None
        self.previous = re.compile(previous) if previous else None
        self.sample = sample  # where its examples are staged, when not the pack's sample
        self.before = before  # committed before the example is staged (rules about removals)


class Pack:
    """The rules of one ecosystem and the files they apply to."""

    __slots__ = ("assertion", "extensions", "family", "name", "paths", "rules", "sample",
                 "test_definition", "test_files")

    def __init__(self, name: str, *, family: str, extensions: Sequence[str] = (),
                 paths: str | None = None, sample: str, rules: Sequence[Rule],
                 test_files: str | None = None, assertion: str | None = None,
                 test_definition: str | None = None) -> None:
        self.name = name
        self.family = family
        self.extensions = frozenset(extensions)
        self.paths = re.compile(paths) if paths else None
        self.sample = sample  # the file name examples are staged under
        self.rules = tuple(rules)
        self.test_files = re.compile(test_files) if test_files else None
        self.assertion = re.compile(assertion) if assertion else None
        self.test_definition = re.compile(test_definition) if test_definition else None

    def covers(self, path: str) -> bool:
        ext = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
        return ext in self.extensions or bool(self.paths and self.paths.search(path))

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
CHANGE_RULES = (REMOVED_ASSERTION, RENAMED_TEST)
