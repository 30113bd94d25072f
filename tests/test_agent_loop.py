"""A real loop: a scripted agent driven through Claude Code's and Codex's stop protocols.

Each turn the fake agent edits calc.py and says something; the harness, playing the agent's
runtime, sends the documented stop event to `receipt agent-hook` and, when the stop is blocked,
hands the reason back as the next prompt, as Claude Code and Codex do.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import Repo

SAMPLES = Path(__file__).parent / "agent_samples"
FAKE_AGENT = str(Path(__file__).parent / "fake_agent.py")
SUITE = """import os, sys
from calc import add
if not os.environ.get("DATABASE_URL", "sqlite://").strip():
    print("DATABASE_URL is empty"); sys.exit(2)
cases = [(2, 2, 4), (1, 5, 6), (0, 0, 0)]
failed = [c for c in cases if add(c[0], c[1]) != c[2]]
print(f"=== {len(failed)} failed, {len(cases) - len(failed)} passed in 0.01s ===" if failed
      else f"=== {len(cases)} passed in 0.01s ===")
sys.exit(1 if failed else 0)
"""
WRONG = "def add(a, b):\n    return a - b\n"
HALF_RIGHT = "def add(a, b):\n    return a * b\n"  # 2*2 == 4: one case passes
RIGHT = "def add(a, b):\n    return a + b\n"


def drive(repo: Repo, agent: str, attempts: list[str], say: list[str], turns: int,
          env: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """Run up to TURNS turns; each is (decision, reason) as the agent's runtime saw it."""
    plan = repo.path.parent / "plan.json"
    plan.write_text(json.dumps({"attempts": attempts, "say": say, "next": 0}))
    prompt = "add() is wrong: fix it."
    seen: list[tuple[str, str]] = []
    for _ in range(turns):
        turn = repo.run(sys.executable, FAKE_AGENT, str(plan), prompt, env=env)
        assert turn.code == 0, turn.err
        event = json.loads((SAMPLES / f"{agent}.json").read_text())
        event.update(cwd=str(repo.path), last_assistant_message=turn.out.strip(),
                     stop_hook_active=bool(seen))
        answer = repo.run("receipt", "agent-hook", "--agent", agent, stdin=json.dumps(event),
                          env=env)
        assert answer.code == 0, answer.err
        reply = json.loads(answer.out) if answer.out.strip() else {}
        if reply.get("decision") != "block":
            seen.append(("allow", answer.err))
            return seen
        seen.append(("block", str(reply["reason"])))
        prompt = str(reply["reason"])
    return seen


@pytest.fixture
def project(repo: Repo) -> Repo:
    repo.write(".receipt-hooks.toml", 'test-command = "python3 suite.py"\n')
    repo.commit("start", **{"suite.py": SUITE, "calc.py": WRONG})
    return repo


def ledger(repo: Repo) -> list[dict[str, object]]:
    path = repo.path / "assumption-ledger.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_the_stop_is_held_until_the_suite_passes_on_what_the_agent_leaves(
        project: Repo, agent: str) -> None:
    seen = drive(project, agent, [WRONG + "# tweaked\n", HALF_RIGHT, RIGHT],
                 ["Fixed add(). All tests pass.", "Ran the suite.", "Ran the suite again."],
                 turns=5)
    kinds = [decision for decision, _ in seen]
    assert kinds == ["block", "block", "allow"]
    assert 'claims success ("Fixed add().' not in seen[0][1]  # one sentence, quoted alone
    assert seen[0][1].startswith('receipt: your last message claims success ("All tests '
                                 'pass.")')
    assert "run 'receipt run -- python3 suite.py'" in seen[0][1]
    assert seen[1][1].startswith("receipt: the suite ran on this tree and did not pass")
    check = project.run("receipt", "claims", "-", stdin="Fixed add(). All tests pass.")
    assert check.code == 0, check.out  # now the claim is backed by a receipt of this tree
    assert "1 claim(s), backed" in check.out


def test_no_receipt_is_the_honest_exit_when_the_suite_cannot_run(project: Repo) -> None:
    env = {"DATABASE_URL": " "}
    seen = drive(project, "codex", [RIGHT],
                 ["Fixed add(). All tests pass.",
                  "NO RECEIPT: the suite exits 2, DATABASE_URL is empty in this environment."],
                 turns=4, env=env)
    assert [d for d, _ in seen] == ["block", "allow"]
    [event] = ledger(project)
    assert event["event"] == "no_receipt" and event["agent"] == "codex"
    assert str(event["message"]).startswith("NO RECEIPT: the suite exits 2")


def test_an_agent_that_cannot_make_it_pass_is_let_go_after_the_cap(project: Repo) -> None:
    wrong_ways = [HALF_RIGHT, WRONG, HALF_RIGHT + "# again\n", WRONG + "# again\n",
                  HALF_RIGHT + "# more\n"]
    seen = drive(project, "claude-code", wrong_ways,
                 ["Edited calc.py and ran the suite."], turns=8)
    assert [d for d, _ in seen] == ["block", "block", "block", "block", "allow"]
    # turn 1 changed the tree without running anything; turns 2-4 ran it and it failed
    assert seen[0][1].startswith("receipt: the work tree has changes no receipt covers")
    assert [r.endswith(f"(block {n} of 3 for this reason)")
            for n, (_, r) in zip((1, 2, 3), seen[1:4])] == [True, True, True]
    assert "stop let through after 3 blocks in a row for the same reason (failing)" in seen[4][1]
    [event] = ledger(project)
    assert (event["event"], event["reason"]) == ("fuse_blown", "blocked_stops")
