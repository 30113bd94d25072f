"""The skip guard on the classes that real history showed it getting wrong (bench/skips_real):
one small labelled case per class, in process through the one scan the hook runs
(``scan_diffs`` over a change built from before/after texts), and through real git where the
judgement is about the change as a whole."""

from __future__ import annotations

import difflib

import pytest
from conftest import Repo
from conftest import precommit_config

from hooks.core.diff import parse_diff
from hooks.core.errors import USAGE_ERROR
from hooks.skips.allowances import DEFAULT_TICKET
from hooks.skips.report import report
from hooks.skips.scan import scan_diffs

HOOK = "no-inserted-skips"
Change = dict[str, "tuple[str | None, str | None]"]  # path: (before, after)


def _lines(text: str | None) -> list[str]:
    return text.split("\n")[:-1] if text else []


def scan(change: Change, capsys: pytest.CaptureFixture[str],
         enabled: frozenset[str] = frozenset()) -> tuple[int, str]:
    """Exit code and output of the hook's report for CHANGE, scanned in process."""
    diff: list[str] = []
    for path, (before, after) in change.items():
        diff.append(f"diff --git a/{path} b/{path}")
        diff += difflib.unified_diff(
            _lines(before), _lines(after), n=0, lineterm="",
            fromfile="/dev/null" if before is None else f"a/{path}",
            tofile="/dev/null" if after is None else f"b/{path}")
    afters = {path: after for path, (_, after) in change.items()}
    results = scan_diffs(parse_diff(("\n".join(diff) + "\n").encode()),
                         lambda paths: {p: afters.get(p) for p in paths}, None, enabled)
    capsys.readouterr()
    code = report(results, allow=True, ticket=DEFAULT_TICKET, fmt="text", prog=HOOK)
    return code, capsys.readouterr().out


def added(path: str, text: str) -> Change:
    return {path: (None, text)}


