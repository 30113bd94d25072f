"""receipt agent-hook: each agent's documented stop protocol, block and allow: each agent and
each wiring (stdin, exit code, stderr, fail-open) through the CLI, the other cases in process."""

from __future__ import annotations

import io
import json
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import FAILING_TEST
from conftest import PASSING_TEST
from conftest import Repo
from conftest import Result
from conftest import run

from hooks.core.errors import USAGE_ERROR

SAMPLES = Path(__file__).parent / "agent_samples"
AGENTS = ("claude-code", "codex", "gemini-cli", "cursor")
ALLOW = {"claude-code": "", "codex": "{}", "gemini-cli": "{}", "cursor": "{}"}
RUN = "'receipt run -- python3 suite.py'"


def stop_event(agent: str, repo: Repo, message: str, continued: bool = False) -> str:
    """The captured sample for AGENT, pointed at REPO, with MESSAGE as the last message;
    CONTINUED: the stop follows a block (stop_hook_active; Cursor's loop_count is left out)."""
    data = json.loads((SAMPLES / f"{agent}.json").read_text())
    if agent == "cursor":
        del data["loop_count"]
    else:
        data["stop_hook_active"] = continued
    if agent == "cursor":
        transcript = repo.path.parent / "cursor-transcript.jsonl"
        transcript.write_text(json.dumps({"role": "user", "content": "fix it"}) + "\n"
                              + json.dumps({"role": "assistant", "content": message}) + "\n")
        data["workspace_roots"] = [str(repo.path)]
        data["transcript_path"] = str(transcript)
    else:
        data["cwd"] = str(repo.path)
        data["prompt_response" if agent == "gemini-cli" else "last_assistant_message"] = message
        if agent == "gemini-cli":
            del data["transcript_path"]
    return json.dumps(data)


def hook(repo: Repo, agent: str, message: str, *args: str, continued: bool = False) -> Result:
    """The stop hook through ``receipt agent-hook``: the process the agent starts."""
    return repo.run("receipt", "agent-hook", "--agent", agent, *args,
                    stdin=stop_event(agent, repo, message, continued))


@pytest.fixture
def in_process(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
               ) -> Callable[..., Result]:
    """The same hook's ``main`` called in process (stdin, stdout, stderr and the working
    directory it moves to are the test's): for the cases whose wiring one process test covers."""
    from hooks.commands import agent_hook

    def call(repo: Repo, agent: str, message: str, *args: str, continued: bool = False,
             event: str | None = None) -> Result:
        monkeypatch.chdir(repo.path)  # main moves to the repository root; undone after the test
        raw = (event or stop_event(agent, repo, message, continued)).encode()
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


def test_work_committed_after_a_failing_run_is_not_a_baseline(project: Repo) -> None:
    """No green receipt: HEAD stands for a turn that changed nothing, unless HEAD was
    committed after the last run, which failed: that work is untested."""
    project.write("suite.py", FAILING_TEST)
    assert project.run("receipt", "run", "--", "python3", "suite.py").code == 1
    project.git("commit", "-qam", "wip")
    project.write("app.py", "x = 5\n")
    env = {"GIT_COMMITTER_DATE": "2099-01-01T00:00:00Z"}  # after the run, whatever the clock
    assert project.run("git", "commit", "-qam", "the fix, untested", env=env).code == 0
    reason = blocked_reason("claude-code", hook(project, "claude-code", "Fixed it. Done."))
    assert reason.startswith("receipt: the last run did not pass (artifacts/receipts/")
    assert "and what was committed since has not been tested (now tree " in reason
    # a failing run after the last commit leaves HEAD the baseline: that turn changed nothing
    project.write("app.py", "x = 6\n")
    older = {"GIT_COMMITTER_DATE": "2001-01-01T00:00:00Z"}
    assert project.run("git", "commit", "-qam", "older", env=older).code == 0
    project.write("app.py", "x = 7\n")
    assert project.run("receipt", "run", "--", "python3", "suite.py").code == 1
    project.git("checkout", "-q", "--", "app.py")
    assert_allowed("claude-code", hook(project, "claude-code", "The bug is in app.py."))


