"""Client trust: what `receipt init --agent` tells the user to do so that Codex and Gemini CLI
run the hook at all, and what the clients' own files say (trust.trust_state, read by
`receipt doctor`), on fixture config files in a stand-in home; never written by us."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import Repo

from hooks.agents.trust import trust_state


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("CODEX_HOME", "GEMINI_CLI_TRUSTED_FOLDERS_PATH"):
        monkeypatch.delenv(name, raising=False)
    path = tmp_path / "home"
    path.mkdir()
    monkeypatch.setenv("HOME", str(path))
    return path


def client_files(home: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*"))
            if p.is_file()}


def test_init_for_codex_says_to_trust_the_project_and_the_hook(repo: Repo, home: Path) -> None:
    result = repo.receipt("init", "--test-command", "pytest -q", "--agent", "codex")
    assert result.code == 0, result.err
    root = str(repo.path)
    said = [

        "receipt init: Codex skips the hooks of a project it does not trust, and a new or "
        "changed hook until you trust it, without a warning. Do both, once:",
        f"receipt init:   1. trust the project: start `codex` in {root} and answer yes when it "
        f"asks to trust the folder (it records [projects.\"{root}\"] trust_level = \"trusted\" "
        f"in {home}/.codex/config.toml)",
        "receipt init:   2. trust the hook: in that session type /hooks and trust the Stop "
        f"hook 'receipt agent-hook --agent codex' from {root}/.codex/hooks.json (again after "
        "any change to that file)",
        "receipt init:   then `receipt doctor` shows what Codex's files say.",
    ]
    out = result.out.splitlines()
    assert said[0] in out
    assert out[out.index(said[0]):out.index(said[0]) + 4] == said
    assert client_files(home) == {}  # the user's to give: nothing written for them


def test_init_for_gemini_says_to_trust_the_folder(repo: Repo, home: Path) -> None:
    result = repo.receipt("init", "--test-command", "pytest -q", "--agent", "gemini-cli")
    assert result.code == 0, result.err
    assert f"receipt init:   trust the folder: start `gemini` in {repo.path} and choose " \
           f"\"Trust folder\" (or /permissions in a session); it is recorded in " \
           f"{home}/.gemini/trustedFolders.json" in result.out.splitlines()
    assert client_files(home) == {}


def test_init_for_claude_code_has_no_trust_step(repo: Repo, home: Path) -> None:
    result = repo.receipt("init", "--test-command", "pytest -q", "--agent", "claude-code")
    assert "trust" not in result.out.lower()


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_codex_trust_from_its_config(tmp_path: Path, home: Path) -> None:
    project = str(tmp_path / "shop")
    config = home / ".codex" / "config.toml"
    hooks = f"{project}/.codex/hooks.json"
    assert trust_state("codex", project) == (False, (
        f"codex: {config} does not exist, so Codex trusts no project and skips this "
        f"project's hooks: start `codex` in {project} and trust it, then trust the hook in "
        f"/hooks"))
    write(config, f'model = "gpt-5"\n[projects."{project}"]\ntrust_level = "untrusted"\n')
    assert trust_state("codex", project) == (False, (
        f'codex: the project is not trusted (trust_level = "untrusted" for {project} in '
        f"{config}), so Codex skips its hooks: start `codex` in {project} and trust it, then "
        f"trust the hook in /hooks"))
    write(config, f'[projects."{tmp_path}/other"]\ntrust_level = "trusted"\n')
    assert trust_state("codex", project)[1].startswith(
        f"codex: the project is not trusted (no entry for {project} in ")
    write(config, f'[projects."{project}"]\ntrust_level = "trusted"\n')
    assert trust_state("codex", project) == (False, (
        f"codex: the project is trusted but no hook of {hooks} is (no trusted_hash under "
        f"[hooks.state] in {config}), so Codex skips the stop hook: in codex, type /hooks and "
        f"trust it"))
    write(config, f'[projects."{project}"]\ntrust_level = "trusted"\n'
                  f'[hooks.state."stop:0:{hooks}"]\ntrusted_hash = "sha256:0f3a"\n')
    trusted, why = trust_state("codex", project)
    assert trusted is True
    assert why.startswith(f"codex: the project is trusted and 1 hook(s) of {hooks} have a "
                          f"trust record in {config}")
    write(config, "[projects\nbroken")
    trusted, why = trust_state("codex", project)
    assert trusted is None
    assert why.startswith(f"codex: cannot read {config}: {config}:")


def test_codex_home_moves_the_config(tmp_path: Path, home: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    project = str(tmp_path / "shop")
    write(tmp_path / "ch" / "config.toml", f'[projects."{project}"]\ntrust_level = "trusted"\n')
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "ch"))
    assert trust_state("codex", project)[1].startswith("codex: the project is trusted but no "
                                                       "hook")


def test_gemini_trust_from_its_trusted_folders(tmp_path: Path, home: Path) -> None:
    project = tmp_path / "work" / "shop"
    project.mkdir(parents=True)
    folders = home / ".gemini" / "trustedFolders.json"
    assert trust_state("gemini-cli", str(project)) == (False, (
        f"gemini-cli: {project} is not a trusted folder (no rule in {folders}), so Gemini CLI "
        f"will not run its hooks: start `gemini` there and choose \"Trust folder\""))
    for rules, expected in [
        ({str(project): "TRUST_FOLDER"}, (True, f"gemini-cli: {project} is a trusted folder "
                                                f"(TRUST_FOLDER in {folders})")),
        ({str(tmp_path / "work"): "TRUST_FOLDER"}, (True, f"gemini-cli: {project} is a "
                                                          f"trusted folder (TRUST_FOLDER in "
                                                          f"{folders})")),
        ({str(project / "x"): "TRUST_PARENT"}, (True, f"gemini-cli: {project} is a trusted "
                                                      f"folder (TRUST_PARENT in {folders})")),
        # the longest matching rule wins, as in Gemini CLI
        ({str(tmp_path / "work"): "TRUST_FOLDER", str(project): "DO_NOT_TRUST"},
         (False, f"gemini-cli: {project} is not a trusted folder (DO_NOT_TRUST in {folders}), "
                 f"so Gemini CLI will not run its hooks: start `gemini` there and choose "
                 f"\"Trust folder\"")),
        ({str(tmp_path / "work" / "shopping"): "TRUST_FOLDER"}, (False, None)),
    ]:
        write(folders, json.dumps(rules))
        trusted, why = trust_state("gemini-cli", str(project))
        assert trusted is expected[0], rules
        if expected[1] is not None:
            assert why == expected[1]
    write(home / ".gemini" / "settings.json",
          json.dumps({"security": {"folderTrust": {"enabled": False}}}))
    assert trust_state("gemini-cli", str(project))[0] is True


def test_gemini_trusted_folders_path_from_the_environment(
        tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = tmp_path / "trust.json"
    write(elsewhere, json.dumps({str(tmp_path): "TRUST_FOLDER"}))
    monkeypatch.setenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH", str(elsewhere))
    assert trust_state("gemini-cli", str(tmp_path)) == (
        True, f"gemini-cli: {tmp_path} is a trusted folder (TRUST_FOLDER in {elsewhere})")


def test_clients_without_a_trust_file_are_not_guessed(tmp_path: Path, home: Path) -> None:
    assert trust_state("claude-code", str(tmp_path)) == (
        None, "claude-code: no trust setting this reads gates its project hooks")
    assert os.listdir(home) == []