QUIET = [  # (class, change): a user would not want any of these reported
    ("SKP009: pytest.raises as a context manager replaces the call form",
     {"tests/test_a.py": ("def test_a():\n    pytest.raises(ValueError, int, 'x')\n",
                          "def test_a():\n    with pytest.raises(ValueError):\n"
                          "        int('x')\n")}),
    ("SKP009: an ava assertion replaces assert",
     {"test/a.ts": ("test('a', t => {\n  assert.equal(f(), 1);\n});\n",
                    "test('a', t => {\n  t.is(f(), 1);\n});\n")}),
    ("SKP009: testify's own package calls its assertions unqualified",
     {"assert/a_test.go": ("func TestA(t *testing.T) {\n\tt.Error(\"no\")\n}\n",
                           "func TestA(t *testing.T) {\n\tEqual(t, false, ok)\n}\n")}),
    ("SKP009: a removed comment that says 'should' is no assertion",
     {"test/a.ts": ("// the type should infer\nconst x = 1;\n", "const x = 1;\n")}),
    ("SKP009: a removed test title that says 'should' is no assertion",
     {"test/a.ts": ("test('should emit', t => {\n  t.pass();\n});\n",
                    "test('emits', t => {\n  t.pass();\n});\n")}),
    ("SKP009: assert! in production code of a Rust src file is not a test's",
     {"src/lib.rs": ("fn f(x: bool) {\n    assert!(x);\n}\n", "fn f(x: bool) {\n}\n")}),
    ("SKP009: zip(strict=True) checks the lengths the removed assert did",
     {"tests/test_a.py": ("def test_a():\n    assert len(a) == len(b)\n    for x, y in zip(a, b):\n"
                          "        g(x, y)\n",
                          "def test_a():\n    for x, y in zip(a, b, strict=True):\n"
                          "        g(x, y)\n")}),
    ("SKP009: deleting a test that was skipped loses no check that ran",
     {"test/a.ts": ("test('a', t => {\n  t.pass();\n});\n\ntest.skip('b', t => {\n"
                    "  t.is(f(), 1);\n});\n",
                    "test('a', t => {\n  t.pass();\n});\n")}),
    ("SKP009: a duplicate assertion removed, its twin still there",
     {"tests/test_a.py": ("def test_a():\n    assert f() == 1\n    assert f() == 1\n",
                          "def test_a():\n    assert f() == 1\n")}),
    ("SKP009: a Go test file's fmt.Errorf respelled errors.New is no t.Errorf",
     {"pay/pay_test.go": ("func fake() error {\n\treturn fmt.Errorf(\"down\")\n}\n\n"
                          "func TestPay(t *testing.T) {\n\tif pay() != 1 {\n\t\tt.Fatal(\"no\")\n"
                          "\t}\n}\n",
                          "func fake() error {\n\treturn errors.New(\"down\")\n}\n\n"
                          "func TestPay(t *testing.T) {\n\tif pay() != 1 {\n\t\tt.Fatal(\"no\")\n"
                          "\t}\n}\n")}),
    ("SKP009: Go setup deleted with its error check",
     {"pay/pay_test.go": ("func TestPay(t *testing.T) {\n\tdir, err := os.MkdirTemp(\"\", \"x\")\n"
                          "\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n\tuse(dir)\n"
                          "\tif pay() != 1 {\n\t\tt.Error(\"no\")\n\t}\n}\n",
                          "func TestPay(t *testing.T) {\n\tuse(t.TempDir())\n"
                          "\tif pay() != 1 {\n\t\tt.Error(\"no\")\n\t}\n}\n")}),
    ("SKP009: Go clean-up deleted with the check of its own result",
     {"pay/pay_test.go": ("func TestPay(t *testing.T) {\n\tif pay() != 1 {\n\t\tt.Error(\"no\")\n"
                          "\t}\n\terrs := cleanUp(files)\n\tif len(errs) > 0 {\n"
                          "\t\tt.Fatal(\"could not clean up\")\n\t}\n}\n",
                          "func TestPay(t *testing.T) {\n\tif pay() != 1 {\n\t\tt.Error(\"no\")\n"
                          "\t}\n}\n")}),
    ("SKP010: an assert in a mock deleted with the mock is no test's",
     {"tests/test_pay.py": ("class FakeGateway:\n    def charge(self, amount):\n"
                            "        assert amount is not None\n        return 1\n\n\n"
                            "def test_pay():\n    assert pay() == 1\n",
                            "def test_pay():\n    assert pay() == 1\n")}),
    ("SKP009: an assert in a helper narrows a type, it checks no test",
     {"tests/test_pay.py": ("def load(path):\n    data = read(path)\n"
                            "    assert data is not None\n    return data\n\n\n"
                            "def test_pay():\n    assert pay(load('a')) == 1\n",
                            "def load(path):\n    return read(path)\n\n\n"
                            "def test_pay():\n    assert pay(load('a')) == 1\n")}),
    ("SKP009: Kotlin try/fail/catch rewritten as assertFailsWith<E> { }",
     {"src/test/kotlin/PayTest.kt": (
         "class PayTest {\n    @Test\n    fun refuses() {\n        try {\n            pay(-1)\n"
         "            fail(\"no error\")\n        } catch (e: IllegalStateException) {\n"
         "            assertEquals(\"negative\", e.message)\n        }\n    }\n}\n",
         "class PayTest {\n    @Test\n    fun refuses() {\n"
         "        assertFailsWith<IllegalStateException> { pay(-1) }.also {\n"
         "            println(it)\n        }\n    }\n}\n")}),
    *[(f"SKP009: JVM try/fail/catch rewritten as {form}",
       {"src/test/java/PayTest.java": (
           "class PayTest {\n  @Test\n  void refuses() {\n    try {\n      pay(-1);\n"
           "      fail();\n    } catch (IllegalStateException expected) {\n    }\n  }\n}\n",
           f"class PayTest {{\n  @Test\n  void refuses() {{\n    {form} pay(-1));\n  }}\n}}\n")})
      for form in ("assertThrows(IllegalStateException.class, () ->",
                   "expectThrows(IllegalStateException.class, () ->",
                   "assertThatThrownBy(() ->", "shouldThrow<IllegalStateException> { (")],
    ("SKP009: a Rust assert! replaced by the project's assert_* helper",
     {"tests/fds.rs": ("#[test]\nfn no_leak() {\n    let leaked = open_fds();\n"
                       "    assert!(leaked <= 64);\n}\n",
                       "#[test]\nfn no_leak() {\n    assert_fds_are_not_leaking(64);\n}\n")}),
    ("SKP009: a Python assert replaced by a polling form",
     {"tests/test_pay.py": ("def test_pay():\n    start()\n    assert status() == 'done'\n",
                            "def test_pay():\n    start()\n"
                            "    wait_until(lambda: status() == 'done', timeout=5)\n")}),
    ("SKP010: a test moved into another test file the same change edits",
     {"tests/test_a.py": ("def test_a():\n    assert f() == 1\n\n\ndef test_b():\n"
                          "    assert g(2) == 2\n", "def test_a():\n    assert f() == 1\n"),
      "tests/test_b.py": ("def test_c():\n    assert h() == 3\n",
                          "def test_c():\n    assert h() == 3\n\n\ndef test_b():\n"
                          "    assert g(x=2) == 2\n")}),
    ("SKP010: a duplicate test removed, its twin still in the file",
     {"tests/test_a.py": ("def test_a():\n    r = f()\n    assert r == 1\n\n\n"
                          "def test_x():\n    g()\n\n\ndef test_a_again():\n    r = f()\n"
                          "    assert r == 1\n",
                          "def test_a():\n    r = f()\n    assert r == 1\n\n\n"
                          "def test_x():\n    g()\n")}),
    ("SKP001: a Java test converted to Kotlin keeps its @Ignore, respelled @Disabled",
     {"src/test/java/a/PayTest.java": (
         "package a;\n\nimport org.junit.Ignore;\nimport org.junit.Test;\n\n"
         "public class PayTest {\n    @Ignore(\"flaky\")\n    @Test\n    public void pays() {\n"
         "        assertEquals(1, pay());\n    }\n}\n", None),
      "src/test/kotlin/a/PayTest.kt": (
          None, "package a\n\nimport org.junit.jupiter.api.Disabled\n"
                "import org.junit.jupiter.api.Test\n\nclass PayTest {\n"
                "    @Disabled(\"flaky\")\n    @Test\n    fun pays() {\n"
                "        assertEquals(1, pay())\n    }\n}\n")}),
    ("SKP006: a rustdoc example holds #[test]", added(
        "src/lib.rs", "/// Runs the suite.\n///\n/// ```\n/// #[test]\n"
                      "/// fn it_works() { assert!(run()); }\n/// ```\npub fn run() -> bool {\n"
                      "    true\n}\n")),
    ("SKP006: a Javadoc example holds @Test", added(
        "src/test/java/PayTest.java", "class PayTest {\n  /**\n   * Write tests like:\n"
                                      "   * @Test\n   * void pays() {}\n   */\n"
                                      "  void x() {}\n}\n")),
    ("SKP008: allow_failure is a third-party action's input", added(
        ".github/workflows/ci.yml", "jobs:\n  t:\n    steps:\n      - uses: some/action@v1\n"
                                    "        with:\n          allow_failure: true\n"
                                    "      - run: pytest\n")),
    ("SKP008: cargo hack's --skip drops a feature from a compile check", added(
        ".github/workflows/ci.yml", "jobs:\n  t:\n    steps:\n      - run: cargo hack check"
                                    " --feature-powerset --skip nightly\n")),
    ("SKP008: set +e only to read PIPESTATUS, the step exits with it", added(
        ".github/workflows/ci.yml", "jobs:\n  t:\n    steps:\n      - run: |\n          set +e\n"
                                    "          pytest -q | tee out.txt\n"
                                    "          status=${PIPESTATUS[0]}\n          set -e\n"
                                    "          exit $status\n")),
    ("Ruby: a skip inside a heredoc is text", added(
        "test/spec_a.rb", "it 'reads' do\n  text = <<~EOS\n    skip 'later'\n  EOS\n"
                          "  assert_equal 1, parse(text)\nend\n")),
    ("Ruby: pending and skip as identifiers and keyword arguments", added(
        "test/spec_a.rb", "def settle(pending)\n  pending.each(&:retry!)\n  run(skip)\n"
                          "  commit(env, skip: true)\nend\n")),
    ("JS: a framework's own source defines the skip/only API", added(
        "lib/mocha.js", "exports.it.only = function (...args) {\n  return it(...args);\n};\n"
                        "exports.xit = exports.it.skip;\nif (test.fails) {\n  report(test);\n}\n")),
    ("JS: JSDoc example lines are comments", added(
        "lib/runner.js", "/**\n * @example\n * describe.only('x', function() {\n *   it.skip('y');"
                         "\n * });\n */\nfunction run() {}\n")),
    ("CI: '|| true' after a clean-up command", added(
        ".github/workflows/ci.yml", "jobs:\n  t:\n    steps:\n      - run: rm -rf dist || true\n")),
    ("CI: -DskipTests=false runs the tests", added(
        ".travis.yml", "install: mvn install -DskipTests=false\n")),
    ("CI: ignore_errors=True of a Python call in conftest.py", added(
        "tests/conftest.py", "def cleanup(d):\n    shutil.rmtree(d, ignore_errors=True)\n")),
    ("SKP006: a commented-out skip decorator re-enables a test", added(
        "tests/test_a.py", "# @pytest.mark.skip('until 10.0')\ndef test_a():\n    assert f()\n")),
    ("SKP004: testify checking its own True() is a real check", added(
        "assert/a_test.go", "func TestA(t *testing.T) {\n\tif !True(mockT, true) {\n"
                            "\t\tt.Error(\"True should pass\")\n\t}\n}\n")),
    ("pre-existing: @Ignore re-indented into a narrower block",
     {"src/test/java/ATest.java": ("class ATest {\n@Ignore\n@Test\nvoid a() {}\n}\n",
                                   "class ATest {\n    @Ignore\n    @Test\n    void a() {}\n}\n")}),
    ("SKP010: a test file deleted, its tests merged into another test file the change edits",
     {"tests/test_pay_legacy.py": ("def test_pay_legacy():\n    total = pay(currency='EUR')\n"
                                   "    assert total == 1\n", None),
      "tests/test_pay.py": ("def test_pay():\n    total = pay()\n    assert total == 1\n",
                            "def test_pay():\n    total = pay()\n    assert total == 1\n\n\n"
                            "def test_pay_euro():\n    total = pay(currency='EUR')\n"
                            "    assert total == 1\n")}),
    ("SKP010: a JUnit test file deleted, its tests converted to Kotlin in the same change",
     {"src/test/java/PayTest.java": ("class PayTest {\n  @Test\n  void pays() {\n"
                                     "    assertEquals(1, pay());\n  }\n}\n", None),
      "src/test/kotlin/PayTest.kt": (None, "class PayTest {\n  @Test fun pays() {\n"
                                           "    assertEquals(1, pay())\n  }\n}\n")}),
    ("SKP010: a test file deleted whose tests were all skipped",
     {"src/test/kotlin/PayTest.kt": ("class PayTest {\n  @Ignore @Test fun pays() {\n"
                                     "    assertEquals(1, pay())\n  }\n}\n", None)}),
    ("SKP001/SKP002: .skip and .only chosen as values, not called",
     {"test/pay.test.js": ("const group = describe;\n",
                           "let group = describe;\nif (only) group = describe.only\n"
                           "if (skip) group = describe.skip\n"
                           "const t = focus ? test.only : test;\n")}),
    ("SKP001/SKP002: {only: true} and {skip: true} inside a helper's definition",
     {"test/pay.test.js": (None, "function payTests(title, options) {\n"
                                 "  test(title, options, () => {});\n}\n\n"
                                 "payTests.only = function(\n  title\n) {\n  payTests(\n"
                                 "    title,\n    {only: true}\n  )\n}\n\n"
                                 "payTests.skip = (title) => {\n"
                                 "  payTests(title, {skip: true})\n}\n")}),
    ("SKP006: a test commented out beside the helper call it became",
     {"test/pay.test.js": ("describe('pays once', () => {\n  check(1);\n});\n",
                           "payTests(\n  'pays once',\n  1\n);\n\n// the test as it was:\n"
                           "// describe('pays once', () => {\n//   check(1);\n// });\n")}),
    ("pre-existing: a failing test retitled",
     {"test/a.ts": ("test.failing('pagiantion', t => {\n  t.is(f(), 1);\n});\n",
                    "test.failing('pagination', t => {\n  t.is(f(), 1);\n});\n")}),
    ("pre-existing: a module list edited on a line that had -Dmaven.test.skip",
     {".github/workflows/ci.yml": ("jobs:\n  b:\n    steps:\n      - run: mvn install "
                                   "-Dmaven.test.skip --projects '!a'\n",
                                   "jobs:\n  b:\n    steps:\n      - run: mvn install "
                                   "-Dmaven.test.skip --projects '!a,!b'\n")}),
    ("pre-existing: a skip moved to another file",
     {"tests/test_a.py": ("@pytest.mark.skip\ndef test_a():\n    assert f()\n", None),
      "tests/test_b.py": (None, "@pytest.mark.skip\ndef test_a():\n    assert f()\n")}),
    ("SKP007: a removed test paired only with the line that replaced it",
     {"tests/test_a.py": ("def test_fail():\n    assert f()\n",
                          "# both test_fail and test_xfail show a line\ndef test_fail():\n"
                          "    assert f()\n")}),
]


