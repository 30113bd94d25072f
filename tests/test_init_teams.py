"""``receipt init`` for a team: an existing pre-commit config gains both hook types (a
teammate's plain ``pre-commit install`` installs both), pushes publish their receipts to the
remote pushed to, environments are ignored, the agent hook resolves, and no file init edits
is damaged: modes kept, new files by the umask, flow-style YAML refused, symlinks written
through (inside the repository) or refused (outside)."""

from __future__ import annotations

import os
import shutil
import stat
import sys
from pathlib import Path

import pytest
from conftest import PASSING_TEST
from conftest import Repo
from conftest import Result
from conftest import git

from hooks.core.errors import USAGE_ERROR

PY = sys.executable
NOTES = "refs/notes/receipts"
THEIRS = ("# our hooks\nrepos:\n- repo: https://github.com/pre-commit/pre-commit-hooks\n"
          "  rev: v4.5.0\n  hooks:\n  - id: trailing-whitespace\nci:\n  autofix_prs: false\n")


def project(tmp_path: Path, name: str = "proj") -> Repo:
    repo = Repo(tmp_path / name)
    repo.write("t.py", PASSING_TEST)
    return repo


def init(repo: Repo, hook_repo: tuple[str, str] | None = None, *args: str) -> Result:
    where = ("--hooks-repo", hook_repo[0]) if hook_repo else ()
    return repo.receipt("init", "--test-command", f"{PY} t.py", *where, *args)


def test_an_existing_config_gains_both_hook_types_and_our_entry_in_its_list(
        tmp_path: Path, hook_repo: tuple[str, str]) -> None:
    repo = project(tmp_path)
    repo.write(".pre-commit-config.yaml", THEIRS)
    done = init(repo, hook_repo)
    assert done.code == 0, done.both
    text = (repo.path / ".pre-commit-config.yaml").read_text()
    rev = git(Path(hook_repo[0]), "rev-parse", "HEAD")
    # the top-level `ci:` key stays after the list, ours is the list's last item at its indent
    assert text == ("# our hooks\ndefault_install_hook_types: [pre-commit, pre-push]\nrepos:\n"
                    "- repo: https://github.com/pre-commit/pre-commit-hooks\n  rev: v4.5.0\n"
                    "  hooks:\n  - id: trailing-whitespace\n"
                    f"- repo: {hook_repo[0]}\n  rev: {rev}\n  hooks:\n"
                    "    - id: check-receipt\n      args: [--publish]\n"
                    "    - id: no-inserted-skips\n    - id: require-ledger-hypothesis\n"
                    "ci:\n  autofix_prs: false\n")
    assert ("receipt init: changed .pre-commit-config.yaml: added default_install_hook_types: "
            "[pre-commit, pre-push]; appended the three hooks at rev") in done.out
    assert "publishes its receipts to the remote pushed to" in done.out
    # a teammate clones it and runs a plain `pre-commit install`: both hook types
    repo.git("add", "-A")
    repo.git("commit", "-q", "--no-verify", "-m", "set up receipt-hooks")  # no network here
    clone = tmp_path / "teammate"
    git(tmp_path, "clone", "-q", str(repo.path), str(clone))
    installed = Repo(clone, init=False).run("pre-commit", "install")
    assert installed.code == 0, installed.both
    assert "pre-commit installed at .git/hooks/pre-commit" in installed.out
    assert "pre-commit installed at .git/hooks/pre-push" in installed.out


def test_a_one_line_hook_types_list_is_extended(tmp_path: Path) -> None:
    repo = project(tmp_path)
    repo.write(".pre-commit-config.yaml", "default_install_hook_types: [pre-commit]\n" + THEIRS)
    assert init(repo).code == 0
    text = (repo.path / ".pre-commit-config.yaml").read_text()
    assert text.startswith("default_install_hook_types: [pre-commit, pre-push]\n# our hooks\n")


