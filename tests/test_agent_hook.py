"""receipt agent-hook: each agent's documented stop protocol, block and allow: each agent and
each wiring (stdin, exit code, stderr, fail-open) through the CLI, the other cases in process."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import FAILING_TEST
from conftest import PASSING_TEST
from conftest import Repo
from conftest import Result

from hooks.core.errors import USAGE_ERROR

SAMPLES = Path(__file__).parent / "agent_samples"
AGENTS = ("claude-code", "codex", "gemini-cli", "cursor")
ALLOW = {"claude-code": "", "codex": "{}", "gemini-cli": "{}", "cursor": "{}"}
RUN = "'receipt run -- python3 suite.py'"


def stop_event(agent: str, repo: Repo, message: str) -> str:
    """The captured sample for AGENT, pointed at REPO, with MESSAGE as the last message."""
    data = json.loads((SAMPLES / f"{agent}.json").read_text())
    if agent == "cursor":
        transcript = repo.path.parent / "cursor-transcript.jsonl"
        transcript.write_text(json.dumps({"role": "user", "content": "fix it"}) + "\n"
                              + json.dumps({"role": "assistant", "content": message}) + "\n")
        data["workspace_roots"] = [str(repo.path)]
        data["transcript_path"] = str(transcript)
    else:
        data["cwd"] = str(repo.path)
        data["prompt_response" if agent == "gemini-cli" else "last_assistant_message"] = message
    return json.dumps(data)


def hook(repo: Repo, agent: str, message: str, *args: str) -> Result:
    """The stop hook through ``receipt agent-hook``: the process the agent starts."""
    return repo.run("receipt", "agent-hook", "--agent", agent, *args,
                    stdin=stop_event(agent, repo, message))


@pytest.fixture
def in_process(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
               ) -> Callable[..., Result]:
    """The same hook's ``main`` called in process (stdin, stdout, stderr and the working
    directory it moves to are the test's): for the cases whose wiring one process test covers."""
    from hooks.commands import agent_hook

    def call(repo: Repo, agent: str, message: str, *args: str) -> Result:
        monkeypatch.chdir(repo.path)  # main moves to the repository root; undone after the test
        raw = stop_event(agent, repo, message).encode()
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
        capsys.readouterr()
        code = agent_hook.main(["--agent", agent, *args])
        out, err = capsys.readouterr()
        return Result(code, out, err)
    return call


def through(agent: str, process_agent: str, repo: Repo, message: str,
            in_process: Callable[..., Result]) -> Result:
    """The hook for AGENT: through its process when it is PROCESS_AGENT (each parametrised test
    sends a different agent through the process), else in process."""
    return (hook if agent == process_agent else in_process)(repo, agent, message)


def blocked_reason(agent: str, result: Result) -> str:
    """The reason when RESULT is the agent's block answer; fails the test otherwise."""
    assert result.code == 0, result.err
    answer = json.loads(result.out)
    if agent == "cursor":
        assert set(answer) == {"followup_message"}
        return str(answer["followup_message"])
    assert answer["decision"] == ("deny" if agent == "gemini-cli" else "block")
    return str(answer["reason"])


def assert_allowed(agent: str, result: Result) -> None:
    assert result.code == 0, result.err
    assert result.out.strip() == ALLOW[agent]


def ledger(repo: Repo) -> list[dict[str, object]]:
    path = repo.path / "assumption-ledger.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.fixture
def project(repo: Repo) -> Repo:
    repo.write(".receipt-hooks.toml", 'test-command = "python3 suite.py"\n')
    repo.commit("suite", **{"suite.py": PASSING_TEST, "app.py": "x = 1\n"})
    return repo


@pytest.mark.parametrize("agent", AGENTS)
def test_claim_without_receipt_is_blocked_with_the_configured_command(
        project: Repo, agent: str, in_process: Callable[..., Result]) -> None:
    reason = blocked_reason(agent, through(agent, AGENTS[0], project,
                                           "Fixed it. All tests pass.", in_process))
    assert reason.startswith('receipt: your last message claims success ("All tests pass.") but '
                             'no green receipt covers this work tree (tree ')
    assert f"run {RUN} and finish only when it exits 0" in reason
    assert "say NO RECEIPT and why" in reason
    assert reason.endswith("(block 1 of 3 for this reason)")


@pytest.mark.parametrize("agent", AGENTS)
def test_green_receipt_on_this_tree_lets_the_stop_through(
        project: Repo, agent: str, in_process: Callable[..., Result]) -> None:
    project.write("app.py", "x = 2\n")
    assert project.run("receipt", "run", "--", "python3", "suite.py").code == 0
    assert_allowed(agent, through(agent, AGENTS[1], project, "Fixed it. All tests pass.",
                                  in_process))


@pytest.mark.parametrize("agent", AGENTS)
def test_a_change_after_the_green_receipt_is_blocked(
        project: Repo, agent: str, in_process: Callable[..., Result]) -> None:
    assert project.run("receipt", "run", "--", "python3", "suite.py").code == 0
    project.write("app.py", "x = 3\n")
    reason = blocked_reason(agent, through(agent, AGENTS[2], project, "I changed app.py.",
                                           in_process))
    assert "the work tree changed since the last green receipt (now tree " in reason
    assert f"run {RUN}" in reason


