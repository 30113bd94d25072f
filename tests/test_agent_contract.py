"""receipt contract and receipt init --agent: the contract filled from the policy, the hook
merged into each agent's settings without clobbering, idempotent."""

from __future__ import annotations

import json

import pytest
from conftest import Repo

from hooks.core.errors import USAGE_ERROR

SETTINGS = {"claude-code": (".claude/settings.json", "Stop", "CLAUDE.md"),
            "codex": (".codex/hooks.json", "Stop", "AGENTS.md"),
            "gemini-cli": (".gemini/settings.json", "AfterAgent", "GEMINI.md"),
            "cursor": (".cursor/hooks.json", "stop", "AGENTS.md")}


def test_contract_is_filled_from_the_repository_policy(repo: Repo) -> None:
    repo.write(".receipt-hooks.toml",
               'test-command = ["pytest -q", "npm test"]\nledger = "docs/ledger.jsonl"\n'
               'hypothesis-paths = ["^app/", "^lib/"]\n[fuse]\nmax-steps = 5\n'
               '[agents]\nmax-blocks = 4\n')
    result = repo.receipt("contract", "--agent", "codex")
    assert result.code == 0, result.err
    text = result.out
    assert "    receipt run -- pytest -q\n    receipt run -- npm test\n" in text
    assert "say **NO RECEIPT**, say why in one line, and stop" in text
    assert "Before you change files matching `^app/`, `^lib/`, write down" in text
    assert "in `docs/ledger.jsonl`:" in text
    assert "or\n5 attempts): stop retrying" in text
    assert "A stop hook (`receipt agent-hook --agent codex`)" in text
    assert "After 4\nblocks in a row" in text


def test_contract_without_a_config_names_the_placeholder(repo: Repo) -> None:
    result = repo.receipt("contract")
    assert "receipt run -- <the project's test command>" in result.out
    assert "stop hook" not in result.out


@pytest.mark.parametrize("agent", sorted(SETTINGS))
def test_init_agent_merges_the_hook_and_adds_the_contract_once(repo: Repo, agent: str) -> None:
    settings, event, instructions = SETTINGS[agent]
    existing = {"permissions": {"allow": ["Bash(ls)"]},
                "hooks": {event: [{"hooks": [{"type": "command", "command": "lint.sh"}]}]}}
    repo.write(settings, json.dumps(existing))
    repo.write(instructions, "# House rules\nUse tabs.")
    first = repo.receipt("init", "--test-command", "pytest -q", "--agent", agent)
    assert first.code == 0, first.err
    assert f"receipt init: changed {settings}: added the {event} hook 'receipt agent-hook " \
           f"--agent {agent}'" in first.out
    merged = json.loads((repo.path / settings).read_text())
    assert merged["permissions"] == existing["permissions"]
    assert merged["hooks"][event][0] == existing["hooks"][event][0]
    assert f"receipt agent-hook --agent {agent}" in json.dumps(merged["hooks"][event][1])
    text = (repo.path / instructions).read_text()
    assert text.startswith("# House rules\nUse tabs.\n\n<!-- receipt-hooks: agent contract -->")
    assert "    receipt run -- pytest -q\n" in text
    second = repo.receipt("init", "--test-command", "pytest -q", "--agent", agent)
    assert f"receipt init: unchanged {settings}: already there" in second.out
    assert f"receipt init: unchanged {instructions}: already there" in second.out
    assert json.loads((repo.path / settings).read_text()) == merged
    assert (repo.path / instructions).read_text() == text


def test_init_agent_never_clobbers_settings_it_cannot_read(repo: Repo) -> None:
    repo.write(".claude/settings.json", "{ not json")
    result = repo.receipt("init", "--test-command", "pytest -q", "--agent", "claude-code")
    assert result.code == USAGE_ERROR
    assert result.err.startswith("receipt: .claude/settings.json is not JSON (")
    assert (repo.path / ".claude/settings.json").read_text() == "{ not json"
    assert not (repo.path / ".receipt-hooks.toml").exists()  # nothing half done