@pytest.mark.parametrize("flow", [
    "{repos: [{repo: local, hooks: []}]}\n",
    "repos: [{repo: local, hooks: []}]\n",
])
def test_flow_style_yaml_is_refused_and_left_as_it_was(tmp_path: Path, flow: str) -> None:
    repo = project(tmp_path)
    repo.write(".pre-commit-config.yaml", flow)
    refused = init(repo)
    assert refused.code == USAGE_ERROR
    assert refused.err.startswith("receipt: .pre-commit-config.yaml ")
    assert "receipt init edits only block-style YAML, so it changed nothing; add by hand the " \
           "line 'default_install_hook_types: [pre-commit, pre-push]'" in refused.err
    assert (repo.path / ".pre-commit-config.yaml").read_text() == flow
    assert not (repo.path / ".receipt-hooks.toml").exists()


def test_modes_are_kept_and_new_files_follow_the_umask(tmp_path: Path) -> None:
    repo = project(tmp_path)
    repo.write(".gitignore", "build/\n").chmod(0o664)
    repo.write(".pre-commit-config.yaml", THEIRS).chmod(0o640)
    old = os.umask(0o022)
    try:
        assert init(repo).code == 0
    finally:
        os.umask(old)
    def mode(name: str) -> int:
        return stat.S_IMODE((repo.path / name).stat().st_mode)
    assert (mode(".gitignore"), mode(".pre-commit-config.yaml")) == (0o664, 0o640)
    assert (mode(".receipt-hooks.toml"), mode(".skips-baseline.json")) == (0o644, 0o644)


def test_a_symlink_inside_is_written_through_and_one_outside_refused(tmp_path: Path) -> None:
    repo = project(tmp_path)
    repo.write("shared/gitignore", "build/\n")
    os.symlink("shared/gitignore", repo.path / ".gitignore")
    done = init(repo)
    assert done.code == 0, done.both
    assert os.path.islink(repo.path / ".gitignore")
    assert (repo.path / "shared/gitignore").read_text().startswith("build/\nartifacts/\n")
    assert "(through the symlink to shared/gitignore)" in done.out
    other = project(tmp_path, "other")
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(THEIRS)
    os.symlink(outside, other.path / ".pre-commit-config.yaml")
    refused = init(other)
    assert refused.code == USAGE_ERROR
    assert refused.err == (f"receipt: .pre-commit-config.yaml is a symlink to {outside}, "
                           f"outside the repository: receipt init does not write through it; "
                           f"make the change there by hand, or replace the link with a file, "
                           f"and run it again\n")
    assert outside.read_text() == THEIRS


def test_environment_directories_are_ignored_for_each_ecosystem(tmp_path: Path) -> None:
    repo = project(tmp_path)
    repo.write("package.json", '{"scripts": {"test": "node t.js"}}')
    repo.write("Cargo.toml", "[package]\nname = \"x\"\n")
    repo.write(".gitignore", "/node_modules\n")
    assert init(repo).code == 0
    assert (repo.path / ".gitignore").read_text() == "/node_modules\nartifacts/\ntarget/\n"


def test_a_plain_push_after_init_and_run_is_accepted_by_the_server(
        tmp_path: Path, hook_repo: tuple[str, str]) -> None:
    repo = project(tmp_path)
    remote = repo.add_remote()
    hook = remote / "hooks" / "pre-receive"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(f"#!/bin/sh\nexec {shutil.which('receipt')} verify --pre-receive\n")
    hook.chmod(0o755)
    assert init(repo, hook_repo).code == 0
    repo.commit("set up")
    assert repo.receipt("run").code == 0
    pushed = repo.run("git", "push", "origin", "main")
    assert pushed.code == 0, pushed.both
    assert f"check-receipt: published {NOTES} to origin" in pushed.both
    assert git(remote, "rev-parse", "main") == repo.git("rev-parse", "HEAD")


def test_publish_goes_to_the_remote_pushed_to(repo: Repo, tmp_path: Path) -> None:
    repo.write("t.py", PASSING_TEST)
    repo.commit("tested")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    repo.add_remote()
    backup = tmp_path / "backup.git"
    git(tmp_path, "init", "-q", "--bare", str(backup))
    repo.git("remote", "add", "backup", str(backup))
    assert repo.receipt("install-hook", "--", "--publish").code == 0
    pushed = repo.run("git", "push", "backup", "main")
    assert pushed.code == 0, pushed.both
    assert f"check-receipt: published {NOTES} to backup" in pushed.err
    assert git(backup, "rev-parse", NOTES)
    assert git(repo.path.parent / "repo-remote.git", "for-each-ref") == ""
