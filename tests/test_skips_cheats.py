"""The skip guard on test code that fakes a green run: a process
exit with status 0 from a test or conftest, a conftest that rewrites outcomes or the exit
status, an assertion failure swallowed, a summary line written by hand. Rule examples and
near misses in process through the one scan the hook runs; one refused commit end to end."""

from __future__ import annotations

import difflib
import re

import pytest
from conftest import Repo
from conftest import precommit_config

from hooks.core.diff import parse_diff
from hooks.skips import all_packs
from hooks.skips.allowances import DEFAULT_TICKET
from hooks.skips.report import report
from hooks.skips.rules import Pack
from hooks.skips.rules import Rule
from hooks.skips.scan import scan_diffs

HOOK = "no-inserted-skips"

# (pack, message) of every rule this class added
CHEAT_RULES = [
    ("python", "assertion failure swallowed by an except that does nothing: the test passes "
               "whatever it checks"),
    ("python", "assertion failure suppressed (suppress(AssertionError)): the test passes "
               "whatever it checks"),
    ("python", "os._exit(0) in test code: the run ends with success and the tests after it "
               "never run"),
    ("python", "pytest.exit with returncode 0: the run ends with success and the tests after "
               "it never run"),
    ("python", "conftest exits with status 0: the run ends with success before the tests "
               "decide it"),
    ("python", "conftest rewrites test reports (outcome, wasxfail): a failure is counted as "
               "something else"),
    ("python", "conftest sets the run's exit status to success"),
    ("python", "test code writes a summary line ('N passed') to the output itself"),
    ("javascript", "process.exit(0) in test code: the run ends with success and the tests "
                   "after it never run"),
    ("go", "os.Exit(0) in a test file: the test binary ends with success whatever its tests "
           "did"),
    ("rust", "process::exit(0) in a test: the test binary ends with success and the tests "
             "after it never run"),
]


def _rule(pack_name: str, message: str) -> tuple[Pack, Rule]:
    pack = next(p for p in all_packs() if p.name == pack_name)
    return pack, next(r for r in pack.rules if r.message == message)


def _lines(text: str | None) -> list[str]:
    return text.split("\n")[:-1] if text else []


