"""Receipts leave a CI container: notes are written where git knows no identity (the tool's
own), and a configured or exported identity still wins."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from conftest import BIN_DIR
from conftest import PASSING_TEST
from conftest import Repo
from conftest import run

PY = sys.executable
NOTES = "refs/notes/receipts"


# conftest exports an identity for the suite's own commits (an empty value is not unset to git)
IDENTITY_VARS = ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME",
                 "GIT_COMMITTER_EMAIL", "EMAIL")


def nobody(home: Path) -> dict[str, str]:
    """A CI container's environment: an empty HOME, no git config of the user's, no identity
    variables; only PATH (for git and the installed CLI) kept."""
    return {"HOME": str(home), "PATH": BIN_DIR + os.pathsep + "/usr/bin:/bin",
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}


def unidentified(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """The repository where git refuses to guess an identity (as on a host with no domain),
    its one commit made, then no identity variable left."""
    repo.git("config", "user.useConfigOnly", "true")
    repo.write("t.py", PASSING_TEST)
    repo.commit("tested")
    for name in IDENTITY_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)  # the suite's config has a user


def commit(repo: Repo, message: str) -> None:
    identity = "-c", "user.name=Test User", "-c", "user.email=test@example.invalid"
    repo.git(*identity, "commit", "-qam", message)


def notes_commit_author(repo: Repo) -> str:
    return repo.git("log", "-1", "--format=%an <%ae> / %cn <%ce>", NOTES)


def test_run_writes_the_note_with_the_tools_identity_when_git_has_none(
        repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    unidentified(repo, monkeypatch)
    home = tmp_path / "home"
    home.mkdir()
    env = nobody(home)
    proc = run(["git", "var", "GIT_COMMITTER_IDENT"], repo.path, env=env)
    assert proc.code != 0  # the environment really has no identity
    result = run(["receipt", "run", "--", PY, "t.py"], repo.path, env=env)
    assert result.code == 0, result.both
    assert "not in refs/notes/receipts" not in result.both
    assert notes_commit_author(repo) == ("receipt-hooks <receipt-hooks@localhost> / "
                                         "receipt-hooks <receipt-hooks@localhost>")


def test_a_configured_or_exported_identity_wins_over_the_tools(
        repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    unidentified(repo, monkeypatch)
    repo.git("config", "user.name", "Ci Bot")  # a name but no email: only the email is the tool's
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    assert notes_commit_author(repo) == ("Ci Bot <receipt-hooks@localhost> / "
                                         "Ci Bot <receipt-hooks@localhost>")
    repo.write("t.py", PASSING_TEST + "# again\n")
    commit(repo, "tested again")
    exported = {"GIT_COMMITTER_EMAIL": "ci@example.invalid"}
    assert repo.receipt("run", "--", PY, "t.py", env=exported).code == 0
    assert notes_commit_author(repo) == ("Ci Bot <receipt-hooks@localhost> / "
                                         "Ci Bot <ci@example.invalid>")
    repo.git("config", "user.email", "owner@example.invalid")
    repo.write("t.py", PASSING_TEST + "# third\n")
    commit(repo, "tested a third time")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    assert notes_commit_author(repo) == ("Ci Bot <owner@example.invalid> / "
                                         "Ci Bot <owner@example.invalid>")
