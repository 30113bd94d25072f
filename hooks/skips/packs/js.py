"""jest, vitest, mocha, jasmine, playwright, cypress, node:test."""

from __future__ import annotations

from collections.abc import Sequence

from hooks.skips.rules import Pack
from hooks.skips.rules import Rule
from hooks.skips.rules import hand_skip
from hooks.skips.rules import lazy_confirm

confirm_not_doc_comment = lazy_confirm("cheats", "confirm_not_doc_comment")

_BLOCKS = r"(?:describe|it|test|context|suite|specify)"
# ava and node:test chain modifiers: test.serial.skip(...), test.concurrent.only(...)
_CHAIN = r"(?:\s*\.\s*(?:serial|concurrent|sequential|cb|each|only|skip))*"
_DOT = r"\s*\.\s*"  # `test .only(` and `describe . skip` are the same member access
# `.only`/`.skip` as a value, not called: `describeFn = describe.only`, `only ? test.only : test`
_NOT_CALLED = r"(?!\s*(?:[;,)\]}:?=|&]|$))"
# it['only'](...), describe["skip"](...): the same member by bracket access (read on the raw
# line: the name is a string)
_BRACKET = r"\b{blocks}\s*\[\s*[\"'`]{name}[\"'`]\s*\]"
# outside test files (a framework's own source defines `exports.it.skip = ...`, reads
# `if (test.fails)`): only a call that defines a test, with its title
_CALL = r"\s*\(\s*[\"'`]"

def _a_named_suite(lines: Sequence[str], text: str, line: int, col: int) -> bool:
    """The receiver of ``NAME.skip(...)`` / ``NAME.only(...)`` is an uvu suite: the file
    declares ``NAME = suite(...)``."""
    import re

    m = re.match(r"[A-Za-z_$][\w$]*", lines[line - 1][col:] if 0 < line <= len(lines) else "")
    return m is not None and re.search(
        rf"(?<![\w$.]){re.escape(m.group())}\s*=\s*suite\s*\(", text) is not None


def _not_in_a_definition(lines: Sequence[str], text: str, line: int, col: int) -> bool:
    """The options object on LINE is a test's, not one a helper's definition builds: the
    nearest block that encloses it (by indentation) is no function defined there
    (``function run(...) {``, ``run.only = function (...) {``, ``const run = (...) => {``)."""
    import re

    definition = re.compile(r"^\s*(?:export\s+)?(?:async\s+)?function\b"
                            r"|^\s*(?:(?:const|let|var)\s+)?[\w$.]+\s*=\s*(?:async\s+)?"
                            r"(?:function\b|\([^()]*\)\s*=>|[\w$]+\s*=>)")
    here = lines[line - 1] if 0 < line <= len(lines) else ""
    bound = len(here) - len(here.lstrip())
    for above in reversed(lines[:line - 1]):
        # a closing bracket at the left ends a definition's parameters, not its block
        if not above.strip() or len(above) - len(above.lstrip()) >= bound \
                or above.lstrip()[:1] in ")]}":
            continue
        if definition.search(above):
            return False
        bound = len(above) - len(above.lstrip())
        if bound == 0:
            return True
    return True


# uvu's suites are variables: `const Parse = suite('parse'); Parse.skip('reads', ...)`
_SUITE_CALL = r"(?<![\w.$])[A-Za-z_$][\w$]*\s*\.\s*{name}\s*\(\s*[\"'`]"

TEST_FILES = r"\.(test|spec|cy)\.[cm]?[jt]sx?$|(^|/)(__tests__|tests?|specs?|e2e|cypress)/"
# the files jest, vitest and mocha load before the tests (setupFiles, --require)
_SETUP_FILES = r"(^|/)(setupTests|(jest|vitest|test)[.-]setup|\.mocharc)\.[cm]?[jt]sx?$"

