"""Review F2, F3, F8: what decides which tests ran besides argv — the directory the command ran
in, the directory changes on its command line, and the runner variables in its environment.

A run in a subdirectory, ``env -C ../other pytest``, ``sh -c 'cd x && pytest'`` or
``PYTEST_ADDOPTS='-k x'`` exported in the shell all tested less than (or other than) the pushed
tree; each used to be accepted as the whole suite.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Repo
from conftest import receipt_check

from hooks.core import schemas
from hooks.receipt.command.narrowing import narrowing_flags
from hooks.receipt.command.runner_flags import normalised
from hooks.receipt.store.keyed import judged_argv
from hooks.receipt.store.keyed import same_command

GOOD = "def test_ok():\n    assert True\n"
BAD = "def test_bad():\n    assert False\n"
CONFIG = 'test-command = "pytest -q -p no:cacheprovider"\n'
SUITE = ("pytest", "-q", "-p", "no:cacheprovider")


def _project(repo: Repo, *, config: bool = True) -> None:
    """tests/unit passes, tests/int fails: only a run at the root sees the failure."""
    repo.write("tests/unit/test_u.py", GOOD)
    repo.write("tests/int/test_i.py", BAD)
    if config:
        repo.write(".receipt-hooks.toml", CONFIG)
    repo.commit("suite")


def _receipt(repo: Repo) -> dict[str, object]:
    data = json.loads((repo.path / "artifacts/test-receipt.json").read_text())
    assert isinstance(data, dict)
    return data


def _good_elsewhere(repo: Repo) -> Path:
    """A directory beside the repository whose tests pass."""
    good = repo.path.parent / "good"
    good.mkdir()
    (good / "test_g.py").write_text(GOOD + GOOD.replace("ok", "ok2"))
    return good


# F2: the directory the command ran in --------------------------------------------------------

def test_a_run_in_a_subdirectory_is_refused_at_push(repo: Repo) -> None:
    _project(repo)
    repo.add_remote()
    assert repo.receipt("install-hook").code == 0
    ran = repo.receipt("run", "--", *SUITE, cwd=repo.path / "tests/unit")
    assert ran.code == 0, ran.both
    assert "the command ran in tests/unit, not at the repository root" in ran.err
    assert _receipt(repo)["cwd"] == "tests/unit"
    pushed = repo.run("git", "push", "origin", "main")
    assert pushed.code != 0
    assert ("wrong trial: " in pushed.both and "the receipt ran 'pytest -q -p no:cacheprovider "
            "(run in tests/unit)', the suite is 'pytest -q -p no:cacheprovider'" in pushed.both)


def test_a_run_in_a_subdirectory_is_narrowing_without_a_config(repo: Repo) -> None:
    _project(repo, config=False)
    assert repo.receipt("run", "--", *SUITE, cwd=repo.path / "tests/unit").code == 0
    checked = receipt_check(repo.path)
    assert checked.code == 6, checked.both
    assert "runs only part of the suite (runs in tests/unit;" in checked.out


def test_receipt_run_alone_runs_the_configured_suite_from_the_root(repo: Repo) -> None:
    _project(repo)
    ran = repo.receipt("run", cwd=repo.path / "tests/unit")
    assert ran.code == 1, ran.both
    assert "1 passed, 1 failed" in ran.err
    assert "cwd" not in _receipt(repo)  # it ran at the root
    checked = receipt_check(repo.path / "tests/unit")
    assert checked.code == 4, checked.both
    assert "the recorded run failed (exit_code 1" in checked.out
    repo.write("tests/int/test_i.py", GOOD)  # the whole suite passes: accepted
    repo.commit("fixed")
    assert repo.receipt("run", cwd=repo.path / "tests/unit").code == 0
    checked = receipt_check(repo.path)
    assert checked.code == 0, checked.both
    assert "vouches for this tree (pytest -q -p no:cacheprovider)" in checked.out


def test_a_subdirectory_run_that_returns_to_the_root_is_the_suite(repo: Repo) -> None:
    repo.write("tests/test_u.py", GOOD)
    repo.commit("suite")
    ran = repo.receipt("run", "cd .. && pytest -q -p no:cacheprovider",
                   cwd=repo.path / "tests")
    assert ran.code == 0, ran.both
    checked = receipt_check(repo.path)
    assert checked.code == 0, checked.both


# F3: directory changes on the command line ----------------------------------------------------

CHDIR_WRAPPERS = [
    ("env", "-C", "../good", *SUITE),
    ("env", "--chdir=../good", *SUITE),
    ("timeout", "600", "env", "-C", "../good", *SUITE),
    ("nice", "-n", "5", "env", "-C", "../good", *SUITE),
    ("sh", "-c", "cd ../good && pytest -q -p no:cacheprovider"),
]


@pytest.mark.parametrize("command", CHDIR_WRAPPERS, ids=lambda c: " ".join(c[:3]))
def test_a_run_in_another_directory_is_not_the_suite(command: tuple[str, ...]) -> None:
    """The check's two verdicts on each wrapper, in process: another command than the configured
    suite (wrong trial), and with no config a narrowed run (runs in ../good)."""
    recorded = judged_argv({"argv": list(command)})
    assert recorded is not None
    assert not same_command(recorded, CONFIG.split('"')[1])
    assert "runs in ../good" in narrowing_flags(recorded)


@pytest.mark.parametrize("command", [CHDIR_WRAPPERS[0], CHDIR_WRAPPERS[-1]],
                         ids=lambda c: " ".join(c[:3]))
def test_a_run_in_another_directory_does_not_vouch(repo: Repo, command: tuple[str, ...]) -> None:
    repo.write("tests/test_bad.py", BAD)
    repo.write(".receipt-hooks.toml", CONFIG)
    repo.commit("broken")
    _good_elsewhere(repo)
    assert repo.receipt("run", "--", *command).code == 0
    checked = receipt_check(repo.path)
    assert checked.code == 6, checked.both
    assert "wrong trial: " in checked.out
    assert "the suite is 'pytest -q -p no:cacheprovider'" in checked.out
    (repo.path / ".receipt-hooks.toml").unlink()  # with no config, it is narrowing
    repo.commit("no config")
    assert repo.receipt("run", "--", *command).code == 0
    checked = receipt_check(repo.path)
    assert checked.code == 6, checked.both
    assert "runs only part of the suite (runs in ../good;" in checked.out


@pytest.mark.parametrize(("argv", "flag"), [
    (["make", "-C", "sub", "test"], "runs in sub"),
    (["make", "--directory=sub", "test"], "runs in sub"),
    (["git", "-C", "sub", "status"], "runs in sub"),
    (["npm", "--prefix", "sub", "test"], "runs in sub"),
    (["yarn", "--cwd", "sub", "test"], "runs in sub"),
    (["uv", "run", "--directory", "sub", "pytest"], "runs in sub"),
    (["poetry", "run", "-C", "sub", "pytest"], "runs in sub"),
    (["env", "-Csub", "pytest"], "runs in sub"),
    (["/bin/sh", "-c", "cd sub; pytest"], "runs in sub"),
    (["bash", "-ec", "pushd sub && pytest"], "runs in sub"),
    (["/bin/sh", "-c", "cd && pytest"], "runs in ~"),
    (["go", "test", "-C", "sub", "./..."], "-C"),
    (["cargo", "test", "--manifest-path", "sub/Cargo.toml"], "--manifest-path"),
    (["pytest", "--rootdir", "../other"], "--rootdir"),
    (["pytest", "-c", "other.ini"], "-c"),
    (["pytest", "--confcutdir=sub"], "--confcutdir"),
    (["pytest", "-q", "../good"], "../good"),
    (["env", "-S", "pytest -q -k test_c"], "-k"),
    (["env", "--split-string=pytest -k x"], "-k"),
])
def test_directory_changes_are_narrowing(argv: list[str], flag: str) -> None:
    assert flag in narrowing_flags(argv)


@pytest.mark.parametrize("argv", [
    ["/bin/sh", "-c", "cd build && cd .. && pytest"],
    ["env", "-C", ".", "pytest"],
    ["make", "test"],
    ["pytest", "-p", "no:cacheprovider"],
])
def test_no_directory_change_or_a_return_to_the_root_is_not(argv: list[str]) -> None:
    assert not [f for f in narrowing_flags(argv) if f.startswith("runs in")]


def test_a_chdir_command_is_not_the_same_suite() -> None:
    assert normalised(["env", "-C", "../good", "pytest"]) != normalised(["pytest"])
    assert normalised(["timeout", "9", "pytest", "-q"]) == normalised(["pytest"])


def test_a_configured_command_that_changes_directory_is_accepted(repo: Repo) -> None:
    repo.write("pkg/tests/test_p.py", GOOD)
    repo.write(".receipt-hooks.toml",
               'test-command = "cd pkg && pytest -q -p no:cacheprovider"\n')
    repo.commit("suite in pkg")
    assert repo.receipt("run").code == 0
    checked = receipt_check(repo.path)
    assert checked.code == 0, checked.both


def test_receipt_run_outside_the_work_tree_is_refused(repo: Repo) -> None:
    repo.write("tests/test_bad.py", BAD)
    repo.commit("broken")
    good = _good_elsewhere(repo)
    ran = repo.receipt("run", "--", *SUITE, cwd=good,
                   env={"GIT_DIR": str(repo.path / ".git"), "GIT_WORK_TREE": str(repo.path)})
    assert ran.code == 1
    assert ran.err == (f"receipt run: the current directory {good} is outside the work tree "
                       f"{repo.path} whose files the receipt would vouch for: cd {repo.path} and "
                       f"run it there\n")
    assert not (repo.path / "artifacts").exists()
    assert not (good / "artifacts").exists()


# F8: runner variables in the environment ------------------------------------------------------

def _addopts_project(repo: Repo, *, config: bool) -> None:
    repo.write("tests/test_ok.py", GOOD)
    repo.write("tests/test_bad.py", BAD)
    if config:
        repo.write(".receipt-hooks.toml", CONFIG)
    repo.commit("broken")


def test_exported_pytest_addopts_is_recorded_and_refused(repo: Repo) -> None:
    _addopts_project(repo, config=True)
    repo.add_remote()
    assert repo.receipt("install-hook").code == 0
    ran = repo.receipt("run", "--", *SUITE, env={"PYTEST_ADDOPTS": "-k test_ok"})
    assert ran.code == 0, ran.both
    assert _receipt(repo)["env"] == {"PYTEST_ADDOPTS": "-k test_ok"}
    pushed = repo.run("git", "push", "origin", "main")
    assert pushed.code != 0
    # the command shown holds single quotes, so it is shown in double quotes (cmdline.quoted)
    assert ('the receipt ran "pytest -q -p no:cacheprovider (with PYTEST_ADDOPTS=\'-k test_ok\')"'
            in pushed.both)


def test_exported_pytest_addopts_is_narrowing_without_a_config(repo: Repo) -> None:
    _addopts_project(repo, config=False)
    assert repo.receipt("run", "--", *SUITE, env={"PYTEST_ADDOPTS": "-k ok"}).code == 0
    checked = receipt_check(repo.path)
    assert checked.code == 6, checked.both
    assert "runs only part of the suite (-k (in PYTEST_ADDOPTS);" in checked.out


def test_harmless_exported_pytest_addopts_still_vouches(repo: Repo) -> None:
    repo.write("tests/test_ok.py", GOOD)
    repo.write(".receipt-hooks.toml", CONFIG)
    repo.commit("suite")
    ran = repo.receipt("run", env={"PYTEST_ADDOPTS": "-v --color=no"})
    assert ran.code == 0, ran.both
    data = json.loads((repo.path / "artifacts/test-receipt.json").read_text())
    assert "env" in data and schemas.validate(schemas.RECEIPT_V2, data) == []
    checked = receipt_check(repo.path)
    assert checked.code == 0, checked.both


def test_pytest_plugins_variable_is_read_as_plugins() -> None:
    assert normalised(["env", "PYTEST_PLUGINS=a, b", "pytest"]) == (("pytest", "-p", "a", "-p",
                                                                      "b"),)
    assert normalised(["env", "PYTEST_PLUGINS=a", "pytest"]) != normalised(["pytest"])


OVERRIDE_INI = [
    ("python_files=test_ok.py", True),
    ("testpaths=nothing", True),
    ("addopts=-k ok", True),
    ("console_output_style=classic", False),
]


@pytest.mark.parametrize(("option", "narrows"), OVERRIDE_INI)
def test_override_ini_is_narrowing_unless_it_only_changes_the_report(
        option: str, narrows: bool) -> None:
    assert ("-o" in narrowing_flags([*SUITE, "-o", option])) is narrows


@pytest.mark.parametrize(("option", "narrows"), OVERRIDE_INI[2:])
def test_override_ini_narrows_unless_it_only_changes_the_report(
        repo: Repo, option: str, narrows: bool) -> None:
    repo.write("tests/test_ok.py", GOOD)
    repo.commit("suite")
    assert repo.receipt("run", "--", *SUITE, "-o", option).code == 0
    checked = receipt_check(repo.path)
    assert checked.code == (6 if narrows else 0), checked.both
    assert ("runs only part of the suite (-o;" in checked.out) is narrows


@pytest.mark.parametrize(("recorded", "flag"), [
    ({"argv": ["go", "test", "./..."], "env": {"GOFLAGS": "-run=TestX"}}, "-run (in GOFLAGS)"),
    ({"argv": ["node", "--test"], "env": {"NODE_OPTIONS": "--test-name-pattern=x"}},
     "--test-name-pattern (in NODE_OPTIONS)"),
    ({"argv": ["/bin/sh", "-c", "pytest -q"], "env": {"PYTEST_ADDOPTS": "-k x"}},
     "-k (in PYTEST_ADDOPTS)"),
    ({"argv": ["python", "-m", "pytest"], "cwd": "tests/unit"}, "runs in tests/unit"),
])
def test_the_recorded_directory_and_variables_are_read_as_the_command(
        recorded: dict[str, object], flag: str) -> None:
    argv = judged_argv(recorded)
    assert argv is not None
    assert flag in narrowing_flags(argv)
    assert judged_argv({"argv": ["pytest"], "cwd": "."}) == ["pytest"]