def test_after_three_blocks_for_one_reason_the_stop_goes_through_as_a_fuse_event(
        project: Repo, in_process: Callable[..., Result]) -> None:
    project.write("app.py", "x = 5\n")
    for n in (1, 2, 3):  # the first blocks in process, the capped stop through the process
        reason = blocked_reason("claude-code", in_process(project, "claude-code",
                                                          "Changed app.py.", continued=n > 1))
        assert reason.endswith(f"(block {n} of 3 for this reason)")
    result = hook(project, "claude-code", "Changed app.py.", continued=True)
    assert_allowed("claude-code", result)
    assert "receipt agent-hook: stop let through after 3 blocks in a row for the same reason " \
           "(untested)" in result.err
    [event] = ledger(project)
    assert (event["event"], event["reason"], event["occurrences"]) == \
        ("fuse_blown", "blocked_stops", 3)
    # the count starts over: the next stop is held again
    blocked_reason("claude-code", in_process(project, "claude-code", "Changed app.py.",
                                             continued=True))


def test_block_cap_from_the_option_and_the_config(
        project: Repo, in_process: Callable[..., Result]) -> None:
    project.write("app.py", "x = 6\n")
    blocked_reason("codex", hook(project, "codex", "Changed.", "--max-blocks", "1"))
    assert_allowed("codex", in_process(project, "codex", "Changed.", "--max-blocks", "1",
                                       continued=True))
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


def test_a_message_claude_wrote_as_several_lines_is_read_whole(
        project: Repo, tmp_path: Path) -> None:
    def line(role: str, text: str, message_id: str) -> str:
        return json.dumps({"type": role, "message": {
            "id": message_id, "role": role, "content": [{"type": "text", "text": text}]}})

    transcript = tmp_path / "transcript.jsonl"
    transcript.write_text("\n".join([
        line("user", "Fix the bug.", "u1"), line("assistant", "Earlier: tests failed.", "m0"),
        line("assistant", "All tests pass.", "m1"),
        line("assistant", "Let me know if you want anything else.", "m1")]) + "\n")
    data = json.loads(stop_event("claude-code", project, ""))
    del data["last_assistant_message"]
    data["transcript_path"] = str(transcript)
    result = project.run("receipt", "agent-hook", "--agent", "claude-code",
                         stdin=json.dumps(data))
    assert 'claims success ("All tests pass.")' in blocked_reason("claude-code", result)
    from hooks.agents.transcript import last_assistant_message

    assert last_assistant_message(str(transcript)) == (
        "All tests pass.\nLet me know if you want anything else.")


def test_an_aborted_cursor_turn_is_not_held(project: Repo) -> None:
    data = json.loads(stop_event("cursor", project, "All tests pass."))
    data["status"] = "aborted"
    result = project.run("receipt", "agent-hook", "--agent", "cursor", stdin=json.dumps(data))
    assert_allowed("cursor", result)


@pytest.mark.parametrize("agent", AGENTS)
def test_its_own_errors_never_block(tmp_path: Path, project: Repo, agent: str) -> None:
    outside = tmp_path / "not-a-repo"  # the client started the hook outside any repository
    outside.mkdir()
    result = run(["receipt", "agent-hook", "--agent", agent], outside,
                 stdin=stop_event(agent, project, "All tests pass."))
    assert_allowed(agent, result)
    assert "receipt agent-hook: error, letting the stop through: not a git repository" \
        in result.err
    assert "Traceback" not in result.err


@pytest.mark.parametrize("broken", ['test-command = "python3 suite.py\n',
                                    '[agents]\nmax-blocks = "three"\n',
                                    '[agents]\nmax-blocks = 0\n'])
def test_a_broken_config_holds_the_stop_until_the_cap(project: Repo, broken: str) -> None:
    """The config is the project's, which the agent can edit: breaking it must not switch
    the hook off."""
    project.write(".receipt-hooks.toml", broken)
    for block in (1, 2, 3):
        reason = blocked_reason("claude-code", hook(project, "claude-code", "All tests pass.",
                                                    continued=block > 1))
        assert reason.startswith("receipt: the project's config cannot be read ("), reason
        assert reason.endswith(f"(block {block} of 3 for this reason)")
    capped = hook(project, "claude-code", "All tests pass.", continued=True)
    assert_allowed("claude-code", capped)
    assert "stop let through after 3 blocks in a row for the same reason (config)" in capped.err


