"""``no-inserted-skips`` decides "nothing staged" from the one -U0 diff it reads: every staged
change git records (a mode change, an empty new file, a pure rename, a submodule bump, a
deletion) is still a staged change, nothing staged still means the whole-file mode, and a
typical staged commit starts exactly one git process."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest
from conftest import Repo

HOOK = "no-inserted-skips"
WHOLE_FILE = "nothing staged and no refs, so no diff to scan"
SKIPPED = "import pytest\n\n@pytest.mark.skip\ndef test_old():\n    assert compute(1) == 1\n"


@pytest.fixture
def base(repo: Repo) -> Repo:
    """A history with a skipped test already committed: whole-file mode (with no baseline)
    explains itself, the staged mode reports nothing about what is already there."""
    repo.commit("base", **{"test_old.py": SKIPPED, "src__calc.py": "def calc():\n    return 1\n",
                           "empty_old.txt": "content\n"})
    return repo


def stage_mode_change(repo: Repo) -> None:
    repo.git("update-index", "--chmod=+x", "src/calc.py")


def stage_empty_new_file(repo: Repo) -> None:
    repo.write("empty.py", "")
    repo.git("add", "empty.py")


def stage_pure_rename(repo: Repo) -> None:
    repo.git("mv", "src/calc.py", "src/compute.py")


def stage_submodule_bump(repo: Repo) -> None:
    first, second = "1" * 40, "2" * 40
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{first},vendor/lib")
    repo.git("commit", "-q", "-m", "add a submodule")
    repo.git("update-index", "--cacheinfo", f"160000,{second},vendor/lib")


def stage_deletion(repo: Repo) -> None:
    repo.git("rm", "-q", "empty_old.txt")


@pytest.mark.parametrize("stage", [stage_mode_change, stage_empty_new_file, stage_pure_rename,
                                   stage_submodule_bump, stage_deletion],
                         ids=lambda f: f.__name__)
def test_a_staged_change_without_added_lines_is_scanned_not_whole_file(base: Repo, stage) -> None:  # type: ignore[no-untyped-def]
    stage(base)
    assert base.git("diff", "--cached", "--name-only"), "the case must stage something"
    result = base.run(HOOK)
    assert (result.code, result.out, result.err) == (0, "", "")


def test_nothing_staged_still_means_whole_file_mode(base: Repo) -> None:
    result = base.run(HOOK)
    assert result.code == 0
    assert WHOLE_FILE in result.out


def test_a_staged_skip_is_still_found(base: Repo) -> None:
    base.write("test_new.py", SKIPPED.replace("test_old", "test_new"))
    base.git("add", "test_new.py")
    result = base.run(HOOK)
    assert result.code == 1
    assert "test_new.py:3" in result.out and WHOLE_FILE not in result.out


def test_a_typical_staged_commit_starts_one_git_process(base: Repo, tmp_path: Path) -> None:
    real_git = shutil.which("git")
    assert real_git is not None
    shims = tmp_path / "shims"
    shims.mkdir()
    log = tmp_path / "git-calls.log"
    wrapper = shims / "git"
    wrapper.write_text(f'#!/bin/sh\nprintf "%s\\n" "$*" >> "{log}"\nexec "{real_git}" "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    base.write("src/calc.py", "def calc():\n    return 2\n")
    base.write("test_calc.py", "def test_calc():\n    assert calc() == 2\n")
    base.git("add", "src/calc.py", "test_calc.py")
    path = f"{shims}{os.pathsep}{os.environ['PATH']}"
    result = base.run(HOOK, "src/calc.py", "test_calc.py", env={"PATH": path})
    assert (result.code, result.out, result.err) == (0, "", "")
    calls = log.read_text().splitlines()
    assert len(calls) == 1, calls
    assert " diff -U0 " in f" {calls[0]} " and "--cached" in calls[0]
