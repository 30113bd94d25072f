"""Which runner a recorded command starts, with which of its own arguments (issue 9, classes 2
and 6): launchers and interpreter options are read before the runner's, narrowing is read in
every spelling the runner accepts, and commands compare equal when they select the same tests."""

from __future__ import annotations

import shlex
import sys

import pytest
from conftest import Repo

from hooks.receipt.command.invocation import invocation
from hooks.receipt.command.narrowing import narrowing_flags
from hooks.receipt.command.runner_flags import normalised

PY = sys.executable


def sh(text: str) -> list[str]:
    return ["/bin/sh", "-c", text]


RUNNERS = [
    ("python -m pytest", "pytest", ()),
    ("python3 -X dev -W error -u -m pytest -q", "pytest", ("-q",)),
    ("python3 -I -B -mpytest -x", "pytest", ("-x",)),
    ("python3.11 -Wdefault -Xfrozen_modules=off -m pytest", "pytest", ()),
    ("FOO=1 .venv/bin/pytest -q", "pytest", ("-q",)),
    ("env -u HOME FOO=1 pytest", "pytest", ()),
    ("uv run --with pytest-xdist -- pytest -n 4", "pytest", ("-n", "4")),
    ("poetry run pytest", "pytest", ()),
    ("pipenv run python -m pytest", "pytest", ()),
    ("hatch run test:pytest", "pytest", ()),
    ("coverage run -m pytest", "pytest", ()),
    ("python -m coverage run --source src -m pytest", "pytest", ()),
    ("timeout 600 nice -n 5 pytest", "pytest", ()),
    ("python -m unittest discover -s tests", "unittest", ("discover", "-s", "tests")),
    ("npx --yes jest --ci", "jest", ("--ci",)),
    ("pnpm exec vitest run", "vitest", ("run",)),
    ("yarn jest", "jest", ()),
    ("bunx vitest", "vitest", ()),
    ("npm test -- -t login", "script:test", ("-t", "login")),
    ("npm run test --silent", "script:test", ()),
    ("yarn test -t login", "script:test", ("-t", "login")),
    ("node --test --test-reporter=spec test/", "node", ("--test-reporter=spec", "test/")),
    ("node node_modules/.bin/mocha", "mocha", ()),
    ("go test -v ./...", "go", ("-v", "./...")),
    ("cargo +nightly test -- --nocapture", "cargo", ("--", "--nocapture")),
    ("bun test", "bun", ()),
    ("cd sub && python -m pytest 2>&1", "pytest", ()),
    ("sh -ec 'python -m pytest -q'", "pytest", ("-q",)),
]


@pytest.mark.parametrize(("command", "runner", "args"), RUNNERS, ids=[r[0] for r in RUNNERS])
def test_launchers_and_interpreter_options_are_read_before_the_runner(
        command: str, runner: str, args: tuple[str, ...]) -> None:
    found = invocation(sh(command))
    assert found is not None
    assert (found.runner, found.args) == (runner, args)


def test_the_argv_form_reads_the_same_as_the_shell_form() -> None:
    argv = ["python3", "-X", "dev", "-m", "pytest", "-k", "slow"]
    assert invocation(argv) == invocation(sh("python3 -X dev -m pytest -k slow"))


WHOLE_SUITE = [
    "python -m pytest", "python3 -X dev -W error -u -m pytest", "python -I -m pytest -q",
    "uv run python -m pytest", "pytest tests", "pytest .", "pytest -n 4 -p no:cacheprovider",
    "pytest --junitxml out.xml -rA", "pytest -- tests", "python -m unittest",
    "python -m unittest discover -s tests", "npx jest", "npm test", "npm test -- --ci",
    "vitest run", "go test ./...", "cargo test", "cargo test -- --nocapture", "node --test",
    "mocha 'test/**/*.spec.js'", "make test -k", "python t.py -k x", "FOO=true pytest",
]


@pytest.mark.parametrize("command", WHOLE_SUITE)
def test_whole_suite_commands_are_not_narrowing(command: str) -> None:
    assert narrowing_flags(sh(command)) == []