def test_an_unknown_agent_is_a_usage_error(project: Repo) -> None:
    result = project.run("receipt", "agent-hook", "--agent", "copilot", stdin="{}")
    assert result.code == USAGE_ERROR
    assert "invalid choice: 'copilot'" in result.err


# The project judged is the client's, never a path in the event; what the hook opens from the
# event is a regular file or nothing; an input it cannot read is judged on the work tree.

@pytest.fixture
def green_elsewhere(tmp_path: Path) -> Path:
    """Another repository, with a green receipt covering its tree: where a lying cwd points."""
    other = Repo(tmp_path / "other")
    other.write(".receipt-hooks.toml", 'test-command = "python3 suite.py"\n')
    other.commit("suite", **{"suite.py": PASSING_TEST})
    assert other.run("receipt", "run", "--", "python3", "suite.py").code == 0
    return other.path


@pytest.mark.parametrize("agent", AGENTS)
def test_the_event_cwd_does_not_choose_the_repository(
        project: Repo, green_elsewhere: Path, agent: str) -> None:
    project.write("app.py", "x = 7\n")
    for lie in (str(green_elsewhere), "/"):
        data = json.loads(stop_event(agent, project, "Fixed it. All tests pass."))
        data["workspace_roots" if agent == "cursor" else "cwd"] = (
            [lie] if agent == "cursor" else lie)
        result = project.run("receipt", "agent-hook", "--agent", agent, stdin=json.dumps(data))
        assert 'claims success ("All tests pass.")' in blocked_reason(agent, result)


@pytest.mark.parametrize(("agent", "variable"), [("claude-code", "CLAUDE_PROJECT_DIR"),
                                                 ("gemini-cli", "GEMINI_PROJECT_DIR")])
def test_the_project_the_client_names_is_judged(
        project: Repo, green_elsewhere: Path, agent: str, variable: str) -> None:
    project.write("app.py", "x = 8\n")
    # started in the green repository, the client naming the project: the project is judged
    result = run(["receipt", "agent-hook", "--agent", agent], green_elsewhere,
                 stdin=stop_event(agent, project, "Changed app.py."),
                 env={variable: str(project.path)})
    assert "the work tree has changes no receipt covers" in blocked_reason(agent, result)
    # and the other way round: the green repository named, it lets the stop through
    allowed = run(["receipt", "agent-hook", "--agent", agent], project.path,
                  stdin=stop_event(agent, project, "Changed app.py."),
                  env={variable: str(green_elsewhere)})
    assert_allowed(agent, allowed)


@pytest.mark.parametrize("agent", ("claude-code", "cursor", "gemini-cli"))
def test_a_fifo_transcript_is_not_waited_on(project: Repo, tmp_path: Path, agent: str) -> None:
    fifo = tmp_path / "transcript.jsonl"
    os.mkfifo(fifo)  # nobody ever writes: opening it to read blocks for good
    project.write("app.py", "x = 9\n")
    data = json.loads(stop_event(agent, project, "Changed app.py."))
    data.pop("last_assistant_message", None)
    data.pop("prompt_response", None)
    data["transcript_path"] = str(fifo)
    result = run(["receipt", "agent-hook", "--agent", agent], project.path,
                 stdin=json.dumps(data), timeout=20)
    assert "the work tree has changes no receipt covers" in blocked_reason(agent, result)


def test_a_byte_that_is_not_utf8_does_not_drop_the_message(project: Repo) -> None:
    import subprocess

    event = stop_event("claude-code", project, "All tests pass. \u00e9").encode()
    raw = event.replace(b"\\u00e9", b"\xff")  # a stray byte, the JSON still whole
    assert b"\xff" in raw
    proc = subprocess.run(["receipt", "agent-hook", "--agent", "claude-code"],
                          cwd=project.path, input=raw, capture_output=True, check=False)
    out = proc.stdout.decode()
    assert proc.returncode == 0 and '"decision": "block"' in out, out
    assert 'your last message claims success (\\"All tests pass.\\")' in out, out


