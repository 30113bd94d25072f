"""The skip guard on the classes that real history showed it getting wrong (bench/skips_real):
one small labelled case per class, in process through the one scan the hook runs
(``scan_diffs`` over a change built from before/after texts), and through real git where the
judgement is about the change as a whole."""

from __future__ import annotations

import difflib

import pytest
from conftest import Repo

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
    ("SKP009: a test deleted, its checks gone", {
        "tests/test_a.py": ("def test_a():\n    assert f() == 1\n\n\ndef test_b():\n"
                            "    assert g() == 2\n",
                            "def test_a():\n    assert f() == 1\n")},
     "tests/test_a.py:2", "SKP009"),
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
    assert "tests/test_a.py:2:1: SKP009 assertion removed from a test file" in lost.out


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