NARROWED = [
    ("pytest -ktest_x", ["-k"]),
    ("pytest -qk test_x", ["-k"]),
    ("python -m pytest -m slow", ["-m"]),
    ("pytest --deselect=t.py::test_x", ["--deselect"]),
    ("pytest --ignore tests/slow", ["--ignore"]),
    ("PYTEST_ADDOPTS='-k fast' pytest", ["-k (in PYTEST_ADDOPTS)"]),
    ("env PYTEST_ADDOPTS=--lf python -m pytest", ["--lf (in PYTEST_ADDOPTS)"]),
    ("pytest tests/test_login.py", ["tests/test_login.py"]),
    ("pytest test_login.py::test_ok", ["test_login.py::test_ok"]),
    ("pytest tests/unit", ["tests/unit"]),
    ("uv run pytest -xk login", ["-k"]),
    ("python -m unittest tests.test_login", ["tests.test_login"]),
    ("npx jest --test-name-pattern=login", ["--testNamePattern"]),
    ("npm test -- -t login", ["-t"]),
    ("vitest related src/a.ts", ["related", "src/a.ts"]),
    ("mocha -g login", ["-g"]),
    ("node --test --test-name-pattern=login", ["--test-name-pattern"]),
    ("NODE_OPTIONS=--test-only node --test", ["--test-only (in NODE_OPTIONS)"]),
    ("node --test test/login.test.js", ["test/login.test.js"]),
    ("go test -run=TestLogin ./...", ["-run"]),
    ("GOFLAGS=-run=TestLogin go test ./...", ["-run (in GOFLAGS)"]),
    ("go test ./internal/login", ["./internal/login"]),
    ("cargo test login", ["login"]),
    ("cargo test -- --skip slow", ["--skip"]),
]


@pytest.mark.parametrize(("command", "flags"), NARROWED, ids=[n[0] for n in NARROWED])
def test_narrowing_is_seen_in_every_spelling(command: str, flags: list[str]) -> None:
    assert narrowing_flags(sh(command)) == flags


SAME = [
    ("python -m pytest -q", ".venv/bin/pytest"),
    ("pytest", "uv run pytest -rA --color=yes --junitxml=out.xml"),
    ("pytest -q -p no:cacheprovider", "python3 -X dev -m pytest -v"),
    ("pytest -ktest_x", "pytest -k test_x"),
    ("pytest -qk test_x", "pytest --verbose -k test_x"),
    ("pytest ./tests/", "pytest tests"),
    ("npm test", "npm run test"),
    ("npx jest --silent", "jest"),
    ("go test -v ./...", "go test ./..."),
]
DIFFERENT = [
    ("pytest", "pytest -k test_x"),
    ("pytest", "pytest tests/test_a.py"),
    ("pytest", "PYTEST_ADDOPTS=--lf pytest"),
    ("pytest", "python -m unittest"),
    ("npm test", "npm test -- -t x"),
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_commands_selecting_the_same_tests_compare_equal(a: str, b: str) -> None:
    assert normalised(sh(a)) == normalised(sh(b))
    assert normalised(sh(a)) == normalised(shlex.split(b))  # the argv form too


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_commands_selecting_different_tests_compare_different(a: str, b: str) -> None:
    assert normalised(sh(a)) != normalised(sh(b))


def test_python_dash_m_pytest_is_accepted_end_to_end(repo: Repo) -> None:
    repo.write("test_a.py", "def test_a():\n    assert 1 + 1 == 2\n")
    repo.commit("tests")
    ran = repo.receipt("run", "--", PY, "-X", "dev", "-m", "pytest", "-q",
                   "-p", "no:cacheprovider")
    assert ran.code == 0, ran.both
    checked = repo.run("check-receipt")
    assert checked.code == 0, checked.both
    assert "vouches for this tree" in checked.both


@pytest.mark.parametrize(("command", "shown"), [
    (f"{PY} -m pytest -q -p no:cacheprovider -ktest_a", "-k"),
    (f"PYTEST_ADDOPTS='-k test_a' {PY} -m pytest -q -p no:cacheprovider",
     "-k (in PYTEST_ADDOPTS)"),
    (f"{PY} -m pytest -q -p no:cacheprovider test_a.py", "test_a.py"),
])
def test_narrowed_runs_are_off_policy_end_to_end(repo: Repo, command: str, shown: str) -> None:
    repo.write("test_a.py", "def test_a():\n    assert 1 + 1 == 2\n")
    repo.commit("tests")
    assert repo.receipt("run", command).code == 0
    checked = repo.run("check-receipt")
    assert checked.code == 6, checked.both
    assert f"runs only part of the suite ({shown};" in checked.both
    assert repo.run("check-receipt", "--allow-narrowing").code == 0