@pytest.mark.parametrize("raw", ["not json", '["a", "list"]', "oversized"])
def test_an_input_it_cannot_read_is_judged_on_the_work_tree(project: Repo, raw: str) -> None:
    from hooks.commands.agent_hook import MAX_INPUT_BYTES

    project.write("app.py", "x = 10\n")
    stdin = raw
    if raw == "oversized":  # a message long enough to cut the input: no longer a way out
        data = json.loads(stop_event("codex", project, "All tests pass. "))
        data["last_assistant_message"] = "All tests pass. " * (MAX_INPUT_BYTES // 16 + 1)
        stdin = json.dumps(data)
    result = project.run("receipt", "agent-hook", "--agent", "codex", stdin=stdin)
    assert "the work tree has changes no receipt covers" in blocked_reason("codex", result)
    assert "judging the work tree without the message" in result.err
    assert "Traceback" not in result.err


def test_an_unreadable_input_on_an_untouched_tree_goes_through(project: Repo) -> None:
    result = project.run("receipt", "agent-hook", "--agent", "claude-code", stdin="not json")
    assert_allowed("claude-code", result)
    assert result.err == ("receipt agent-hook: the claude-code hook input is not JSON "
                          "(Expecting value: line 1 column 1 (char 0)): judging the work tree "
                          "without the message\n")


def test_a_claim_with_no_receipt_beside_it_is_held(
        project: Repo, in_process: Callable[..., Result]) -> None:
    project.write("app.py", "x = 11\n")
    message = "All tests pass. NO RECEIPT: the integration suite needs a database."
    reason = blocked_reason("codex", in_process(project, "codex", message))
    assert reason.startswith('receipt: your last message claims success ("All tests pass.") '
                             '(it also says NO RECEIPT: an honest NO RECEIPT claims nothing) '
                             'but no green receipt covers this work tree')
    assert ledger(project) == []


# Each client's input as it sends it.

# Gemini CLI 0.61.0's own session file and AfterAgent event, recorded from the real client
# (tests/e2e_agents): a stop blocked once, then "I undid my edit": prompt_response holds both
# responses; the transcript (JSON Lines) ends with the last.
GEMINI_RECORDED = SAMPLES / "gemini-cli-0.61.0.json"
GEMINI_RECORDED_TRANSCRIPT = SAMPLES / "gemini-cli-0.61.0-transcript.jsonl"


def test_gemini_as_recorded_is_judged_on_its_last_response(project: Repo, tmp_path: Path
                                                            ) -> None:
    transcript = tmp_path / "session.jsonl"
    shutil.copy(GEMINI_RECORDED_TRANSCRIPT, transcript)
    data = json.loads(GEMINI_RECORDED.read_text())
    assert data["prompt_response"] == ("I changed add() in calc.py. All tests pass.\n"
                                       "I undid my edit of calc.py; nothing is changed.")
    data.update(cwd=str(project.path), transcript_path=str(transcript))
    # the earlier response's claim, taken back, is not the last word on an untouched tree
    result = project.run("receipt", "agent-hook", "--agent", "gemini-cli",
                         stdin=json.dumps(data))
    assert_allowed("gemini-cli", result)


def gemini_event(project: Repo, tmp_path: Path, responses: list[str]) -> str:
    """An AfterAgent event shaped as the recorded one: prompt_response is every response
    since the prompt joined by newlines; the transcript's last model message is the last."""
    recorded = [json.loads(line) for line in GEMINI_RECORDED_TRANSCRIPT.read_text().splitlines()]
    records = [r for r in recorded if r.get("type") != "gemini"][:4]  # metadata, context, user
    model = next(r for r in recorded if r.get("type") == "gemini")
    records += [{**model, "id": f"r{n}", "content": text} for n, text in enumerate(responses)]
    transcript = tmp_path / "session-2026-12-02T01-16-d4d2e382.jsonl"
    transcript.write_text("".join(json.dumps(r) + "\n" for r in records))
    data = json.loads(GEMINI_RECORDED.read_text())
    data.update(cwd=str(project.path), transcript_path=str(transcript),
                prompt_response="\n".join(responses))
    return json.dumps(data)


def test_gemini_is_judged_on_its_last_response_not_every_response(
        project: Repo, tmp_path: Path) -> None:
    # an earlier NO RECEIPT is not an exit for a later claim
    result = project.run("receipt", "agent-hook", "--agent", "gemini-cli", stdin=gemini_event(
        project, tmp_path, ["NO RECEIPT: the suite needs DATABASE_URL.",
                            "Fixed the rounding in cart_total(). Tests are green."]))
    assert 'claims success ("Tests are green.")' in blocked_reason("gemini-cli", result)
    assert ledger(project) == []
    # and an earlier claim, taken back, is not held against a turn that changed nothing
    result = project.run("receipt", "agent-hook", "--agent", "gemini-cli", stdin=gemini_event(
        project, tmp_path, ["All tests pass.", "I undid that edit; app.py is as it was."]))
    assert_allowed("gemini-cli", result)


def cursor_event(project: Repo, loop_count: int) -> str:
    """Cursor's stop event as published: loop_count, and a null transcript_path (transcripts
    off), so only the work tree is judged."""
    data = json.loads((SAMPLES / "cursor.json").read_text())
    data.update(workspace_roots=[str(project.path)], transcript_path=None,
                loop_count=loop_count)
    return json.dumps(data)


def test_cursor_lets_the_stop_through_before_its_own_follow_up_cap(
        project: Repo, in_process: Callable[..., Result]) -> None:
    project.write(".receipt-hooks.toml", 'test-command = "python3 suite.py"\n'
                                         '[agents]\nmax-blocks = 8\n')
    project.write("app.py", "x = 12\n")

    def stop(loop_count: int) -> Result:
        return in_process(project, "cursor", "", event=cursor_event(project, loop_count))
    for loop_count in range(5):  # Cursor follows up 5 times unless loop_limit says otherwise
        assert blocked_reason("cursor", stop(loop_count)).endswith(
            f"(block {loop_count + 1} of 5 for this reason)")
    capped = stop(5)
    assert_allowed("cursor", capped)
    assert "stop let through after 5 blocks in a row" in capped.err
    [event] = ledger(project)
    assert (event["event"], event["agent"], event["occurrences"]) == ("fuse_blown", "cursor", 5)
    # a loop_limit in the project's hooks.json is Cursor's cap, and so the hook's
    project.write(".cursor/hooks.json", json.dumps({"version": 1, "hooks": {"stop": [
        {"command": "receipt agent-hook --agent cursor", "loop_limit": 2}]}}))
    assert blocked_reason("cursor", stop(0)).endswith("(block 1 of 2 for this reason)")
    assert blocked_reason("cursor", stop(1)).endswith("(block 2 of 2 for this reason)")
    assert_allowed("cursor", stop(2))


def test_a_stop_the_client_says_starts_a_new_chain_counts_from_one(
        project: Repo, in_process: Callable[..., Result]) -> None:
    project.write("app.py", "x = 13\n")
    for n in (1, 2, 3):
        assert blocked_reason("codex", in_process(project, "codex", "Changed.",
                                                  continued=n > 1)).endswith(f"{n} of 3 for "
                                                                             f"this reason)")
    # stop_hook_active false: the user prompted again; the last chain's blocks do not count
    assert blocked_reason("codex", in_process(project, "codex", "Changed.")).endswith(
        "(block 1 of 3 for this reason)")
    assert ledger(project) == []


# A refusal names what the receipts show.

def test_a_run_that_wrote_into_the_tree_is_named_with_what_it_wrote(project: Repo) -> None:
    project.write("suite.py", "open('cache.dat', 'w').write('x')\n" + PASSING_TEST)
    assert project.run("receipt", "run", "--", "python3", "suite.py").code == 0
    reason = blocked_reason("claude-code", hook(project, "claude-code", "All tests pass."))
    assert reason.startswith('receipt: your last message claims success ("All tests pass."), '
                             'but the work tree differs from the tree artifacts/receipts/')
    assert "tested only by what that run wrote (cache.dat), so its receipt does not vouch: " \
           "ignore what the suite writes (add it to .gitignore, e.g. __pycache__/)" in reason


@pytest.mark.parametrize(("suite", "said"), [
    (FAILING_TEST, "the suite ran on this tree and did not pass (artifacts/receipts/"),
    ("import sys\nprint('=== 3 skipped in 0.01s ===')\nsys.exit(0)\n",
     "the last run on this tree tested nothing, so its receipt does not vouch "
     "(artifacts/receipts/"),
])
def test_a_claim_after_a_run_that_does_not_vouch_names_the_run(
        project: Repo, in_process: Callable[..., Result], suite: str, said: str) -> None:
    project.write("suite.py", suite)
    project.run("receipt", "run", "--", "python3", "suite.py")
    reason = blocked_reason("codex", in_process(project, "codex", "Done. All tests pass."))
    assert reason.startswith(f'receipt: your last message claims success ("All tests pass."), '
                             f'but {said}')