@pytest.mark.parametrize("change", [c for _, c in QUIET], ids=[n for n, _ in QUIET])
def test_classes_that_stay_quiet(change: Change, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = scan(change, capsys)
    assert (code, out) == (0, "")


FLAGGED = [  # (class, change, path:line, rule id)
    ("SKP009: assert! in a Rust src file's #[cfg(test)] module",
     {"src/lib.rs": ("fn f() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n"
                     "        assert!(true);\n    }\n}\n",
                     "fn f() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n"
                     "    }\n}\n")}, "src/lib.rs:5", "SKP009"),
    ("SKP010: a test deleted, its checks gone", {
        "tests/test_a.py": ("def test_a():\n    assert f() == 1\n\n\ndef test_b():\n"
                            "    assert g() == 2\n",
                            "def test_a():\n    assert f() == 1\n")},
     "tests/test_a.py:2", "SKP010"),
    ("SKP009: a t.Errorf removed from a Go test that remains",
     {"pay/pay_test.go": ("func TestPay(t *testing.T) {\n\tgot := pay()\n\tif got != 1 {\n"
                          "\t\tt.Errorf(\"got %d\", got)\n\t}\n}\n",
                          "func TestPay(t *testing.T) {\n\tgot := pay()\n\t_ = got\n}\n")},
     "pay/pay_test.go:3", "SKP009"),
    ("SKP010: a Go test deleted with its t.Fatal",
     {"pay/pay_test.go": ("func TestA(t *testing.T) {\n\tif a() != 1 {\n\t\tt.Fatal(\"a\")\n"
                          "\t}\n}\n\nfunc TestB(tt *testing.T) {\n\tif b() != 2 {\n"
                          "\t\ttt.Fatal(\"b\")\n\t}\n}\n",
                          "func TestA(t *testing.T) {\n\tif a() != 1 {\n\t\tt.Fatal(\"a\")\n"
                          "\t}\n}\n")},
     "pay/pay_test.go:5", "SKP010"),
    ("SKP009: an assert removed from a unittest method",
     {"tests/test_pay.py": ("class PayTests(unittest.TestCase):\n    def test_pay(self):\n"
                            "        total = pay()\n        assert total == 1\n",
                            "class PayTests(unittest.TestCase):\n    def test_pay(self):\n"
                            "        total = pay()\n")},
     "tests/test_pay.py:3", "SKP009"),
    ("SKP010: a test class deleted whose method names another class still uses",
     {"tests/test_v.py": ("class TestIn:\n    def test_success(self):\n        assert f()\n\n\n"
                          "class TestProvides:\n    def test_success(self):\n"
                          "        assert g()\n",
                          "class TestIn:\n    def test_success(self):\n        assert f()\n")},
     "tests/test_v.py:3", "SKP010"),
    ("SKP010: a JUnit test deleted",
     {"src/test/java/PayTest.java": (
         "class PayTest {\n  @Test\n  void pays() {\n    assertEquals(1, pay());\n  }\n\n"
         "  @Test\n  void refunds() {\n    assertEquals(1, refund());\n  }\n}\n",
         "class PayTest {\n  @Test\n  void pays() {\n    assertEquals(1, pay());\n  }\n}\n")},
     "src/test/java/PayTest.java:5", "SKP010"),
    ("SKP010: a whole test file deleted with its checks",
     {"tests/test_status.py": ("import pytest\n\n\ndef test_status():\n"
                               "    assert status() == 200\n", None)},
     "tests/test_status.py:1", "SKP010"),
    ("SKP010: a Go test file deleted, its package code too",
     {"codec/codec_test.go": ("package codec\n\nfunc TestDecode(t *testing.T) {\n"
                              "\tif decode() != 1 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n", None),
      "codec/codec.go": ("package codec\n\nfunc decode() int { return 1 }\n", None)},
     "codec/codec_test.go:1", "SKP010"),
    ("SKP010: a variant test deleted whose checks read as the remaining test's",
     {"tests/test_app.py": ("def test_app():\n    client = Client(app)\n"
                            "    assert client.get('/').status_code == 200\n\n\n"
                            "def test_app_legacy():\n    client = Client(legacy_app)\n"
                            "    assert client.get('/').status_code == 200\n",
                            "def test_app():\n    client = Client(app)\n"
                            "    assert client.get('/').status_code == 200\n")},
     "tests/test_app.py:3", "SKP010"),
    ("SKP009: a variant block removed from a test that remains, its checks' twins below",
     {"test/a.test.js": ("it('reads', () => {\n  useProxies(false)\n  expect(read(x)).toBe(1)\n"
                         "  useProxies(true)\n  expect(read(x)).toBe(1)\n});\n",
                         "it('reads', () => {\n  useProxies(true)\n"
                         "  expect(read(x)).toBe(1)\n});\n")},
     "test/a.test.js:1", "SKP009"),
    ("SKP002: test.only called with a title, beside one chosen as a value",
     {"test/pay.test.js": (None, "const t = focus ? test.only : test;\n"
                                 "test.only('pays', () => {\n  expect(pay()).toBe(1);\n});\n")},
     "test/pay.test.js:2", "SKP002"),
    ("SKP002: {only: true} given to a test",
     {"test/pay.test.js": (None, "test('pays', {only: true}, () => {\n"
                                 "  assert.equal(pay(), 1);\n});\n")},
     "test/pay.test.js:1", "SKP002"),
    ("SKP006: a test commented out beside its live twin",
     {"test/pay.test.js": (None, "describe('pays', () => {\n  check(1);\n});\n"
                                 "// describe('pays', () => {\n//   check(1);\n// });\n")},
     "test/pay.test.js:4", "SKP006"),
    ("SKP001: uvu suite's .skip", added(
        "test/parse.js", "import { suite } from 'uvu';\n\nconst Parse = suite('parse');\n\n"
                         "Parse.skip('reads', () => {\n  assert.is(parse('1'), 1);\n});\n"
                         "Parse.run();\n"), "test/parse.js:5", "SKP001"),
    ("SKP002: uvu suite's .only", added(
        "test/parse.js", "import { suite } from 'uvu';\n\nconst Parse = suite('parse');\n\n"
                         "Parse.only('reads', () => {\n  assert.is(parse('1'), 1);\n});\n"
                         "Parse.run();\n"), "test/parse.js:5", "SKP002"),
    ("SKP001: a Rust test skipped by hand, a 'skipping' message then return", added(
        "tests/cli.rs", "#[test]\nfn bash() {\n    if which(\"bash\").is_err() {\n"
                        "        println!(\"bash not available; skipping test\");\n"
                        "        return;\n    }\n    assert!(run_bash());\n}\n"),
     "tests/cli.rs:4", "SKP001"),
    ("SKP001: a Go test skipped by hand, t.Log then return", added(
        "pay/pay_test.go", "func TestBash(t *testing.T) {\n\tif !hasBash() {\n"
                           "\t\tt.Logf(\"skipping: %v\", err)\n\t\treturn\n\t}\n}\n"),
     "pay/pay_test.go:3", "SKP001"),
    *[(f"SKP008: Gradle told to leave out the tests ({flag})", added(
        ".github/workflows/ci.yml",
        f"jobs:\n  t:\n    steps:\n      - run: ./gradlew build {flag}\n"),
       ".github/workflows/ci.yml:4", "SKP008")
      for flag in ("--exclude-task test", "-Dtest.skip=true", "-x :app:check")],
    ("SKP008: continue-on-error on a step named for the tests, its script not",
     added(".github/workflows/ci.yml", "jobs:\n  test:\n    steps:\n"
                                       "      - name: Run the test suite\n"
                                       "        run: ./ci/run.sh\n"
                                       "        continue-on-error: true  # always allow failure\n"),
     ".github/workflows/ci.yml:6", "SKP008"),
    ("SKP001: a skipped test retitled in place and a new skipped one that reads alike", {
        "src/test/kotlin/PayTest.kt": (
            "class PayTest {\n  @Ignore @Test fun duplicatedValue() {\n    check(1)\n  }\n}\n",
            "class PayTest {\n  @Ignore @Test fun duplicatedValueParameter() {\n    check(1)\n"
            "  }\n\n  @Ignore @Test fun duplicatedValueProperty() {\n    check(2)\n  }\n}\n")},
     "src/test/kotlin/PayTest.kt:6", "SKP001"),
    ("SKP006: an indented commented-out test method", added(
        "tests/test_a.py", "class TestA:\n    # def test_b(self):\n    #     assert f()\n"
                           "    pass\n"), "tests/test_a.py:2", "SKP006"),
    ("SKP006: an indented commented-out it()", added(
        "test/a.spec.js", "describe('a', () => {\n  // it('pays', () => {\n  //   f();\n"
                          "  // });\n});\n"), "test/a.spec.js:2", "SKP006"),
    ("SKP006: a commented-out RSpec group on a constant", added(
        "test/spec_webrick.rb", "# describe Rack::Handler::WEBrick do\n#   it 'runs' do\n"),
     "test/spec_webrick.rb:1", "SKP006"),
    ("SKP001: a skip on a method chain", added(
        "suite/suite_test.go", "func (s *S) SetupTest() {\n\ts.T().Skip(\"in setup\")\n}\n"),
     "suite/suite_test.go:2", "SKP001"),
    ("SKP001: RSpec :skip => 'reason'", added(
        "spec/a_spec.rb", "it 'pays', :skip => 'flaky' do\n  expect(pay).to eq(1)\nend\n"),
     "spec/a_spec.rb:1", "SKP001"),
    ("SKP001: RSpec skip: with a computed reason", added(
        "spec/a_spec.rb", "it 'pays', skip: ENV['CI'] ? 'ci' : false do\nend\n"),
     "spec/a_spec.rb:1", "SKP001"),
    ("SKP001: a skip statement in minitest", added(
        "test/spec_a.rb", "it 'pays' do\n  skip 'later'\nend\n"), "test/spec_a.rb:2", "SKP001"),
    ("SKP001: ava's test.serial.skip", added(
        "test/a.ts", "test.serial.skip('a', async t => {\n  t.pass();\n});\n"),
     "test/a.ts:1", "SKP001"),
    ("SKP005: ava's test.serial.failing", added(
        "test/a.ts", "test.serial.failing('a', async t => {\n  t.pass();\n});\n"),
     "test/a.ts:1", "SKP005"),
    ("SKP004: testify's unqualified True(t, true)", added(
        "require/a_test.go", "func TestA(t *testing.T) {\n\tTrue(t, true)\n}\n"),
     "require/a_test.go:2", "SKP004"),
    ("SKP008: .travis.yml allow_failures", added(
        ".travis.yml", "matrix:\n  allow_failures:\n    - rvm: jruby\n"),
     ".travis.yml:2", "SKP008"),
    ("SKP008: -DskipTests=true in .travis.yml", added(
        ".travis.yml", "install: mvn -f gson install -DskipTests=true\n"),
     ".travis.yml:1", "SKP008"),
    ("SKP008: -Dmaven.test.skip without =true", added(
        ".github/workflows/b.yml", "jobs:\n  b:\n    steps:\n      - run: mvn install "
                                   "-Dmaven.test.skip\n"), ".github/workflows/b.yml:4", "SKP008"),
    ("SKP008: -DskipTests in pom.xml", added(
        "pom.xml", "<project>\n  <preparationGoals>package -DskipTests</preparationGoals>\n"
                   "</project>\n"), "pom.xml:2", "SKP008"),
    ("SKP008: a CI shell script hiding a failure", added(
        "ci/test.sh", "#!/bin/sh\ncargo test || true\n"), "ci/test.sh:2", "SKP008"),
    ("pre-existing: a skip named in a removed string does not excuse a real one",
     {"test/a.spec.js": ("it('this.skip() sets pending', function () {});\n",
                         "it('sets pending', function () {\n  this.skip();\n});\n")},
     "test/a.spec.js:2", "SKP001"),
    ("pre-existing: un-commenting a skip decorator activates it",
     {"tests/test_a.py": ("# @pytest.mark.skip('until 10')\ndef test_a():\n    assert f()\n",
                          "@pytest.mark.skip('until 10')\ndef test_a():\n    assert f()\n")},
     "tests/test_a.py:1", "SKP001"),
    ("SKP007: a JUnit 3 test renamed out of collection",
     {"src/test/java/ATest.java": ("public class ATest extends TestCase {\n"
                                   "  public void testPays() {\n    assertEquals(1, pay());\n"
                                   "  }\n}\n",
                                   "public class ATest extends TestCase {\n"
                                   "  public void disabled_testPays() {\n"
                                   "    assertEquals(1, pay());\n  }\n}\n")},
     "src/test/java/ATest.java:2", "SKP007"),
]


@pytest.mark.parametrize(("change", "where", "rule"), [c[1:] for c in FLAGGED],
                         ids=[c[0] for c in FLAGGED])
def test_classes_that_are_reported(change: Change, where: str, rule: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out = scan(change, capsys)
    assert code == 1, out
    assert f"{where}:" in out and f" {rule} " in out, out
    assert "fix the test instead of skipping it" in out


def test_a_test_moved_to_another_file_loses_no_assertion(repo: Repo) -> None:
    body = "def test_b():\n    assert g() == 2\n"
    repo.write("tests/test_a.py", "def test_a():\n    assert f() == 1\n\n\n" + body)
    repo.commit("init")
    repo.write("tests/test_a.py", "def test_a():\n    assert f() == 1\n")
    repo.write("tests/test_b.py", "import pytest\n\n\n" + body.replace("== 2", "== 2  # moved"))
    repo.git("add", "-A")
    moved = repo.run(HOOK)
    assert (moved.code, moved.out) == (0, "")
    repo.git("rm", "-q", "--cached", "tests/test_b.py")
    lost = repo.run(HOOK)
    assert lost.code == 1
    assert "tests/test_a.py:2:1: SKP010 test deleted with its assertions" in lost.out


def test_a_test_renamed_out_of_collection_through_git(repo: Repo) -> None:
    repo.write("tests/test_a.py", "def test_pay():\n    assert pay() == 1\n")
    repo.commit("init")
    repo.write("tests/test_a.py", "def _test_pay():\n    assert pay() == 1\n")
    repo.git("add", "-A")
    result = repo.run(HOOK)
    assert result.code == 1
    assert "tests/test_a.py:1:1: SKP007 test renamed so the runner no longer collects it" \
        in result.out


def test_enable_names_a_rule_or_is_refused(repo: Repo) -> None:
    repo.commit("init")
    bad = repo.run(HOOK, "--enable", "SKP999")
    assert bad.code == USAGE_ERROR
    assert "argument --enable: 'SKP999' is not a rule id" in bad.both
    repo.write("tests/test_a.py", "def test_a():\n    assert f()\n")
    repo.git("add", "-A")
    ok = repo.run(HOOK, "--enable", "SKP007", "--enable", "SKP009")
    assert (ok.code, ok.out) == (0, "")


def test_an_opt_in_rule_runs_only_when_enabled(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from hooks.skips import load

    rule = next(r for r in load("python").rules if r.id == "SKP005")
    monkeypatch.setattr(rule, "opt_in", True)
    change = added("tests/test_a.py", "@pytest.mark.xfail\ndef test_a():\n    assert f()\n")
    assert scan(change, capsys) == (0, "")
    code, out = scan(change, capsys, frozenset({"SKP005"}))
    assert code == 1
    assert "tests/test_a.py:1:2: SKP005 expected failure" in out


def test_a_team_turns_off_deleted_tests_and_keeps_removed_checks(repo: Repo) -> None:
    repo.write(".receipt-hooks.toml", "[skips]\nrules = {SKP010 = false}\n")
    repo.write("tests/test_a.py", "def test_a():\n    total = f()\n    assert total == 1\n\n\n"
                                  "def test_b():\n    assert g() == 2\n")
    repo.commit("init")
    repo.write("tests/test_a.py", "def test_a():\n    total = f()\n")
    repo.git("add", "-A")
    result = repo.run(HOOK)
    assert result.code == 1, result.both
    assert "tests/test_a.py:2:1: SKP009 assertions removed from a test that remains" in result.out
    assert "SKP010" not in result.out
    repo.write("tests/test_a.py", "def test_a():\n    total = f()\n    assert total == 1\n")
    repo.git("add", "-A")
    deleted_only = repo.run(HOOK)
    assert (deleted_only.code, deleted_only.out) == (0, "")


def test_a_deleted_test_file_is_read_at_commit_and_in_a_range_through_pre_commit(
        repo: Repo, hook_repo: tuple[str, str]) -> None:
    # pre-commit passes no deleted file: the hook runs anyway and reads the deletion
    repo.write(".pre-commit-config.yaml", precommit_config(hook_repo, HOOK))
    repo.write("tests/test_status.py", "def test_status():\n    assert status() == 200\n")
    base = repo.commit("init")
    assert repo.run("pre-commit", "install").code == 0
    # it runs on a commit that stages nothing too, and has nothing to say there
    empty = repo.run("git", "commit", "-q", "--allow-empty", "-m", "nothing staged")
    assert empty.code == 0, empty.both
    assert "no-inserted-skips" in empty.both and "write-baseline" not in empty.both
    repo.git("rm", "-q", "tests/test_status.py")
    refused = repo.run("git", "commit", "-m", "drop the status tests")
    assert refused.code == 1, refused.both
    assert "tests/test_status.py:1:1: SKP010 test deleted with its assertions" in refused.both
    assert repo.run("git", "commit", "-q", "--no-verify", "-m", "drop them").code == 0
    head = repo.git("rev-parse", "HEAD")
    ranged = repo.run("pre-commit", "run", HOOK, "--from-ref", base, "--to-ref", head)
    assert ranged.code == 1, ranged.both
    assert "tests/test_status.py:1:1: SKP010" in ranged.both
    named = repo.run(HOOK, ".pre-commit-config.yaml", "--from-ref", base, "--to-ref", head)
    assert named.code == 1
    assert named.out.startswith("tests/test_status.py:1:1: SKP010")
