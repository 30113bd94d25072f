"""Judgements about the change as a whole, not one added line at a time.

- A construct the change also removes is not an insertion: a re-indented ``@Ignore``, a
  retitled ``test.failing(...)``, a module renamed on a line that already had ``-DskipTests``,
  a skip moved to another file. Counted as a multiset over the whole change, so only net new
  constructs are reported.
- SKP009 and SKP010: assertions removed with nothing in their place, from a test that remains
  (SKP009) or with the test itself (SKP010). Removed lines are lexed (a comment or a string
  that says "should" or "assert" is not an assertion); an assertion counts as the framework
  defines one (Go's on the test's *testing.T, Python's inside a test function); one still
  next to its twin (removed with nothing but what is still there around it), re-added or
  added in the same shape anywhere in the change (moved), or replaced by a raising, polling
  or helper form, is not lost; nor is a duplicate test's (its whole body still in the file),
  nor a skipped test's. A test deleted with its class or describe block is deleted, even where
  another class keeps a test of its name. A test file deleted is its tests deleted (SKP010), unless its checks
  are in a test file of the change that took some of its lines (merged there).
- SKP006 is dropped for a test commented out whose title a live line the change adds gives
  to another call (the helper it became: it still runs).
- SKP007: a test definition renamed so the runner no longer collects it, judged only on the
  added line that replaced it (same hunk, same position) and only when nothing but the name
  changed and the new name keeps the old one's subject without a collectable prefix; and a
  test module renamed to a file name pytest does not collect.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from itertools import islice

from hooks.skips.filescan import ChangedFile
from hooks.skips.filescan import FileScan
from hooks.skips.filescan import Hit
from hooks.skips.filescan import code_blocks
from hooks.skips.rules import DELETED_TEST
from hooks.skips.rules import REMOVED_ASSERTION
from hooks.skips.rules import RENAMED_TEST
from hooks.skips.rules import RENAMED_TEST_MODULE
from hooks.skips.rules import LazyRegex
from hooks.skips.rules import Pack
from hooks.skips.rules import Rule

Contents = Callable[[Sequence[str]], "dict[str, str | None]"]


def _norm(text: str) -> str:
    return "".join(text.split())


def _net_new(files: Sequence[ChangedFile], hits: list[Hit]) -> list[Hit]:
    """Drop hits whose construct the change also removes (moved, re-indented, retitled):
    by the construct's text anywhere in the change, then, for a rule whose spellings are one
    construct, by the rule in the file that replaced a deleted one (Foo.java by Foo.kt,
    its JUnit 4 @Ignore now JUnit 5's @Disabled)."""
    if not hits:
        return hits
    # removed lines, raw and as code (a construct named in a removed string or comment
    # did not exist before), with the file they left
    removed = [(raw, code, comment, f.diff.path, pos) for f in files if f.diff.removed
               for pos, raw, code, comment in code_blocks(f.removed(), f.packs[0].family, 0)]
    rules = {id(h.rule): h.rule for h in hits}.values()
    found = _excuse(hits, removed, rules, lambda rule, text, _stem: _construct(rule, text))
    # a file deleted and one of its name added (a conversion): its skips carried over
    # (a respelling in place is respelled.py's, by the hunk it sits in)
    converted = [r for f in files if f.diff.deleted
                 for r in removed if _stem_of(r[3]) == _stem_of(f.diff.path)]
    return _excuse(found, converted, [r for r in rules if r.id in _ONE_CONSTRUCT],
                   lambda rule, text, stem: (rule.id, rule.source, stem)
                   if rule.id in _ONE_CONSTRUCT and _construct(rule, text) else None)


Removed = tuple[str, str, str, str, int]  # raw, code, comment, path, new-side position
Key = Callable[["Rule", str, str], "tuple[str, ...] | None"]


def _excuse(hits: list[Hit], removed: Sequence[Removed], rules: Iterable[Rule],
            key_of: Key) -> list[Hit]:
    """HITS less those a removed construct of the same KEY_OF excuses, each removed one
    the added line that replaced it in place, else the one most like the line it was on."""
    from difflib import SequenceMatcher

    # key -> the removed lines (normalised, with where they were)
    before: dict[tuple[str, ...], list[tuple[str, str, int]]] = {}
    for rule in rules:
        for raw, code, comment, path, pos in removed:
            layer = {"code": code, "comment": comment}.get(rule.scope, raw)
            key = key_of(rule, layer, _stem_of(path))
            if key:
                before.setdefault(key, []).append((_norm(raw), path, pos))
    if not before:
        return hits
    by_key: dict[tuple[str, ...], list[Hit]] = {}
    for hit in hits:
        key = key_of(hit.rule, hit.text, _stem_of(hit.path))
        if key in before:
            by_key.setdefault(key, []).append(hit)
    excused: set[int] = set()
    for key, group in by_key.items():
        def likeness(hit: Hit, olds: list[tuple[str, str, int]] = before[key]) -> float:
            # the line that replaced a removed one in its hunk first: a retitled test's
            # skip, not a new skipped test below it that happens to read alike
            return max(SequenceMatcher(None, _norm(hit.text), old).ratio()
                       + (path == hit.path and abs(hit.line - pos) <= 1)
                       for old, path, pos in olds)
        group.sort(key=likeness, reverse=True)
        excused.update(id(h) for h in group[:len(before[key])])
    return [h for h in hits if id(h) not in excused]


def _stem_of(path: str) -> str:
    """A file's name without directory and extension: FooTest.java and FooTest.kt share it."""
    return path.rsplit("/", 1)[-1].split(".", 1)[0].lower()


# rules whose every spelling is the same construct: a test disabled is one whether it says
# @Ignore (JUnit 4) or @Disabled (JUnit 5), in Foo.java or in the Foo.kt that replaced it
_ONE_CONSTRUCT = frozenset({"SKP001", "SKP005"})


def _construct(rule: Rule, text: str) -> tuple[str, str] | None:
    m = rule.pattern.search(text.lstrip() if rule.scope == "comment" else text)
    return (rule.id, _norm(m.group(0))) if m else None


def _assertion_pack(f: ChangedFile) -> Pack | None:
    return next((p for p in f.packs if p.assertion and
                 (p.is_test_file(f.diff.path) or p.test_module)), None)


Removal = tuple[int, str, str]  # (new-side position, raw line, the line as code)


def _live_runs(f: ChangedFile, pack: Pack) -> list[list[Removal]]:
    """The removed lines as code, one list per run of adjacent removed lines, less the runs
    that begin with a skipped test (its header: decorator or definition in the first lines of
    the run): deleting a skipped test loses no check that ran."""
    skips = [r for r in pack.rules if r.id in ("SKP001", "SKP005") and r.scope == "code"]
    runs: dict[int, list[Removal]] = {}
    for pos, raw, code, _ in code_blocks(f.removed(), pack.family, 0):
        runs.setdefault(pos, []).append((pos, raw, code))
    out: list[list[Removal]] = []
    for run in runs.values():
        header = [code for _, _, code in run if code.strip()][:3]
        if not any(r.pattern.search(code) for r in skips for code in header):
            out.append(run)
    return out


def _checks(pack: Pack, code: str, receivers: frozenset[str]) -> bool:
    """CODE holds one of the framework's checks (a receiver, where the pattern names one,
    declared as the test's)."""
    assertion = pack.assertion
    if assertion is None:
        return False
    for m in assertion.compiled.finditer(code):
        recv = m.groupdict().get("recv")
        if recv is None or recv in receivers:
            return True
    return False


def _checks_or_replaces(pack: Pack, code: str, receivers: frozenset[str]) -> bool:
    """An added line that checks: an assertion, or a form that replaces one."""
    if _checks(pack, code, receivers):
        return True
    return pack.replacement is not None and pack.replacement.search(code) is not None


def _receivers(pack: Pack, texts: Sequence[str]) -> frozenset[str]:
    if pack.receivers is None:
        return frozenset()
    return frozenset(name for text in texts for m in pack.receivers.compiled.finditer(text)
                     for name in m.groups() if name)


_TEST_NAME = LazyRegex(r"\b(?:def|fn|func|fun|void|class|sub)\s+(?:\([^)]*\)\s*)?(\w+)"
                       r"|^\s*\w+(?:\.\w+)*\s*\(\s*([\"'`])(.+?)\2")


def _test_name(lines: Sequence[str]) -> str | None:
    """The name a test definition gives (def test_pay, fn pays, it('pays')), read from its
    first lines (an annotation's test is named on the line below)."""
    for text in lines[:4]:
        m = _TEST_NAME.search(text)
        if m:
            return m.group(1) or m.group(3)
    return None


def _still_defined(name: str, after: str) -> bool:
    if name not in after:  # most often (a deleted file's after is empty): no regex to build
        return False
    import re

    word = re.escape(name)
    return re.search(rf"\b(?:def|fn|func|fun|void|class|sub)\s+(?:\([^)]*\)\s*)?{word}\b"
                     rf"|([\"'`]){word}\1", after) is not None


_ASSIGNED = LazyRegex(r"^\s*(?:var\s+)?(\w+)(?:\s*,\s*\w+)*\s*:?=")


def _setup_check(guard: LazyRegex, above: Iterable[str], run: Sequence[str], i: int) -> bool:
    """The check sits right under an error guard (``if err != nil``), or under an ``if`` on a
    value that lines removed with it (RUN's lines above its I-th) computed: setup deleted
    together with its check."""
    condition = next((t for t in above if t.strip()), "")
    if guard.search(condition):
        return True
    if not condition.lstrip().startswith("if "):
        return False
    removed_above = run[:i]
    if condition not in removed_above:
        return False
    import re

    made = {m.group(1) for t in removed_above if (m := _ASSIGNED.search(t))}
    return any(re.search(rf"\b{re.escape(name)}\b", condition) for name in made)


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def _enclosing(above: Iterable[str], line: str, definition: LazyRegex) -> str | None:
    """The definition line of the function or class LINE sits in, reading ABOVE (nearest
    first) by indentation; None at module level."""
    bound = _indent(line)
    for text in above:
        # a closing bracket at the left ends a definition's parameters, not its function
        if not text.strip() or _indent(text) >= bound or text.lstrip()[:1] in ")]}":
            continue
        if definition.search(text):
            return text
        bound = _indent(text)
        if bound == 0:
            return None
    return None


class _Loss:
    """The checks a file lost: in tests it still has (SKP009), with tests it deleted (SKP010)."""

    __slots__ = ("in_deleted", "in_remaining")

    def __init__(self) -> None:
        self.in_remaining: list[tuple[int, str]] = []
        self.in_deleted: list[tuple[int, str]] = []


class _Above:
    """What is above a removed line, nearest first, read in place (no copy: a deleted file's
    every check has the whole file above it): RUN's lines above its I-th, then the FILE's
    lines above POS."""

    __slots__ = ("_file", "_i", "_pos", "_run")

    def __init__(self, run: Sequence[str], i: int, file: Sequence[str], pos: int) -> None:
        self._run, self._i, self._file, self._pos = run, i, file, min(pos, len(file))

    def __iter__(self) -> Iterator[str]:
        for k in range(self._i - 1, -1, -1):
            yield self._run[k]
        for k in range(self._pos - 1, -1, -1):
            yield self._file[k]

    def index(self, text: str) -> int:
        """Where TEXT first is, counted from the nearest line."""
        for k, line in enumerate(self):
            if line == text:
                return k
        raise ValueError(text)


def _sorted_losses(f: ChangedFile, pack: Pack, after: str, gone: set[tuple[int, str]],
                   created_or_moved: Callable[[str], bool]) -> _Loss:
    """Which of GONE (removed checks not re-added verbatim) are lost, and whether with a
    deleted test: a check inside a helper or a mock, setup's error check, one of a test that
    remains whose twin is still next to it (and all the removal took around it still there),
    a deleted test that was skipped or whose whole body is still in the file (a duplicate
    removed), or a check of the same shape added elsewhere in the change (moved) is not
    lost. A variant deleted (its setup differs, its checks read the same) is lost."""
    lines = after.split("\n")
    normal = [_norm(t) for t in lines]
    kept = [n for n in normal if n]
    loss = _Loss()
    for run in _live_runs(f, pack):
        raws = [raw for _, raw, _ in run]
        removed_block: bool | None = None  # the whole run still in the file, once asked
        duplicate: dict[int, bool] = {}  # a deleted test's definition: a duplicate's?
        for i, (pos, raw, _code) in enumerate(run):
            if (pos, raw) not in gone:
                continue
            above = _Above(raws, i, lines, pos)
            if pack.guard is not None and _setup_check(pack.guard, above, raws, i):
                continue
            if pack.function_definition is not None:
                where = _enclosing(above, raw, pack.function_definition)
                if where is None or not (pack.test_definition and (
                        pack.test_definition.search(where) or _in_test_class(
                            above, where, pack))):
                    continue  # a helper's or a mock's: no test's check
            if created_or_moved(raw):
                continue
            definition = _removed_definition(run, i, pack)
            name = None if definition is None else _test_name(raws[definition:definition + 4])
            container = None if definition is None else _removed_container(run, definition)
            if definition is None or (name is not None and _still_defined(name, after) and (
                    container is None or _still_defined(container, after))):
                # in a test that remains (its definition edited, not deleted): a duplicate
                # check removed next to its twin, with what the removal took around it
                if _norm(raw) in normal[max(pos - 6, 0):pos + 5]:
                    if removed_block is None:
                        removed_block = _contiguous([_norm(t) for t in raws if t.strip()], kept)
                    if removed_block:
                        continue
                loss.in_remaining.append((pos, raw))
                continue
            if definition not in duplicate:
                body = [_norm(t) for t in raws[definition + 1:_test_end(run, definition, pack)]
                        if t.strip()]
                duplicate[definition] = _skipped(run, definition, pack) or _contiguous(body, kept)
            if duplicate[definition]:
                # a skipped test deleted (no check of it ran), or a duplicate test removed,
                # its twin (setup and all) still in the file
                continue
            loss.in_deleted.append((pos, raw))
    return loss


def _in_test_class(above: _Above, method: str, pack: Pack) -> bool:
    """METHOD (a def line) is a method of a test class (unittest's setUp, a class Test*)."""
    definition = pack.function_definition
    assert definition is not None  # noqa: S101  # only packs that have one call this
    at = above.index(method)
    owner = _enclosing(islice(above, at + 1, None), method, definition)
    return owner is not None and owner.lstrip().startswith("class ") and (
        "Test" in owner or "TestCase" in owner)


def _skipped(run: Sequence[Removal], definition: int, pack: Pack) -> bool:
    """The test defined at DEFINITION in RUN was skipped: a skip on its definition line, the
    line below, or the annotations and decorators right above it (``@Ignore @Test fun``)."""
    skips = [r for r in pack.rules if r.id in ("SKP001", "SKP005") and r.scope == "code"]
    header = [run[j][2] for j in range(definition, min(definition + 2, len(run)))]
    j = definition - 1
    while j >= 0 and run[j][2].lstrip().startswith("@"):
        header.append(run[j][2])
        j -= 1
    return any(r.pattern.search(code) for r in skips for code in header)


def _test_end(run: Sequence[Removal], definition: int, pack: Pack) -> int:
    """Where the test defined at DEFINITION in RUN ends: at the next test's definition (and
    the annotations or decorators right above it), else the end of the run."""
    assert pack.test_definition is not None  # noqa: S101  # only packs that have one call this
    end = next((j for j in range(definition + 1, len(run))
                if pack.test_definition.search(run[j][1])), len(run))
    while end > definition + 1 and run[end - 1][1].lstrip().startswith("@"):
        end -= 1
    return end


# what groups tests: a Python or Ruby class, a describe/context/suite block of a JS runner
_CONTAINER = LazyRegex(r"^\s*(?:class\s+(\w+)|(?:describe|context|suite)\s*\(\s*([\"'`])(.+?)\2)")


def _removed_container(run: Sequence[Removal], definition: int) -> str | None:
    """The name of the class or describe block that encloses RUN's DEFINITION when the same
    removal took its opening line: a test of that name may remain elsewhere in the file (the
    same method in another class), but this one was deleted with its group."""
    raw = run[definition][1]
    indent = len(raw) - len(raw.lstrip())
    for j in range(definition - 1, -1, -1):
        text = run[j][1]
        if not text.strip() or len(text) - len(text.lstrip()) >= indent:
            continue
        m = _CONTAINER.search(text)
        if m:
            return m.group(1) or m.group(3)
        indent = len(text) - len(text.lstrip())
    return None


def _removed_definition(run: Sequence[Removal], i: int, pack: Pack) -> int | None:
    """The index in RUN of the test definition removed above its I-th line, if any."""
    if pack.test_definition is None:
        return None
    for j in range(i - 1, -1, -1):
        if pack.test_definition.search(run[j][1]):
            return j
    return None


def _contiguous(body: list[str], kept: list[str]) -> bool:
    """BODY (normalised, blank lines out) appears in order, as one block, in KEPT (a file's
    lines, normalised, blank lines out)."""
    width = len(body)
    return width > 0 and any(kept[k:k + width] == body for k in range(len(kept) - width + 1)
                             if kept[k] == body[0])


def _removed_assertions(files: Sequence[ChangedFile], contents: Contents,
                        enabled: frozenset[str]) -> list[Hit]:
    """SKP009 and SKP010 over the whole change. Most changes stop at the first check: no
    removed line looks like an assertion, so nothing added is lexed or compared."""
    suspects = [(f, pack) for f in files if f.diff.removed
                for pack in [_assertion_pack(f)] if pack is not None and pack.assertion
                and any(pack.assertion.search(t) for _, t in f.removed())]
    if not suspects:
        return []
    added_norm = {_norm(t) for f in files for _, t in f.added}
    counted: dict[str, list[str]] = {}
    texts = contents([f.diff.path for f, _ in suspects])

    def added_checks(f: ChangedFile) -> list[str]:
        """The lines F adds that check (as code)."""
        pack = _assertion_pack(f)
        if f.diff.path not in counted:
            receivers = frozenset() if pack is None else _receivers(
                pack, [texts.get(f.diff.path) or "", *(t for _, t in f.added)])
            counted[f.diff.path] = [] if pack is None else [
                code for _, _, code, _ in code_blocks(f.added, pack.family, 1)
                if _checks_or_replaces(pack, code, receivers)]
        return counted[f.diff.path]

    lost: dict[str, set[tuple[int, str]]] = {}
    for f, pack in suspects:
        after = texts.get(f.diff.path) or ""
        receivers = _receivers(pack, [after, *(t for _, t in f.removed())])
        gone = {(pos, raw) for run in _live_runs(f, pack) for pos, raw, code in run
                if _checks(pack, code, receivers) and _norm(raw) not in added_norm}
        if gone and not added_checks(f):
            lost[f.diff.path] = gone
    if not lost:
        return []
    from difflib import SequenceMatcher

    created = [f for f in files if f.diff.created]
    elsewhere = [_norm(code) for f in files for code in added_checks(f) if code.strip()]

    def moved(raw: str) -> bool:
        """A check of the same shape added anywhere in the change: moved, not lost."""
        mine = _norm(raw)
        return any(SequenceMatcher(None, mine, other).ratio() >= 0.8 for other in elsewhere)

    def merged_into(deleted: ChangedFile) -> set[str]:
        """The lines, normalised, of the test files the change edits or adds that took some
        of DELETED's own lines (its tests merged into them), as the change leaves them."""
        mine = {n for _, t in deleted.removed() if _substantive(n := _norm(t))}
        others = [f.diff.path for f in files if not f.diff.deleted
                  and any(p.assertion and p.is_test_file(f.diff.path) for p in f.packs)
                  and any(_norm(t) in mine for _, t in f.added)]
        if not others:
            return set()
        found = contents(others)
        return {n for p in others for t in (found.get(p) or "").split("\n") if (n := _norm(t))}

    found: list[Hit] = []
    for f, pack in suspects:
        if f.diff.path not in lost:
            continue
        after = texts.get(f.diff.path) or ""
        gone = lost[f.diff.path]
        if not pack.is_test_file(f.diff.path) and pack.test_module is not None:
            start = pack.test_module.search(after)  # only a test module's assertions count
            first = after.count("\n", 0, start.start()) + 1 if start else None
            gone = {(pos, raw) for pos, raw in gone if first is not None and pos > first}
        if f.diff.deleted:  # no test of a deleted file remains; one merged into another
            # test file of the change has its checks there, as that file is after it
            kept = merged_into(f)

            def merged_or_moved(raw: str, kept: set[str] = kept) -> bool:
                return _norm(raw) in kept or moved(raw)
            loss = _sorted_losses(f, pack, after, gone, merged_or_moved)
            loss.in_deleted, loss.in_remaining = loss.in_deleted + loss.in_remaining, []
        else:
            loss = _sorted_losses(f, pack, after, gone, moved)
        # tests moved to a file this change creates: their checks went with them
        budget = sum(len(added_checks(c)) for c in created)
        for rule, checks in ((REMOVED_ASSERTION, loss.in_remaining),
                             (DELETED_TEST, loss.in_deleted)):
            if checks and budget < len(checks) and (not rule.opt_in or rule.id in enabled):
                pos, raw = min(checks)
                found.append(Hit(f.diff.path, pos, 1, rule, raw))
            budget = max(budget - len(checks), 0)
    return found


_IMPORT = LazyRegex(r"^(?:import|from|package|require|use|using|include)\b|^#include")


def _substantive(normal: str) -> bool:
    """A normalised line that says something of its own: not an import, not a closer."""
    return len(normal) >= 12 and not _IMPORT.search(normal)


_NAME = LazyRegex(r"[A-Za-z_]\w*")
_NOT_COLLECTED = LazyRegex(r"(?i)^(?:_+|disabled_*|x|skip_*|ignore_*|no_*)+")
_COLLECTED = LazyRegex(r"(?i)^test_*")


def _stem(name: str) -> str:
    return _COLLECTED.compiled.sub("", _NOT_COLLECTED.compiled.sub("", name)).lower()


def _renamed(before: str, after: str) -> bool:
    """AFTER is BEFORE with only the test's name changed, to the old name with its
    collectable prefix changed (test_pay -> _test_pay, testPay -> disabled_testPay)."""
    old, new = _NAME.compiled.findall(before), _NAME.compiled.findall(after)
    if len(old) != len(new):
        return False
    changed = [(a, b) for a, b in zip(old, new) if a != b]
    if len(changed) != 1:
        return False
    a, b = changed[0]
    stem = _stem(a)
    # the new name keeps the old one's subject: test_pay -> _test_pay, check_pay, pay_disabled
    return (_COLLECTED.compiled.match(a) is not None and _COLLECTED.compiled.match(b) is None
            and bool(stem) and stem in b.lower() and _norm(before.replace(a, b)) == _norm(after))


def _renamed_tests(files: Sequence[ChangedFile]) -> list[Hit]:
    found: list[Hit] = []
    for f in files:
        if not f.diff.removed:  # nothing renamed: most new files
            continue
        for pack in f.packs:
            if not pack.test_definition or not pack.is_test_file(f.diff.path):
                continue
            added_at = dict(f.added)
            offset: Counter[int] = Counter()
            for pos, text in f.removed():
                i = offset[pos]  # the i-th removed line of a hunk faces its i-th added line
                offset[pos] += 1
                replacement = added_at.get(pos + i)
                if (replacement is not None and pack.test_definition.search(text)
                        and _renamed(text, replacement)):
                    indent = len(replacement) - len(replacement.lstrip())
                    found.append(Hit(f.diff.path, pos + i, indent + 1, RENAMED_TEST,
                                     replacement))
    return found


# the file names each runner collects by default (pytest's python_files, jest/vitest/mocha
# *.test.js and __tests__/, go's _test.go, RSpec's _spec.rb): a test file renamed out of its
# runner's pattern is never run again
_COLLECTED_FILES = (
    (LazyRegex(r"\.py$"), LazyRegex(r"(^|/)(test_[^/]*|[^/]*_test)\.py$")),
    (LazyRegex(r"\.[cm]?[jt]sx?$"), LazyRegex(r"\.(test|spec)\.[cm]?[jt]sx?$|(^|/)__tests__/")),
    (LazyRegex(r"\.go$"), LazyRegex(r"_test\.go$")),
    (LazyRegex(r"\.rb$"), LazyRegex(r"_spec\.rb$")),
)


def _left_the_pattern(old: str, new: str) -> bool:
    return any(lang.search(old) and collected.search(old) and not collected.search(new)
               for lang, collected in _COLLECTED_FILES)


def _renamed_test_modules(files: Sequence[ChangedFile]) -> list[Hit]:
    """A test file renamed to a name its runner does not collect (test_calc.py -> calc_tests.py)."""
    return [Hit(f.diff.path, 1, 1, RENAMED_TEST_MODULE, f.diff.path) for f in files
            if f.diff.old_path and _left_the_pattern(f.diff.old_path, f.diff.path)
            and not f.diff.path.endswith("conftest.py")]


def _entries_of_new_lists(files: Sequence[ChangedFile], hits: list[Hit]) -> list[Hit]:
    """An allow-list entry is reported only when its list's key is not: a new
    ``allow_failures:`` block is one finding, an entry added to an existing list is its own."""
    from hooks.skips.packs.ci import ALLOW_LIST_ENTRY
    from hooks.skips.packs.ci import allow_list_key_of

    entries = [h for h in hits if h.rule is ALLOW_LIST_ENTRY]
    if not entries:
        return hits
    scans = {f.diff.path: f.scan for f in files}
    reported = {(h.path, h.line) for h in hits}
    covered = {id(h) for h in entries
               if (h.path, allow_list_key_of(scans[h.path].raw_lines(), h.line)) in reported}
    return [h for h in hits if id(h) not in covered]


_COMMENT_START = ("#", "//", "/*", "*")


def _head(line: str) -> str:
    """What a definition line calls or declares: ``describe`` of ``describe("pays", ...``."""
    return line.strip().split("(", 1)[0].split(" ", 1)[0]


def _still_running(files: Sequence[ChangedFile], hits: list[Hit]) -> list[Hit]:
    """Drop SKP006 hits on a test commented out whose name or title a live line the change
    adds defines (``// describe("pays", ...`` kept beside the ``runTests("pays", ...)`` it
    became): the test was converted, and still runs."""
    commented = [h for h in hits if h.rule.id == "SKP006"]
    if not commented:
        return hits
    # the live definition lines the change adds, a call's first line joined with its title
    # on the next (``runTests(`` then ``"pays",``)
    live: list[str] = []
    for f in files:
        lines = [t for _, t in f.added]
        for i, t in enumerate(lines):
            if t.strip() and not t.lstrip().startswith(_COMMENT_START):
                after = lines[i + 1].strip() if i + 1 < len(lines) else ""
                live.append(t.rstrip() + after if t.rstrip().endswith("(") else t)
    converted = set()
    for hit in commented:
        code = hit.text.lstrip().lstrip("#/*").lstrip()
        name = _test_name([code])
        # by another call (a helper it became), not the same definition: a commented copy
        # beside its live twin is a test disabled
        if name and any(_test_name([line]) == name and _head(line) != _head(code)
                        for line in live):
            converted.add(id(hit))
    return [h for h in hits if id(h) not in converted]


def judge_change(files: Sequence[ChangedFile], hits: list[Hit], contents: Contents,
                 enabled: frozenset[str]) -> list[tuple[Hit, FileScan]]:
    """The per-line HITS net of what the change removes, plus the change-level rules."""
    live = [f for f in files if not f.diff.deleted]
    found = _net_new(files, hits)
    if found:  # the common commit has no line hit: it need not import what weighs them
        from hooks.skips.respelled import respelled_skips

        found = _entries_of_new_lists(files, respelled_skips(files, found))
    found = _still_running(files, found)
    # a test file deleted loses its checks as a test deleted from a file does
    found += _removed_assertions(files, contents, enabled)
    if not RENAMED_TEST.opt_in or RENAMED_TEST.id in enabled:
        found += _renamed_tests(live)
    if not RENAMED_TEST_MODULE.opt_in or RENAMED_TEST_MODULE.id in enabled:
        found += _renamed_test_modules(live)
    scans = {f.diff.path: f.scan for f in files}
    missing = [h.path for h in found if scans[h.path].text is None]
    if missing:  # allowances are read from the file's comments
        texts = contents(sorted(set(missing)))
        for path in set(missing):
            scans[path].text = texts.get(path) or ""
    return [(hit, scans[hit.path]) for hit in found]