PACK = Pack(
    "javascript", family="js", sample="src/cart.test.ts",
    test_files=TEST_FILES,
    # read on code (comments and strings set apart): expect, assert, should, ava's t.*
    assertion=r"\bexpect\s*[.(]|\bassert(\.\w+)?\s*\(|\bshould\b"
              r"|(?<![\w.])t\.(?:is|not|deepEqual|notDeepEqual|like|true|false|truthy|falsy"
              r"|throws|throwsAsync|notThrows|notThrowsAsync|regex|notRegex|snapshot|fail|pass"
              r"|assert|ok|notOk|equal|same|match|rejects|resolves|error)\s*\(",
    test_definition=r"^\s*(it|test|specify)\s*\(",
    replacement=r"\bwaitFor\w*\s*\(|\.(?:rejects|resolves)\b|\btoThrow\w*\s*\(",
    rules=[
        hand_skip("src/cart.test.ts",
                  "it('pays', () => {\n  if (!process.env.DB) {\n"
                  "    console.log('no database, skipping');\n    return;\n  }\n"
                  "  expect(pay()).toBe(1);\n});\n",
                  "it('pays', () => {\n  console.log('reading the skip list');\n"
                  "  expect(pay()).toBe(1);\n});\n"),
        Rule("SKP001", "test or suite skipped with .skip",
             rf"\b{_BLOCKS}{_CHAIN}{_DOT}skip\b{_NOT_CALLED}",
             "it.skip('pays', () => {\n  expect(pay()).toBe(1);\n});\n",
             "const group = slow ? describe.skip : describe;\n", tests_only=True),
        Rule("SKP001", "test or suite skipped with .skip",
             rf"\b{_BLOCKS}{_CHAIN}{_DOT}skip{_CALL}",
             "it.skip('pays', () => {\n  expect(pay()).toBe(1);\n});\n",
             "exports.it.skip = function (title, fn) {\n  return it(title);\n};\n",
             sample="src/cart.js"),
        Rule("SKP001", "uvu suite's test skipped with .skip",
             _SUITE_CALL.format(name="skip"),
             "const Cart = suite('cart');\nCart.skip('pays', () => {\n  assert.is(pay(), 1);\n});\n",
             "const Cart = suite('cart');\nCart('pays', () => {\n  assert.is(pay(), 1);\n});\n"
             "cache.skip('warm up');\n", tests_only=True, confirm=_a_named_suite),
        Rule("SKP002", "uvu suite's test focused with .only: the suite's others stop running",
             _SUITE_CALL.format(name="only"),
             "const Cart = suite('cart');\nCart.only('pays', () => {\n  assert.is(pay(), 1);\n});\n",
             "const Cart = suite('cart');\nCart('pays', () => {\n  assert.is(pay(), 1);\n});\n"
             "query.only('id');\n", tests_only=True, confirm=_a_named_suite),
        Rule("SKP001", "test or suite skipped with ['skip']",
             _BRACKET.format(blocks=_BLOCKS, name="skip"),
             "it['skip']('pays', () => {\n  expect(pay()).toBe(1);\n});\n",
             "it['pays']('pays', () => {\n  expect(pay()).toBe(1);\n});\n", scope="raw"),
        Rule("SKP002", "focused test with ['only']: every other test in the file stops running",
             _BRACKET.format(blocks=_BLOCKS, name="only"),
             "describe[\"only\"]('cart', () => {\n  it('pays', () => {\n    expect(pay()).toBe(1);\n"
             "  });\n});\n",
             "describe('only once', () => {\n  it('pays', () => {\n    expect(pay()).toBe(1);\n"
             "  });\n});\n", scope="raw"),
        Rule("SKP001", "test or suite skipped with an x prefix",
             r"(?<![\w.$])x(?:it|describe|test|context|specify)\s*\(",
             "xit('pays', () => {\n  expect(pay()).toBe(1);\n});\n",
             "xitiViewMap('pays', () => 1);\n"),
        Rule("SKP001", "test skipped from inside (this.skip, t.skip, test.fixme, pending)",
             r"\bthis\.skip\s*\(\s*\)|(?<![\w.])t\.skip\s*\(|\btest\.fixme\s*\("
             r"|(?<![\w.])pending\s*\(\s*\)",
             "test('pays', (t) => {\n  t.skip();\n});\n",
             "test('pays', (t) => {\n  t.assert.equal(pay(), 1);\n});\n"),
        Rule("SKP001", "test skipped with the option {skip: true}",
             r"\{\s*skip\s*:\s*true\b",
             "test('pays', {skip: true}, () => {\n  assert.equal(pay(), 1);\n});\n",
             "payTests.skip = function (title) {\n  payTests(title, {skip: true});\n};\n",
             confirm=_not_in_a_definition),
        Rule("SKP002", "focused test: every other test in the file silently stops running",
             rf"\b(?:{_BLOCKS}|fixture){_CHAIN}{_DOT}only\b{_NOT_CALLED}"
             r"|(?<![\w.$])f(?:it|describe|test)\s*\(",
             "it.only('pays', () => {\n  expect(pay()).toBe(1);\n});\n",
             "it('pays only once', () => {\n  expect(pay()).toBe(1);\n});\n"
             "const t = focus ? test.only : test;\n", tests_only=True),
        Rule("SKP002", "focused test with the option {only: true}: every other test stops running",
             r"\{\s*only\s*:\s*true\b",
             "test('pays', {only: true}, () => {\n  assert.equal(pay(), 1);\n});\n",
             "payTests.only = function (title) {\n  payTests(title, {only: true});\n};\n",
             confirm=_not_in_a_definition),
        Rule("SKP002", "focused test: every other test in the file silently stops running",
             rf"\b(?:{_BLOCKS}|fixture){_CHAIN}{_DOT}only{_CALL}",
             "it.only('pays', () => {\n  expect(pay()).toBe(1);\n});\n",
             "exports.it.only = function (title, fn) {\n  return it(title);\n};\n",
             sample="src/cart.js"),
        Rule("SKP003", "skip condition is a constant: the test never runs",
             rf"\b{_BLOCKS}\.skipIf\s*\(\s*(?:true|1|!0)\s*\)|\b{_BLOCKS}\.runIf\s*\(\s*(?:false|0|!1)\s*\)"
             r"|\btest\.skip\s*\(\s*true\s*[,)]",
             "it.skipIf(true)('pays', () => {\n  expect(pay()).toBe(1);\n});\n",
             "it.skipIf(process.platform === 'win32')('pays', () => {\n  expect(pay()).toBe(1);\n});\n"),
        Rule("SKP004", "assertion that cannot fail",
             r"\bexpect\s*\(\s*(true|false|1|0|null)\s*\)\s*\.\s*(?:toBe|toEqual|toStrictEqual)\s*\(\s*\1\s*\)"
             r"|\bexpect\s*\(\s*true\s*\)\s*\.\s*(?:toBeTruthy\s*\(|to\.be\.true\b|to\.be\.ok\b)"
             r"|\bexpect\s*\(\s*false\s*\)\s*\.\s*toBeFalsy\s*\("
             r"|\bassert(?:\.ok|\.isTrue|\.equal|\.strictEqual)?\s*\(\s*true\s*\)",
             "test('pays', () => {\n  expect(true).toBe(true);\n});\n",
             "test('pays', () => {\n  expect(pay()).toBe(true);\n});\n"),
        Rule("SKP004", "test with an empty body",
             r"\b(?:it|test|specify)\s*\(\s*[\"'`][^\"'`]*[\"'`]\s*,\s*(?:async\s+)?"
             r"(?:\(\s*\w*\s*\)\s*=>|function\s*\(\s*\w*\s*\))\s*\{\s*\}\s*\)",
             "test('pays', () => {});\n",
             "test('pays', () => { expect(pay()).toBe(1); });\n"),
        Rule("SKP005", "todo or expected-failure test: counted, never checked",
             rf"\b{_BLOCKS}{_CHAIN}\.(?:todo|failing|fails)\b|\btest\.fail\s*\("
             r"|\{\s*todo\s*:\s*true\b",
             "it.todo('pays');\n",
             "it('pays', () => {\n  expect(pay()).toBe(1);\n});\n", tests_only=True),
        Rule("SKP005", "todo or expected-failure test: counted, never checked",
             rf"\b{_BLOCKS}{_CHAIN}\.(?:todo|failing|fails){_CALL}",
             "it.todo('pays');\n",
             "if (test.fails) {\n  report(test);\n}\n", sample="src/cart.js"),
        Rule("SKP006", "test definition commented out",
             # not a JSDoc example line (' * describe(...)'), nor outside test files
             rf"^\s*(?://+|/\*+)?\s*{_BLOCKS}(?:\.\w+)?\s*\(\s*[\"'`]",
             "// it('pays', () => {\n//   expect(pay()).toBe(1);\n// });\n",
             "// pays once per cart\nit('pays', () => {\n  expect(pay()).toBe(1);\n});\n",
             scope="comment",
             confirm=confirm_not_doc_comment, tests_only=True),
        Rule("SKP008", "process.exit(0) in test code: the run ends with success and the tests "
             "after it never run",
             r"\bprocess\s*\.\s*(?:exit|reallyExit)\s*\(\s*0?\s*\)",
             "it('pays', () => {\n  process.exit(0);\n});\n",
             "it('pays', () => {\n  expect(() => pay(-1)).toThrow();\n});\n",
             files=rf"{TEST_FILES}|{_SETUP_FILES}"),
    ],
)