@pytest.mark.parametrize("agent", AGENTS)
def test_no_receipt_lets_the_stop_through_and_is_logged(
        project: Repo, agent: str, in_process: Callable[..., Result]) -> None:
    project.write("app.py", "x = 4\n")
    message = "NO RECEIPT: the suite needs DATABASE_URL, which is empty here."
    assert_allowed(agent, through(agent, AGENTS[3], project, message, in_process))
    [event] = ledger(project)
    assert (event["event"], event["agent"], event["message"]) == ("no_receipt", agent, message)
    assert project.run("receipt", "ledger", "check").code == 0


def test_nothing_changed_and_nothing_claimed_goes_through(project: Repo) -> None:
    assert_allowed("claude-code", hook(project, "claude-code", "The bug is in app.py, line 1."))


def test_a_failing_run_on_this_tree_is_named(project: Repo) -> None:
    project.write("suite.py", FAILING_TEST)
    assert project.run("receipt", "run", "--", "python3", "suite.py").code == 1
    reason = blocked_reason("codex", hook(project, "codex", "Tried a fix."))
    assert "the suite ran on this tree and did not pass (artifacts/receipts/" in reason
    assert ": exit 1; " in reason


def test_after_three_blocks_for_one_reason_the_stop_goes_through_as_a_fuse_event(
        project: Repo, in_process: Callable[..., Result]) -> None:
    project.write("app.py", "x = 5\n")
    for n in (1, 2, 3):  # the first blocks in process, the capped stop through the process
        reason = blocked_reason("claude-code", in_process(project, "claude-code",
                                                          "Changed app.py."))
        assert reason.endswith(f"(block {n} of 3 for this reason)")
    result = hook(project, "claude-code", "Changed app.py.")
    assert_allowed("claude-code", result)
    assert "receipt agent-hook: stop let through after 3 blocks in a row for the same reason " \
           "(untested)" in result.err
    [event] = ledger(project)
    assert (event["event"], event["reason"], event["occurrences"]) == \
        ("fuse_blown", "blocked_stops", 3)
    # the count starts over: the next stop is held again
    blocked_reason("claude-code", in_process(project, "claude-code", "Changed app.py."))


def test_block_cap_from_the_option_and_the_config(
        project: Repo, in_process: Callable[..., Result]) -> None:
    project.write("app.py", "x = 6\n")
    blocked_reason("codex", hook(project, "codex", "Changed.", "--max-blocks", "1"))
    assert_allowed("codex", in_process(project, "codex", "Changed.", "--max-blocks", "1"))
    project.write(".receipt-hooks.toml",
                  'test-command = "python3 suite.py"\n[agents]\nmax-blocks = 2\n')
    assert blocked_reason("codex", in_process(project, "codex", "Changed.")).endswith(
        "(block 1 of 2 for this reason)")


def test_the_claude_transcript_is_read_when_the_input_has_no_message(project: Repo) -> None:
    data = json.loads((SAMPLES / "claude-code.json").read_text())
    del data["last_assistant_message"]
    data["cwd"] = str(project.path)
    data["transcript_path"] = str(SAMPLES / "claude-code-transcript.jsonl")
    result = project.run("receipt", "agent-hook", "--agent", "claude-code",
                         stdin=json.dumps(data))
    assert 'claims success ("All tests pass.")' in \
        blocked_reason("claude-code", result)


def test_an_aborted_cursor_turn_is_not_held(project: Repo) -> None:
    data = json.loads(stop_event("cursor", project, "All tests pass."))
    data["status"] = "aborted"
    result = project.run("receipt", "agent-hook", "--agent", "cursor", stdin=json.dumps(data))
    assert_allowed("cursor", result)


@pytest.mark.parametrize("agent", AGENTS)
def test_its_own_errors_never_block(tmp_path: Path, project: Repo, agent: str) -> None:
    garbage = project.run("receipt", "agent-hook", "--agent", agent, stdin="not json")
    assert_allowed(agent, garbage)
    assert garbage.err.startswith("receipt agent-hook: error, letting the stop through: the "
                                  f"{agent} hook input is not JSON")
    outside = tmp_path / "not-a-repo"
    outside.mkdir()
    data = json.loads(stop_event(agent, project, "All tests pass."))
    data["workspace_roots" if agent == "cursor" else "cwd"] = (
        [str(outside)] if agent == "cursor" else str(outside))
    result = project.run("receipt", "agent-hook", "--agent", agent, stdin=json.dumps(data))
    assert_allowed(agent, result)
    assert "letting the stop through: not a git repository" in result.err
    assert "Traceback" not in result.err


def test_an_unknown_agent_is_a_usage_error(project: Repo) -> None:
    result = project.run("receipt", "agent-hook", "--agent", "copilot", stdin="{}")
    assert result.code == USAGE_ERROR
    assert "invalid choice: 'copilot'" in result.err
