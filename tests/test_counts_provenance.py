"""Counts come only from output the run produced: a JUnit report counts only when the run
wrote it, and pytest's own closing summary wins over summary-shaped lines printed after it
(a conftest's ``pytest_unconfigure``). Real pytest runs in real repositories."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from conftest import Repo
from conftest import built_template
from conftest import copied

from hooks.core.exits import FAILED
from hooks.receipt.record.testcounts import TestCounter

PY = sys.executable
PYTEST = (PY, "-m", "pytest", "-p", "no:cacheprovider")
SKIPPED = ("import pytest\n\n"
           + "".join(f"@pytest.mark.skip(reason='later')\ndef test_{n}():\n    assert 0\n\n"
                     for n in "abc"))
OLD_REPORT = ('<testsuite name="s" tests="5" failures="0" errors="0" skipped="0">'
              + "".join(f'<testcase name="t{n}"/>' for n in range(5)) + "</testsuite>")


def _suite(repo: Repo) -> None:
    repo.write("tests/test_later.py", SKIPPED)
    repo.commit("a suite whose every test is skipped")
    repo.add_remote()


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_template(tmp_path_factory, _suite)


@pytest.fixture
def suite(template: Path, tmp_path: Path) -> Repo:
    return copied(template, tmp_path)


def _tests(repo: Repo) -> object:
    return json.loads((repo.path / "artifacts/test-receipt.json").read_text())["tests"]


@pytest.mark.parametrize(("quiet", "fake"), [
    (["-q"], "3 passed in 0.01s"), ([], "=" * 30 + " 3 passed in 0.01s " + "=" * 30)])
def test_a_summary_printed_after_pytests_own_counts_for_nothing(suite: Repo, fake: str,
                                                                 quiet: list[str]) -> None:
    suite.commit("a conftest that lies", **{"conftest.py": (
        f"def pytest_unconfigure(config):\n    print({fake!r})\n")})
    ran = suite.receipt("run", "--", *PYTEST, *quiet)
    assert ran.code == 0, ran.both
    assert "0 passed, 0 failed, 3 skipped, 0 errors (pytest)" in ran.err
    check = suite.receipt("check")
    assert check.code == FAILED, check.both
    assert "no test passed (3 skipped)" in check.out


def test_a_second_pytest_run_in_the_command_is_read(suite: Repo) -> None:
    suite.commit("a passing test", **{"tests__test_now.py": "def test_now():\n    pass\n"})
    script = f"{PY} -m pytest -q -p no:cacheprovider tests/test_later.py && " \
             f"{PY} -m pytest -q -p no:cacheprovider tests/test_now.py"
    ran = suite.receipt("run", script)
    assert ran.code == 0, ran.both
    assert "1 passed, 0 failed, 0 skipped, 0 errors (pytest)" in ran.err


def test_a_test_printing_a_summary_before_pytests_is_overridden() -> None:
    counter = TestCounter(frozenset({"pytest"}))
    counter.feed(b"9 passed in 0.01s\n.s [100%]\n1 passed, 1 skipped in 0.02s\n")
    assert counter.result() == {"runner": "pytest", "passed": 1, "failed": 0, "skipped": 1,
                                "errors": 0, "total": 2}


def test_a_junit_report_older_than_the_run_counts_for_nothing(suite: Repo) -> None:
    report = suite.write("artifacts/old.xml", OLD_REPORT)
    os.utime(report, (1_600_000_000, 1_600_000_000))
    ran = suite.receipt("run", "--junit", str(report), "--", *PYTEST, "-q")
    assert ran.code == 0, ran.both
    assert (f"receipt run: warning: --junit {report} was not written during this run (it is "
            f"unchanged since before the command started); counts are from its output"
            in ran.err)
    assert "0 passed, 0 failed, 3 skipped, 0 errors (pytest)" in ran.err
    check = suite.receipt("check")
    assert check.code == FAILED, check.both


def test_a_junit_report_the_run_rewrote_is_counted(suite: Repo) -> None:
    report = suite.write("artifacts/report.xml", OLD_REPORT)
    os.utime(report, (1_600_000_000, 1_600_000_000))
    ran = suite.receipt("run", "--junit", str(report), "--", *PYTEST, "-q",
                        f"--junitxml={report}")
    assert ran.code == 0, ran.both
    assert "was not written" not in ran.err
    assert _tests(suite) == {"runner": "junit", "passed": 0, "failed": 0, "skipped": 3,
                             "errors": 0, "total": 3}