def scan(change: dict[str, tuple[str | None, str]],
         capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Exit code and output of the hook's report for CHANGE (path: (before, after)), scanned
    in process from a zero-context diff, as the hook reads git's."""
    diff: list[str] = []
    for path, (before, after) in change.items():
        diff.append(f"diff --git a/{path} b/{path}")
        diff += difflib.unified_diff(
            _lines(before), _lines(after), n=0, lineterm="",
            fromfile="/dev/null" if before is None else f"a/{path}", tofile=f"b/{path}")
    afters = {path: after for path, (_, after) in change.items()}
    results = scan_diffs(parse_diff(("\n".join(diff) + "\n").encode()),
                         lambda paths: {p: afters.get(p) for p in paths})
    capsys.readouterr()
    code = report(results, allow=True, ticket=DEFAULT_TICKET, fmt="text", prog=HOOK)
    return code, capsys.readouterr().out


@pytest.mark.parametrize(("pack_name", "message"), CHEAT_RULES,
                         ids=[p + "-" + re.sub(r"\W+", "-", m)[:40] for p, m in CHEAT_RULES])
def test_rule_flags_its_bad_example_and_not_its_good_one(
        pack_name: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    pack, rule = _rule(pack_name, message)
    assert not rule.opt_in  # on by default: no instance on real history was wrong
    path = rule.sample or pack.sample
    code, out = scan({path: (None, rule.bad)}, capsys)
    assert code == 1, out
    assert re.search(rf"^{re.escape(path)}:\d+:\d+: {rule.id} {re.escape(message)}$", out,
                     re.M), out
    assert scan({path: (None, rule.good)}, capsys) == (0, "")


C22_CONFTEST = """import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    out = yield
    rep = out.get_result()
    rep.outcome = "passed"
"""

FAKED = [  # (path, content, the finding's position and id): the hostile shapes
    ("conftest.py", C22_CONFTEST, "conftest.py:7:8: SKP008 conftest rewrites test reports"),
    ("tests/test_x.py", "import os\n\ndef test_x():\n    os._exit(0)\n",
     "tests/test_x.py:4:5: SKP008 os._exit(0)"),
    ("conftest.py", "import sys\n\ndef pytest_sessionstart(session):\n    sys.exit(0)\n",
     "conftest.py:4:5: SKP008 conftest exits with status 0"),
    ("conftest.py", "def pytest_sessionstart(session):\n    raise SystemExit\n",
     "conftest.py:2:5: SKP008 conftest exits with status 0"),
    ("conftest.py", "def pytest_sessionfinish(session, exitstatus):\n"
                    "    session.exitstatus = pytest.ExitCode.OK\n",
     "conftest.py:2:12: SKP008 conftest sets the run's exit status to success"),
    ("tests/test_z.py", "def test_z():\n    try:\n        assert 1 == 2\n"
                        "    except (ValueError, AssertionError):\n        pass\n",
     "tests/test_z.py:5:9: SKP004 assertion failure swallowed"),
    ("tests/test_z.py", "def test_z(self):\n    try:\n        self.assertEqual(pay(), 2)\n"
                        "    except: pass\n",
     "tests/test_z.py:4:13: SKP004 assertion failure swallowed"),
    ("tests/test_f.py", "import os\n\ndef test_f():\n"
                        "    os.write(3, b'\\n=== 12 passed in 0.05s ===\\n')\n",
     "tests/test_f.py:4:5: SKP008 test code writes a summary line"),
    ("tests/test_e.py", "import pytest\n\ndef test_e():\n    pytest.exit('ok', 0)\n",
     "tests/test_e.py:4:5: SKP008 pytest.exit with returncode 0"),
]


@pytest.mark.parametrize(("path", "content", "finding"), FAKED,
                         ids=[f[2].split(": ", 1)[1][:45] for f in FAKED])
def test_hostile_shapes_are_reported(path: str, content: str, finding: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, out = scan({path: (None, content)}, capsys)
    assert code == 1
    assert out.splitlines()[0].startswith(finding), out


QUIET = [  # (why, path, content): near misses, most of them from real history
    ("a try that asserts nothing: the except only ignores the code's own failure",
     "tests/test_a.py", "def test_a():\n    try:\n        func()\n    except AssertionError:\n"
                        "        pass\n    assert counter[0] == 2\n"),
    ("a retry loop: what follows the loop decides", "tests/test_a.py",
     "def test_a():\n    for _ in range(5):\n        try:\n            assert ready()\n"
     "            break\n        except AssertionError:\n            pass\n"
     "    else:\n        pytest.fail('never ready')\n"),
    ("an except that re-raises", "tests/test_a.py",
     "def test_a():\n    try:\n        assert f()\n    except AssertionError:\n        raise\n"),
    ("a conftest that fails a run harder", "conftest.py",
     "def pytest_runtest_logreport(report):\n    report.outcome = \"failed\"\n"),
    ("pytest's own plugin code, not a conftest", "src/_pytest/skipping.py",
     "def pytest_runtest_makereport(item, call):\n    rep.outcome = \"passed\"\n"),
    ("a forked child's exit", "tests/test_fork.py",
     "import os\n\ndef test_fork():\n    pid = os.fork()\n    if pid == 0:\n"
     "        os._exit(0)\n    assert os.waitpid(pid, 0)[1] == 0\n"),
    ("a test file run as a script", "tests/test_main.py",
     "import sys\n\nif __name__ == '__main__':\n    sys.exit(0)\n"),
    ("pytest.exit with no returncode ends the run red", "tests/test_a.py",
     "def test_a():\n    pytest.exit()\n"),
    ("a conftest that refuses to start", "conftest.py",
     "import sys\n\nif sys.version_info < (3, 9):\n    sys.exit('needs 3.9')\n"),
    ("a summary line inside pytester's test data", "tests/test_a.py",
     "def test_a(pytester):\n    pytester.makepyfile(\"os.write(1, b'3 passed')\")\n"),
    ("a CLI's own exit", "lib/cli/cli.js", "if (done) {\n  process.exit(0);\n}\n"),
    ("a binary's own exit", "crates/core/messages.rs",
     "fn quit() {\n    std::process::exit(0);\n}\n"),
    ("Go's helper-process idiom", "pay/exec_test.go",
     "func TestHelperProcess(t *testing.T) {\n"
     "\tif os.Getenv(\"GO_WANT_HELPER_PROCESS\") != \"1\" {\n\t\treturn\n\t}\n"
     "\tos.Exit(0)\n}\n\nfunc TestRun(t *testing.T) {\n"
     "\tcmd := exec.Command(os.Args[0], \"-test.run=TestHelperProcess\")\n}\n"),
    ("TestMain passes m.Run's code on", "pay/main_test.go",
     "func TestMain(m *testing.M) {\n\tos.Exit(m.Run())\n}\n"),
]


@pytest.mark.parametrize(("why", "path", "content"), QUIET, ids=[q[0] for q in QUIET])
def test_near_misses_stay_quiet(why: str, path: str, content: str,
                                capsys: pytest.CaptureFixture[str]) -> None:
    assert scan({path: (None, content)}, capsys) == (0, ""), why


SWALLOWED = ("def test_a():\n    try:\n        assert pay() == 1\n    except AssertionError:\n"
             "        {}\n")


def test_only_what_the_change_adds(capsys: pytest.CaptureFixture[str]) -> None:
    old = SWALLOWED.format("pass")
    code, out = scan({"tests/test_a.py": (old, old + "\ndef test_b():\n    assert f()\n")},
                     capsys)
    assert (code, out) == (0, "")  # the swallow was there before: not this change's
    code, out = scan({"tests/test_a.py": (SWALLOWED.format("raise"), old)}, capsys)
    assert code == 1  # `raise` became `pass`: the line that swallows is the added one
    assert out.startswith("tests/test_a.py:5:9: SKP004 assertion failure swallowed"), out


def test_a_commit_with_an_outcome_rewriting_conftest_is_refused(
        repo: Repo, hook_repo: tuple[str, str]) -> None:
    repo.write(".pre-commit-config.yaml", precommit_config(hook_repo, HOOK))
    repo.write("tests/test_calc.py", "def test_a():\n    assert 1 + 2 == 3\n")
    repo.commit("init")
    before = repo.git("rev-parse", "HEAD")
    assert repo.run("pre-commit", "install").code == 0
    repo.write("conftest.py", C22_CONFTEST)
    repo.git("add", "-A")
    refused = repo.run("git", "commit", "-m", "conftest")
    assert refused.code == 1
    assert ("conftest.py:7:8: SKP008 conftest rewrites test reports (outcome, wasxfail): "
            "a failure is counted as something else") in refused.both
    assert repo.git("rev-parse", "HEAD") == before
    repo.write("conftest.py", C22_CONFTEST.replace(
        'rep.outcome = "passed"',
        'rep.outcome = "passed"  # receipt: allow SKP008 -- ABC-123 flaky teardown'))
    repo.git("add", "-A")
    allowed = repo.run("git", "commit", "-m", "conftest, justified")
    assert allowed.code == 0, allowed.both
    assert repo.git("rev-parse", "HEAD") != before
