"""SKP008 on the CI classes a held-out review of six repositories found it getting wrong: each
class with a case that must be reported and one that must not, in process through the one
scan the hook runs, and one change through a real staged commit and the hook's process.

M1 runners' own deselection options, M2 continue-on-error given by an expression, M3 an entry
added to an existing allow-list, E1 '|| true' after a command that runs no test, E2
continue-on-error on a step that runs no test, E3 a skip flag on a deploy after the tests ran,
R1 (SKP001/SKP005) an existing skip respelled in the same place.
"""

from __future__ import annotations

import pytest
from conftest import Repo
from test_skips_classes import HOOK
from test_skips_classes import Change
from test_skips_classes import added
from test_skips_classes import scan

WF = ".github/workflows/ci.yml"


def workflow(*steps: str) -> str:
    return "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n" + "".join(steps)


def step(run: str, *extra: str) -> str:
    return f"      - run: {run}\n" + "".join(f"        {e}\n" for e in extra)


def edited(path: str, before: str, after: str) -> Change:
    return {path: (before, after)}


REPORTED = [  # (class, change, path:line)
    ("M1: libtest --skip added to an existing cargo test run",
     edited(WF, workflow(step("cargo test --features preserve_order")),
            workflow(step("cargo test --features preserve_order --tests -- --skip ui --exact"))),
     f"{WF}:5"),
    ("M1: go test -skip", added(WF, workflow(step("go test ./... -skip TestSlow"))), f"{WF}:5"),
    ("M1: nextest filter expression with not",
     added(WF, workflow(step("cargo nextest run -E 'not test(ui)'"))), f"{WF}:5"),
    ("M1: mocha --exclude in package.json",
     added("package.json", '{\n  "scripts": {\n    "test": "mocha --exclude test/slow.js"\n'
                           '  }\n}\n'), "package.json:3"),
    ("M1: vitest --exclude", added("Makefile", "test:\n\tnpx vitest run --exclude e2e\n"),
     "Makefile:2"),
    ("M1: rspec --tag ~slow", added(WF, workflow(step("bundle exec rspec --tag ~slow"))),
     f"{WF}:5"),
    ("M1: surefire -Dtest='!X'", added(WF, workflow(step("mvn -B verify -Dtest='!FlakyIT'"))),
     f"{WF}:5"),
    ("M1: pytest -m 'not ...' in addopts",
     added("pytest.ini", "[pytest]\naddopts = -m 'not network'\n"), "pytest.ini:2"),
    ("M2: continue-on-error from the matrix on a test step",
     edited(WF, workflow(step("bundle exec rake")),
            workflow(step("bundle exec rake",
                          "continue-on-error: ${{ matrix.allow-failure || false }}"))),
     f"{WF}:6"),
    ("M2: continue-on-error from an expression on a job",
     added(WF, "jobs:\n  test:\n    continue-on-error: ${{ matrix.experimental }}\n"
               "    steps:\n" + step("pytest")), f"{WF}:3"),
    ("M3: an entry added to an existing allow_failures list",
     edited(".travis.yml", "matrix:\n  allow_failures:\n  - rvm: ruby-head\n",
            "matrix:\n  allow_failures:\n  - rvm: ruby-head\n  - rvm: jruby\n"),
     ".travis.yml:4"),
    ("E1: || true after the test runner", added(WF, workflow(step("pytest -q || true"))),
     f"{WF}:5"),
    ("E1: || true after a check continued over lines",
     added("ci/test_complete.sh", "#!/bin/sh\ndiff -U2 \\\n    \"$a\" \"$b\" || true\n"),
     "ci/test_complete.sh:3"),
    ("E1: || true after a package script that tests",
     added("package.json", '{\n  "scripts": {\n    "ci": "npm run test:unit || true"\n'
                           '  }\n}\n'), "package.json:3"),
    ("E2: continue-on-error: true on a test step",
     added(WF, workflow(step("npm test", "continue-on-error: true"))), f"{WF}:6"),
    ("E2: continue-on-error: true on a job whose steps test",
     added(WF, "jobs:\n  test:\n    continue-on-error: true\n    steps:\n"
               "      - uses: actions/checkout@v4\n" + step("make check")), f"{WF}:3"),
    ("E2: continue-on-error on a test step that runs unless cancelled",
     added(WF, workflow(step("pytest", "if: ${{ !cancelled() }}", "continue-on-error: true"))),
     f"{WF}:7"),
    ("E3: a skip flag on a deploy with no test run before it",
     added(WF, workflow(step("mvn -B deploy -Dmaven.test.skip=true"))), f"{WF}:5"),
    ("R1: ava's test.failing respelled test.skip now never runs",
     edited("test/a.ts", "test.failing('a', async t => {\n  t.pass();\n});\n",
            "test.skip('a', async t => {\n  t.pass();\n});\n"), "test/a.ts:1"),
    ("R1: an xfail mark removed from one test, a call added to another",
     edited("tests/test_a.py", "@pytest.mark.xfail(sys.version_info < (3, 7), reason='x')\n"
                               "def test_a():\n    assert f()\n\n\ndef test_b():\n"
                               "    assert g()\n",
            "def test_a():\n    assert f()\n\n\ndef test_b():\n"
            "    if sys.version_info < (3, 7):\n        pytest.xfail(reason='x')\n"
            "    assert g()\n"), "tests/test_a.py:7"),
    ("E3: a skip flag on an install after the tests (not a deploy)",
     added(WF, workflow(step("mvn -B verify"), step("mvn -B install -DskipTests"))),
     f"{WF}:6"),
]

