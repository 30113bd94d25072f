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
