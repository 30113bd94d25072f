"""A whole-suite run with flags that only change output, stop on a failure or move temporary
files is the configured trial; a flag that selects tests still is not."""

from __future__ import annotations

import sys

import pytest
from conftest import Repo

from hooks.receipt.command.runner_flags import normalised

PY = sys.executable
TESTS = "def test_a():\n    assert 1 + 1 == 2\n\ndef test_b():\n    assert 2 * 2 == 4\n"


@pytest.mark.parametrize("flags", [
    ["."], ["-x"], ["--maxfail=2"], ["--basetemp=/tmp/bt"], ["-p", "no:cacheprovider"],
    ["--no-header", "-p", "no:cacheprovider"], ["-o", "console_output_style=classic"],
    ["--tb=short"], ["--durations=5"], ["--strict-markers"],
])
def test_harmless_flags_compare_equal_to_the_bare_command(flags: list[str]) -> None:
    assert normalised(["pytest", "-q", *flags]) == normalised(["pytest"])


@pytest.mark.parametrize("command, flags", [
    (["go", "test", "./..."], ["-count=1", "-failfast", "-v", "-shuffle=off"]),
    (["npx", "jest"], ["--runInBand", "--bail", "--no-cache", "-w", "2"]),
    (["npx", "vitest", "run"], ["--bail=1", "--no-file-parallelism"]),
    (["npx", "mocha"], ["--bail", "--exit"]),
    (["python", "-m", "unittest"], ["-f"]),
    (["cargo", "test"], ["--no-fail-fast", "-j", "4"]),
])
def test_harmless_flags_of_other_runners(command: list[str], flags: list[str]) -> None:
    assert normalised([*command, *flags]) == normalised(command)


@pytest.mark.parametrize("command, flags", [
    (["go", "test", "./..."], ["-short"]), (["go", "test", "./..."], ["-run", "TestA"]),
    (["npx", "jest"], ["-t", "pays"]), (["npx", "mocha"], ["--grep", "pays"]),
    (["cargo", "test"], ["pays"]),
])
def test_selecting_flags_of_other_runners_still_differ(command: list[str],
                                                       flags: list[str]) -> None:
    assert normalised([*command, *flags]) != normalised(command)


@pytest.mark.parametrize("flags", [
    ["-k", "test_a"], ["tests/test_a.py"], ["--lf"], ["--sw"], ["-m", "slow"],
    ["-o", "python_files=x_*.py"], ["-p", "myplugin"], ["--deselect", "t.py::test_a"],
])
def test_selecting_flags_still_differ(flags: list[str]) -> None:
    assert normalised(["pytest", "-q", *flags]) != normalised(["pytest"])


def _project(repo: Repo) -> None:
    repo.write(".receipt-hooks.toml", f'test-command = "{PY} -m pytest -q"\n')
    repo.write("tests/test_calc.py", TESTS)
    repo.commit("project")


@pytest.mark.parametrize("flags", [
    ["-x"], [".", "--strict-markers", "-p", "no:cacheprovider"],
    ["-o", "console_output_style=classic", "--basetemp=bt-tmp", "--maxfail=1"],
])
def test_a_passing_run_with_harmless_flags_vouches_for_the_tree(repo: Repo,
                                                                flags: list[str]) -> None:
    _project(repo)
    assert repo.receipt("run", "--", PY, "-m", "pytest", "-q", *flags).code == 0
    check = repo.receipt("check")
    assert check.code == 0, check.both
    assert "vouches for this tree" in check.both


def test_a_run_that_selects_tests_is_still_the_wrong_trial(repo: Repo) -> None:
    _project(repo)
    assert repo.receipt("run", "--", PY, "-m", "pytest", "-q", "-x",
                    "-k", "test_a").code == 0
    check = repo.receipt("check")
    assert check.code == 6, check.both
    assert "-k" in check.both


@pytest.mark.parametrize("flags", [
    ["--html", "report.html"], ["--html=report"], ["--report-log", "out/log.jsonl"],
    ["--json-report-file", "r.JSON"],
])
def test_a_plugins_report_file_is_output(flags: list[str]) -> None:
    assert normalised(["pytest", "-q", *flags]) == normalised(["pytest"])


def test_a_plugins_report_option_followed_by_a_test_path_selects_that_path(repo: Repo) -> None:
    """A conftest may register --html as a flag: the next word is then a test path pytest
    collects alone. Only a word that ends as the plugin's report does is read as its value."""
    _project(repo)
    repo.write("tests/test_other.py", "def test_c():\n    assert 2 * 3 == 6\n")
    repo.write("tests/conftest.py", "def pytest_addoption(parser):\n"
               "    parser.addoption('--html', action='store_true')\n")
    repo.commit("a flag of its own")
    run = repo.receipt("run", "--", PY, "-m", "pytest", "-q", "--html", "tests/test_other.py")
    assert run.code == 0, run.both
    assert "1 passed" in run.both
    check = repo.receipt("check")
    assert check.code == 6, check.both
    assert "tests/test_other.py" in check.both
