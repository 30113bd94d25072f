"""``receipt doctor``: every item ok on a set-up ``receipt init`` made (exit 0), and each item
of a deliberately broken one named with its fix (exit 1)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from conftest import PASSING_TEST
from conftest import Repo

from hooks.core.exits import FINDINGS

PY = sys.executable


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory, hook_repo: tuple[str, str]) -> Path:
    repo = Repo(tmp_path_factory.mktemp("doctor") / "proj")
    repo.write("t.py", PASSING_TEST)
    repo.write("pyproject.toml", "[project]\nname = \"proj\"\n")
    done = repo.receipt("init", "--test-command", f"{PY} t.py", "--hooks-repo", hook_repo[0],
                        "--agent", "claude-code")
    assert done.code == 0, done.both
    return repo.path


@pytest.fixture
def set_up(template: Path, tmp_path: Path) -> Repo:
    """A copy of the project receipt init set up (built once for the module)."""
    shutil.copytree(template, tmp_path / "proj", symlinks=True)
    return Repo(tmp_path / "proj", init=False)


def test_a_set_up_made_by_init_is_all_ok(set_up: Repo, hook_repo: tuple[str, str]) -> None:
    result = set_up.receipt("doctor")
    assert result.code == 0, result.both
    said = result.out.splitlines()
    assert len(said) == 8 and all(line.startswith("receipt doctor: ok: ") for line in said)
    assert said[0] == "receipt doctor: ok: both hook types (pre-commit, pre-push) are installed"
    assert said[1].startswith("receipt doctor: ok: rev ") and hook_repo[0] in said[1]
    assert said[3] == ("receipt doctor: ok: check-receipt --publish: a passing push publishes "
                       "the receipts")
    assert said[5] == (f"receipt doctor: ok: pyproject.toml is valid (test-command "
                       f"'{PY} t.py', require tip)")
    assert said[6] == "receipt doctor: ok: agent stop hooks present: claude-code " \
                      "(.claude/settings.json)"
    assert said[7].startswith("receipt doctor: ok: .gitignore covers artifacts/, .venv/")


def test_each_broken_item_is_named_with_its_fix(set_up: Repo, tmp_path: Path) -> None:
    repo = set_up
    os.unlink(repo.path / ".git/hooks/pre-push")
    config = (repo.path / ".pre-commit-config.yaml").read_text()
    rev = next(line.split()[1] for line in config.splitlines() if "rev:" in line)
    config = config.replace(rev, "0" * 40).replace("        args: [--publish]\n", "")
    config = config.replace("default_install_hook_types: [pre-commit, pre-push]\n", "")
    repo.write(".pre-commit-config.yaml", config)
    repo.write("pyproject.toml", '[tool.receipt-hooks]\ntest-command = "pytest"\n'
                                 'require = "sometimes"\n')
    settings = repo.path / ".claude/settings.json"
    settings.write_text(settings.read_text().replace('"receipt agent-hook',
                                                     '"/nowhere/bin/receipt agent-hook'))
    repo.write(".gitignore", "artifacts/\n")
    no_receipt = tmp_path / "bin"
    no_receipt.mkdir()
    os.symlink(str(shutil.which("git")), no_receipt / "git")
    result = repo.receipt("doctor", env={"PATH": str(no_receipt)})
    assert result.code == FINDINGS, result.both
    said = result.out.splitlines()
    assert said[0] == ("receipt doctor: FIX: hook types not installed here: pre-push: run "
                       "'pre-commit install --hook-type pre-commit --hook-type pre-push'")
    assert said[1].startswith("receipt doctor: FIX: ") and f"has no rev {'0' * 40}" in said[1]
    assert said[2].startswith("receipt doctor: FIX: receipt is not on PATH, so an agent's "
                              "shell cannot run it: put ")
    assert said[3].startswith("receipt doctor: FIX: receipts are not published on push")
    assert said[4].startswith("receipt doctor: ok: ")  # an identity, git's or the tool's
    assert said[5].startswith("receipt doctor: FIX: the config is not valid: ") \
        and "'sometimes' is not one of ['tip', 'every-commit']" in said[5]
    assert said[6] == ("receipt doctor: FIX: .claude/settings.json runs '/nowhere/bin/receipt', "
                       "which does not resolve here: run 'receipt init --agent claude-code' "
                       "again")
    assert said[7] == ("receipt doctor: FIX: .gitignore does not cover .venv/, venv/, "
                       "__pycache__/, .pytest_cache/, .tox/: add them (receipt init does)")


def test_installed_hook_types_without_the_declaration_are_named(set_up: Repo) -> None:
    config = (set_up.path / ".pre-commit-config.yaml").read_text()
    set_up.write(".pre-commit-config.yaml",
                 config.replace("default_install_hook_types: [pre-commit, pre-push]\n", ""))
    result = set_up.receipt("doctor")
    assert result.code == FINDINGS
    assert result.out.splitlines()[0].startswith(
        "receipt doctor: FIX: both hook types are installed here, but .pre-commit-config.yaml "
        "has no 'default_install_hook_types: [pre-commit, pre-push]'")


def test_a_symlinked_environment_is_judged_as_the_link_git_sees(set_up: Repo,
                                                                 tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", set_up.path / ".venv")  # git lists the link itself
    result = set_up.receipt("doctor")
    assert result.code == FINDINGS
    assert result.out.splitlines()[7] == (
        "receipt doctor: FIX: .gitignore does not cover .venv, a symlink (a pattern ending in / "
        "matches only a directory): add '.venv'")
    set_up.write(".gitignore", (set_up.path / ".gitignore").read_text() + ".venv\n")
    result = set_up.receipt("doctor")
    assert result.code == 0, result.both
    assert result.out.splitlines()[7].startswith(
        "receipt doctor: ok: .gitignore covers artifacts/, .venv/, venv/")