QUIET = [  # (class, change)
    ("M1: git rebase --skip is not cargo's",
     added(WF, workflow(step("git rebase --skip && cargo test")))),
    ("M1: a commit message saying 'not' is no marker expression",
     added(WF, workflow(step("git commit -m 'do not merge' && pytest")))),
    ("M1: pytest -m selecting a marker deselects nothing it names",
     added("pytest.ini", "[pytest]\naddopts = -m slow\n")),
    ("M1: the same deselection moved to another line is not new",
     edited(WF, workflow(step("cargo test -- --skip ui")),
            workflow(step("cargo build"), step("cargo test -- --skip ui")))),
    ("M2: continue-on-error: false in any spelling",
     added(WF, workflow(step("pytest", "continue-on-error: false"),
                        step("tox", "continue-on-error: ${{ false }}")))),
    ("M2: an existing continue-on-error rewritten to a narrower expression",
     edited(WF, workflow(step("pytest", "continue-on-error: true")),
            workflow(step("pytest", "continue-on-error: ${{ matrix.python == '3.14' }}")))),
    ("M3: an allow-listed version bumped in place",
     edited(".travis.yml", "matrix:\n  allow_failures:\n  - rvm: jruby-9.2.12.0\n",
            "matrix:\n  allow_failures:\n  - rvm: jruby-9.2.14.0\n")),
    ("M3: an entry added to a list that is not an allow-list",
     edited(".travis.yml", "matrix:\n  include:\n  - rvm: ruby-head\n",
            "matrix:\n  include:\n  - rvm: ruby-head\n  - rvm: jruby\n")),
    ("E1: a coverage upload after the tests",
     added("package.json", '{\n  "scripts": {\n    "test-ci": "mocha test/ && '
                           '(cat ./coverage/lcov.info | coveralls || true)"\n  }\n}\n')),
    ("E1: listing the environment", added(WF, workflow(step("npm -s ls ||:")))),
    ("E1: uploading coverage with a script from curl",
     added(WF, workflow(step("bash <(curl -s https://codecov.io/bash) || true")))),
    ("E2: a failure notification", added(WF, workflow(
        step("pytest"), "      - if: failure()\n        uses: zzak/action-discord@v4\n"
                        "        continue-on-error: true\n"))),
    ("E2: an artifact upload", added(WF, workflow(
        step("cargo test"), "      - uses: actions/upload-artifact@v4\n"
                            "        with:\n          path: Cargo.lock\n"
                            "        continue-on-error: true\n"))),
    ("E2: a notification job", added(WF, "jobs:\n  notify:\n    continue-on-error: true\n"
                                         "    steps:\n      - uses: zzak/action-discord@v4\n")),
    ("R1: RSpec pending respelled skip on the same line",
     edited("spec/json_spec.rb", "begin\n  require lib\nrescue LoadError\n"
                                 "  pending \"unable to load #{lib}\"\nend\n",
            "begin\n  require lib\nrescue LoadError\n  skip \"unable to load #{lib}\"\nend\n")),
    ("R1: an xfail mark become a pytest.xfail() call in the same test",
     edited("tests/test_a.py", "@pytest.mark.xfail(sys.version_info < (3, 7), reason='x')\n"
                               "@pytest.mark.asyncio\nasync def test_a():\n    assert await f()\n",
            "@pytest.mark.parametrize('backend', [1, 2])\n@pytest.mark.asyncio\n"
            "async def test_a(backend):\n    if sys.version_info < (3, 7):\n"
            "        pytest.xfail(reason='x')\n    assert await f()\n")),
    ("E3: a deploy after the tests ran in the same job",
     added(WF, workflow(step("mvn -B verify"),
                        step("mvn -B deploy --settings=.m2.xml -Dmaven.test.skip=true")))),
]


RULE_OF = {"R1: ava's test.failing respelled test.skip now never runs": "SKP001",
           "R1: an xfail mark removed from one test, a call added to another": "SKP005"}


@pytest.mark.parametrize(("change", "where", "rule"),
                         [(c[1], c[2], RULE_OF.get(c[0], "SKP008")) for c in REPORTED],
                         ids=[c[0] for c in REPORTED])
def test_ci_classes_that_are_reported(change: Change, where: str, rule: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, out = scan(change, capsys)
    assert code == 1, out
    assert f"{where}:" in out and f" {rule} " in out, out


@pytest.mark.parametrize("change", [c for _, c in QUIET], ids=[n for n, _ in QUIET])
def test_ci_classes_that_stay_quiet(change: Change, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = scan(change, capsys)
    assert (code, out) == (0, "")


def test_a_new_allow_list_is_one_finding(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = scan(added(".travis.yml", "matrix:\n  allow_failures:\n  - rvm: ruby-head\n"
                                          "  - rvm: jruby\n"), capsys)
    assert code == 1
    assert [ln.split(": ")[0] for ln in out.splitlines() if " SKP008 " in ln] \
        == [".travis.yml:2:3"], out


def test_a_runner_deselection_through_a_staged_commit(repo: Repo) -> None:
    repo.write(WF, workflow(step("cargo test --features preserve_order")))
    repo.commit("init")
    repo.write(WF, workflow(step("cargo test --features preserve_order -- --skip ui"),
                            step("cat lcov.info | coveralls || true")))
    repo.git("add", "-A")
    result = repo.run(HOOK)
    assert result.code == 1, result.out
    assert (f"{WF}:5:") in result.out
    assert "SKP008 tests deselected by the runner's own exclusion option" in result.out
    assert f"{WF}:6:" not in result.out  # the coverage upload's || true hides no test
