"""The tool's code runs, never the user's: a repository with its own
``hooks`` package, whose ``hooks/check_receipt.py`` passes everything or raises, must neither
pass nor break a push checked by ``receipt install-hook`` or by pre-commit."""

from __future__ import annotations

import sys

import pytest
from conftest import PASSING_TEST
from conftest import Repo
from conftest import precommit_config

PY = sys.executable

IMPOSTORS = {
    "passes": "def main(argv=None):\n    return 0\n\nif __name__ == '__main__':\n"
              "    raise SystemExit(0)\n",
    "raises": "raise RuntimeError('the repository own hooks package ran')\n",
}


def user_project(repo: Repo, impostor: str) -> None:
    repo.write("hooks/__init__.py", "")
    repo.write("hooks/check_receipt.py", IMPOSTORS[impostor])
    repo.write("hooks/cli.py", IMPOSTORS[impostor])
    repo.write("t.py", PASSING_TEST)
    repo.commit("a project with a hooks package of its own")
    repo.add_remote()


def assert_refused_then_accepted(repo: Repo) -> None:
    refused = repo.run("git", "push", "origin", "main")
    assert refused.code == 1, refused.both
    assert "no receipt at artifacts/test-receipt.json" in refused.both
    assert "own hooks package ran" not in refused.both and "Traceback" not in refused.both
    ran = repo.run("receipt", "run", "--", PY, "t.py")
    assert ran.code == 0, ran.both
    accepted = repo.run("git", "push", "origin", "main")
    assert accepted.code == 0, accepted.both
    assert "own hooks package ran" not in accepted.both


@pytest.mark.parametrize("impostor", sorted(IMPOSTORS))
def test_install_hook_runs_the_installed_check_receipt(repo: Repo, impostor: str) -> None:
    user_project(repo, impostor)
    installed = repo.run("receipt", "install-hook")
    assert installed.code == 0, installed.both
    hook = (repo.path / ".git/hooks/pre-push").read_text()
    assert "-m hooks" not in hook
    assert_refused_then_accepted(repo)


@pytest.mark.parametrize("impostor", sorted(IMPOSTORS))
def test_pre_commit_runs_the_installed_check_receipt(repo: Repo, hook_repo: tuple[str, str],
                                                     impostor: str) -> None:
    repo.write(".pre-commit-config.yaml", precommit_config(hook_repo, "check-receipt"))
    user_project(repo, impostor)
    assert repo.run("pre-commit", "install", "--hook-type", "pre-push").code == 0
    assert_refused_then_accepted(repo)
