"""Review F11: a quiet pytest (-qq, or -q in both the command and addopts) is still counted, and
a pytest that prints nothing countable is refused with the reason and the fix."""

from __future__ import annotations

import sys

import pytest
from conftest import Repo

from hooks.receipt.record.testcounts import TestCounter

PY = sys.executable
TESTS = ("import pytest\n\ndef test_a():\n    assert 1 + 1 == 2\n\ndef test_b():\n"
         "    assert 2 * 2 == 4\n\n@pytest.mark.skip(reason='later')\ndef test_c():\n"
         "    assert 0\n")


def _counts(text: str) -> dict[str, object] | None:
    counter = TestCounter(frozenset({"pytest"}))
    counter.feed(text.encode())
    return counter.result()


def test_progress_marks_count_when_no_summary_came() -> None:
    got = _counts(".Fsx" + " " * 60 + "[ 50%]\n.E" + " " * 60 + "[100%]\n")
    assert got is not None
    assert (got["passed"], got["failed"], got["skipped"], got["errors"], got["total"]) == \
        (2, 1, 2, 1, 6)


def test_the_summary_wins_over_progress_marks() -> None:
    got = _counts("..  [100%]\n3 passed in 0.01s\n")
    assert got is not None and got["passed"] == 3 and got["total"] == 3


def test_a_test_printing_dots_is_not_progress() -> None:
    assert _counts("....\n[100%]\n. [ten]\n") is None


def _project(repo: Repo, pyproject: str, command: str) -> None:
    config = f'\n[tool.receipt-hooks]\ntest-command = "{command}"\n'
    repo.write("pyproject.toml", pyproject + config)
    repo.write("tests/test_calc.py", TESTS)
    repo.commit("project")


@pytest.mark.parametrize("addopts, extra", [('"-q"', "-q"), ('""', "-qq")])
def test_a_quiet_passing_suite_is_counted_and_accepted(repo: Repo, addopts: str,
                                                       extra: str) -> None:
    _project(repo, f"[tool.pytest.ini_options]\naddopts = {addopts}\n", f"{PY} -m pytest {extra}")
    run = repo.receipt("run")
    assert run.code == 0, run.both
    assert "2 passed, 0 failed, 1 skipped, 0 errors (pytest)" in run.err
    check = repo.receipt("check")
    assert check.code == 0, check.both
    assert "vouches for this tree" in check.both


def test_a_quiet_failing_suite_is_counted_as_failed(repo: Repo) -> None:
    _project(repo, "", f"{PY} -m pytest -qq")
    repo.commit("break", **{"tests__test_calc.py": TESTS.replace("2 * 2 == 4", "2 * 2 == 5")})
    run = repo.receipt("run")
    assert run.code == 1
    assert "1 passed, 1 failed, 1 skipped, 0 errors (pytest)" in run.err


def test_a_pytest_that_prints_nothing_countable_says_why_and_how_to_fix(repo: Repo) -> None:
    _project(repo, "[tool.pytest.ini_options]\nconsole_output_style = \"classic\"\n",
             f"{PY} -m pytest -qq")
    assert repo.receipt("run").code == 0
    check = repo.receipt("check")
    assert check.code == 4, check.both
    assert "pytest printed neither its summary line nor its progress lines" in check.both
    assert "receipt run --junit FILE -- pytest --junitxml=FILE" in check.both
