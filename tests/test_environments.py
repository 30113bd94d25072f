"""Environments in the work tree: an un-ignored directory that is plainly a tool's environment
or cache (pyvenv.cfg inside, CACHEDIR.TAG, node_modules/, __pycache__/) is left out of the
tested tree, said once; a run that only filled such caches still vouches for what it tested."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import PASSING_TEST
from conftest import Repo
from conftest import check_receipt

PY = sys.executable


@pytest.fixture
def bare_project(tmp_path: Path) -> Repo:
    """A project whose .gitignore names no environment, as receipt init alone would not."""
    repo = Repo(tmp_path / "repo")
    repo.write(".gitignore", "artifacts/\n")
    return repo


def test_an_unignored_venv_and_node_modules_are_left_out_and_said_once(
        bare_project: Repo) -> None:
    repo = bare_project
    repo.write("t.py", PASSING_TEST)
    repo.commit("tested")
    repo.write(".venv/pyvenv.cfg", "home = /usr/bin\n")
    repo.write(".venv/bin/Activate.ps1", "# activate\n")
    repo.write("web/node_modules/left-pad/index.js", "module.exports = 1\n")
    ran = repo.receipt("run", "--", PY, "t.py")
    assert ran.code == 0, ran.both
    notes = [line for line in ran.err.splitlines() if "left out of the tested tree" in line]
    assert notes == [
        "receipt run: note: left out of the tested tree, as no project's files: .venv/ (a "
        "Python virtual environment (it holds pyvenv.cfg)); web/node_modules/ (installed npm "
        "packages (node_modules)); add them to .gitignore (.venv/ web/node_modules/) to say so "
        "yourself"]
    checked = check_receipt(repo.path)
    assert checked.code == 0, checked.both  # not stale for the environment's files


def test_a_first_real_pytest_run_that_writes_its_caches_still_vouches(
        bare_project: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)  # pytest writes __pycache__
    repo = bare_project
    repo.write("calc.py", "def add(a, b):\n    return a + b\n")
    repo.write("test_calc.py", "from calc import add\n\n\ndef test_add():\n"
                               "    assert add(2, 2) == 4\n")
    repo.commit("tested")
    ran = repo.receipt("run", "--", PY, "-m", "pytest", "-q", "-p", "cacheprovider")
    assert ran.code == 0, ran.both
    assert (repo.path / "__pycache__").is_dir() and (repo.path / ".pytest_cache").is_dir()
    assert "changed the files it tested" not in ran.both
    checked = check_receipt(repo.path)
    assert checked.code == 0, checked.both


def test_a_tracked_directory_is_never_left_out(bare_project: Repo) -> None:
    repo = bare_project
    repo.write("t.py", PASSING_TEST)
    repo.write("vendor/node_modules/kept.js", "1\n")  # committed on purpose: the project's
    repo.commit("tested")
    repo.write("vendor/node_modules/kept.js", "2\n")
    ran = repo.receipt("run", "--", PY, "t.py")
    assert ran.code == 0 and "left out" not in ran.err
    refused = check_receipt(repo.path)
    assert refused.code == 3 and "M vendor/node_modules/kept.js" in refused.out
