"""A flag that can change what the suite's tests return (a warnings filter, a plugin, xfail
handling, order, timeouts, snapshots, build settings) is not output-only: a receipt of a run
with it is not the suite. Real pytest runs where the flag turns a failing suite green."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import Repo
from conftest import built_template
from conftest import copied

from hooks.core.exits import OFF_POLICY
from hooks.receipt.command.narrowing import narrowing_flags
from hooks.receipt.command.narrowing import outcome_flags
from hooks.receipt.command.runner_flags import normalised

PY = sys.executable
PYTEST = (PY, "-m", "pytest", "-q", "-p", "no:cacheprovider")
# Red as configured: a warning is an error, and a strict xfail that passes fails the run.
INI = "[pytest]\nfilterwarnings =\n    error\nxfail_strict = true\n"
TESTS = ("import warnings\nimport pytest\n\n"
         "def test_warns():\n    warnings.warn('old', DeprecationWarning)\n\n"
         "@pytest.mark.xfail(reason='fixed since')\ndef test_fixed():\n    pass\n")


def _suite(repo: Repo) -> None:
    repo.write("pytest.ini", INI)
    repo.write("tests/test_calc.py", TESTS)
    repo.commit("a suite that fails as configured")
    repo.add_remote()


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_template(tmp_path_factory, _suite)


@pytest.fixture
def suite(template: Path, tmp_path: Path) -> Repo:
    return copied(template, tmp_path)


def test_the_suite_as_configured_fails(suite: Repo) -> None:
    ran = suite.receipt("run", "--", *PYTEST)
    assert ran.code == 1, ran.both


@pytest.mark.parametrize(("flags", "named"), [
    (["-W", "ignore", "--runxfail"], "-W ignore, --runxfail"),
    (["-Wignore", "-o", "xfail_strict=false"], "-W ignore"),
    (["-p", "no:warnings", "--runxfail"], "-p no:warnings, --runxfail"),
])
def test_a_green_run_made_green_by_its_flags_does_not_vouch(suite: Repo, flags: list[str],
                                                             named: str) -> None:
    ran = suite.receipt("run", "--", *PYTEST, *flags)
    assert ran.code == 0, ran.both
    check = suite.receipt("check")
    assert check.code == OFF_POLICY, check.both
    assert f"changes what the suite's tests return ({named};" in check.out


def test_flags_in_pytest_addopts_change_the_outcome_too(suite: Repo) -> None:
    ran = suite.receipt("run", "--", *PYTEST, env={"PYTEST_ADDOPTS": "-W ignore --runxfail"})
    assert ran.code == 0, ran.both
    check = suite.receipt("check")
    assert check.code == OFF_POLICY, check.both
    assert "-W (in PYTEST_ADDOPTS), --runxfail (in PYTEST_ADDOPTS)" in check.out


def test_with_a_configured_suite_the_run_is_the_wrong_trial(suite: Repo) -> None:
    suite.commit("configure", **{".receipt-hooks.toml": f'test-command = "{PY} -m pytest -q"\n'})
    ran = suite.receipt("run", "--", PY, "-m", "pytest", "-q", "-W", "ignore", "--runxfail")
    assert ran.code == 0, ran.both
    check = suite.receipt("check")
    assert check.code == OFF_POLICY, check.both
    assert "wrong trial" in check.out


def test_allow_narrowing_accepts_the_changed_outcome(suite: Repo) -> None:
    assert suite.receipt("run", "--", *PYTEST, "-W", "ignore", "--runxfail").code == 0
    check = suite.receipt("check", "--allow-narrowing")
    assert check.code == 0, check.both


@pytest.mark.parametrize("flags", [
    ["-W", "error"], ["-p", "no:warnings"], ["-p", "myplugin"], ["--runxfail"],
    ["--continue-on-collection-errors"], ["--ff"], ["--nf"], ["--import-mode=append"],
    ["-o", "xfail_strict=false"], ["-o", "log_level=DEBUG"], ["-p", "no:randomly"],
    ["--noconftest"], ["--reruns", "3"], ["--timeout=0"], ["--setup-plan"],
])
def test_pytest_outcome_flags_are_not_output_only(flags: list[str]) -> None:
    argv = ["pytest", "-q", *flags]
    assert normalised(argv) != normalised(["pytest"])
    assert outcome_flags(argv) or narrowing_flags(argv)


@pytest.mark.parametrize(("command", "flags"), [
    (["npx", "jest"], ["-u"]), (["npx", "jest"], ["--ci=false"]),
    (["npx", "jest"], ["--testFailureExitCode", "0"]), (["npx", "jest"], ["--watch"]),
    (["npx", "jest"], ["--setupFilesAfterEnv", "./mute.js"]),
    (["npx", "vitest", "run"], ["--retry", "3"]), (["npx", "vitest", "run"], ["--no-isolate"]),
    (["npx", "vitest", "run"], ["--dangerouslyIgnoreUnhandledErrors"]),
    (["npx", "vitest", "run"], ["--sequence.shuffle"]),
    (["npx", "mocha"], ["--retries", "2"]), (["npx", "mocha"], ["--no-timeouts"]),
    (["go", "test", "./..."], ["-timeout", "0"]), (["go", "test", "./..."], ["-vet=off"]),
    (["go", "test", "./..."], ["-race"]), (["go", "test", "./..."], ["-tags", "integration"]),
    (["go", "test", "./..."], ["-exec", "true"]), (["go", "test", "./..."], ["-c"]),
    (["go", "test", "./..."], ["-shuffle=on"]),
    (["cargo", "test"], ["--release"]), (["cargo", "test"], ["--features", "fast"]),
    (["cargo", "test"], ["--no-run"]), (["cargo", "test"], ["--all-features"]),
])
def test_other_runners_outcome_flags_are_not_output_only(command: list[str],
                                                         flags: list[str]) -> None:
    argv = [*command, *flags]
    assert normalised(argv) != normalised(command)
    assert outcome_flags(argv) or narrowing_flags(argv)


@pytest.mark.parametrize(("command", "flags"), [
    (["npx", "jest"], ["--ci"]), (["npx", "jest"], ["--watch=false"]),
    (["go", "test", "./..."], ["-v", "-count=1"]), (["npx", "mocha"], ["--exit"]),
])
def test_output_only_flags_stay_output_only(command: list[str], flags: list[str]) -> None:
    argv = [*command, *flags]
    assert normalised(argv) == normalised(command)
    assert outcome_flags(argv) == narrowing_flags(argv) == []
