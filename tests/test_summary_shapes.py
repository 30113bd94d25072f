"""Green runs are counted whatever words the runner's summary uses: pytest's summary read by
its shape (plugins' ``1 rerun``, pytest's ``2 subtests passed``), uvu, ava and TAP closing
lines, the go command ``receipt init`` writes, and a project's own ``summary-pattern``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import Repo
from conftest import built_template
from conftest import copied

from hooks.core.errors import CONFIG_ERROR
from hooks.core.exits import FAILED
from hooks.receipt.record.testcounts import TestCounter
from hooks.receipt.store.keyed import configured_argv

PY = sys.executable
PYTEST = f"{PY} -m pytest -q -p no:cacheprovider"
# A conftest that reports tests in categories of their own, as plugins and newer pytest do
# (pytest-rerunfailures' "rerun", pytest 9's "subtests passed"/"subtests failed"), on every
# pytest the suite runs with: pytest prints each category's count in its summary line.
RERUN_CONFTEST = ("import pytest\n\n@pytest.hookimpl(tryfirst=True)\n"
                  "def pytest_report_teststatus(report, config):\n"
                  "    if report.when == 'setup' and 'flaky' in report.nodeid:\n"
                  "        return 'rerun', 'R', 'RERUN'\n"
                  "    if report.when == 'call' and 'test_sub_' in report.nodeid:\n"
                  "        if report.passed:\n"
                  "            return 'subtests passed', ',', 'SUBPASS'\n"
                  "        if report.failed:\n"
                  "            return 'subtests failed', 'u', 'SUBFAIL'\n")
SUBTESTS = ("def test_each():\n    pass\n\n\ndef test_sub_0():\n    assert 0 < {limit}\n\n\n"
            "def test_sub_1():\n    assert 1 < {limit}\n")


def _project(repo: Repo) -> None:
    repo.write(".receipt-hooks.toml", f'test-command = "{PYTEST}"\n')
    repo.write("tests/test_flaky.py", "def test_flaky():\n    pass\n")
    repo.write("tests/test_sub.py", SUBTESTS.format(limit=5))
    repo.write("conftest.py", RERUN_CONFTEST)
    repo.commit("a suite with reruns and subtests")
    repo.add_remote()


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_template(tmp_path_factory, _project)


@pytest.fixture
def suite(template: Path, tmp_path: Path) -> Repo:
    return copied(template, tmp_path)


def test_a_green_run_with_reruns_and_subtests_is_counted_and_vouches(suite: Repo) -> None:
    ran = suite.receipt("run")
    assert ran.code == 0, ran.both
    summary = ran.out.splitlines()[-1].partition(" in ")[0]  # pytest orders the words its way
    assert sorted(summary.split(", ")) == ["1 rerun", "2 passed", "2 subtests passed"], ran.out
    assert "2 passed, 0 failed, 0 skipped, 0 errors (pytest)" in ran.err
    check = suite.receipt("check")
    assert check.code == 0, check.both


def test_a_failing_subtest_is_counted_as_a_failure(suite: Repo) -> None:
    suite.commit("a subtest fails", **{"tests__test_sub.py": SUBTESTS.format(limit=1)})
    ran = suite.receipt("run")
    assert ran.code == 1, ran.both
    check = suite.receipt("check")
    assert check.code == FAILED, check.both
    assert "failed and 0 errors counted by pytest" in check.out


@pytest.mark.parametrize(("line", "counts"), [
    ("1 failed, 2 passed, 1 rerun in 0.10s", (2, 1, 0, 0, 3)),
    ("==== 1 passed, 2 subtests passed in 0.01s ====", (1, 0, 0, 0, 1)),
    ("1 failed, 1 subtests failed, 1 subtests passed in 0.20s", (0, 2, 0, 0, 2)),
    ("3 passed, 1 flaky, 2 deselected, 4 warnings in 1.50s (0:00:01)", (3, 0, 0, 0, 3)),
])
def test_pytest_summaries_are_read_by_their_shape(line: str,
                                                  counts: tuple[int, ...]) -> None:
    counter = TestCounter(frozenset({"pytest"}))
    counter.feed(f"{line}\n".encode())
    got = counter.result()
    assert got is not None
    assert tuple(got[k] for k in ("passed", "failed", "skipped", "errors", "total")) == counts


UVU = ("  math  \u2718 \u2718\n\n  Total:     44\n  Passed:    42\n  Skipped:   1\n"
       "  Duration:  3.21ms\n\n")
AVA = ("  \u2714 adds\n  \u2716 subtracts\n  \u2500\n\n  2 tests passed\n  1 test failed\n"
       "  1 known failure\n  1 test skipped\n")
TAPE = ("TAP version 13\n# adds\nok 1 should be equal\nok 2 should be equal\n# subtracts\n"
        "not ok 3 should be equal\n\n1..3\n# tests 3\n# pass  2\n# fail  1\n")
GO_JSON = "".join(json.dumps(e) + "\n" for e in (
    {"Action": "run", "Package": "example.com/x", "Test": "TestA"},
    {"Action": "pass", "Package": "example.com/x", "Test": "TestA", "Elapsed": 0},
    {"Action": "skip", "Package": "example.com/x", "Test": "TestB", "Elapsed": 0},
    {"Action": "pass", "Package": "example.com/x", "Elapsed": 0.01}))


@pytest.mark.parametrize(("argv", "output", "expected"), [
    (["npx", "uvu", "tests"], UVU, ("uvu", 42, 1, 1, 0, 44)),
    (["npm", "test"], "  Total: 44  Passed: 44  Skipped: 0\n", ("uvu", 44, 0, 0, 0, 44)),
    (["npx", "ava"], AVA, ("ava", 2, 1, 2, 0, 5)),
    (["npx", "tape", "test/*.js"], TAPE, ("tap", 2, 1, 0, 0, 3)),
    (["npm", "test"], TAPE.replace("# fail  1\n", ""), ("tap", 2, 0, 0, 0, 3)),
    (["go", "test", "-json", "./..."], GO_JSON, ("go", 1, 0, 1, 0, 2)),
])
def test_uvu_ava_tap_and_go_json_summaries_are_counted(argv: list[str], output: str,
                                                       expected: tuple[object, ...]) -> None:
    counter = TestCounter.for_command(argv)
    counter.feed(output.encode())
    got = counter.result()
    assert got is not None
    assert tuple(got[k] for k in ("runner", "passed", "failed", "skipped", "errors",
                                  "total")) == expected


GO_VERBOSE = ("=== RUN   TestAdd\n--- PASS: TestAdd (0.00s)\n=== RUN   TestSub\n"
              "=== RUN   TestSub/neg\n    --- SKIP: TestSub/neg (0.00s)\n"
              "--- PASS: TestSub (0.00s)\nPASS\nok  \texample.com/x\t0.004s\n")


def test_the_go_command_init_writes_prints_counts_that_are_read(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "go")
    repo.write("go.mod", "module example.com/x\n\ngo 1.22\n")
    done = repo.receipt("init", "--dry-run")
    assert done.code == 0, done.both
    assert "test-command 'go test -v ./...'" in done.out
    counter = TestCounter.for_command(configured_argv("go test -v ./..."))
    counter.feed(GO_VERBOSE.encode())
    assert counter.result() == {"runner": "go", "passed": 2, "failed": 0, "skipped": 1,
                                "errors": 0, "total": 3}


def _own_runner(repo: Repo, pattern: str, printed: str) -> None:
    repo.write(".receipt-hooks.toml", f"test-command = \"{PY} t.py\"\n"
                                      f"summary-pattern = '{pattern}'\n")
    repo.write("t.py", f"print({printed!r})\n")
    repo.commit("a project with its own runner")


def test_a_projects_own_summary_pattern_counts_its_runs(repo: Repo) -> None:
    _own_runner(repo, r"^RESULT ok=(?P<passed>\d+) bad=(?P<failed>\d+)$", "RESULT ok=5 bad=0")
    ran = repo.receipt("run")
    assert ran.code == 0, ran.both
    assert "5 passed, 0 failed, 0 skipped, 0 errors (custom)" in ran.err
    check = repo.receipt("check")
    assert check.code == 0, check.both


def test_a_projects_own_summary_pattern_counts_failures(repo: Repo) -> None:
    _own_runner(repo, r"^RESULT ok=(?P<passed>\d+) bad=(?P<failed>\d+)$", "RESULT ok=5 bad=2")
    assert repo.receipt("run").code == 0
    check = repo.receipt("check")
    assert check.code == FAILED, check.both
    assert "2 failed and 0 errors counted by custom" in check.out


@pytest.mark.parametrize(("pattern", "why"), [
    (r"RESULT ok=(?P<passed>\d+", "summary-pattern: not a regular expression"),
    (r"RESULT ok=(?P<pass>\d+)", "summary-pattern: names a group the counts have no place "
                                 "for: pass"),
    (r"RESULT ok=(\d+)", "summary-pattern: has no named group passed or failed"),
])
def test_a_bad_summary_pattern_is_a_config_error(repo: Repo, pattern: str, why: str) -> None:
    _own_runner(repo, pattern, "RESULT ok=5")
    for argv in (["run"], ["check"]):
        result = repo.receipt(*argv)
        assert result.code == CONFIG_ERROR, result.both
        assert result.err.startswith("receipt: ")
        assert f".receipt-hooks.toml:2: {why}" in result.err
        assert len(result.err.splitlines()) == 1
