"""The composite GitHub Action (action.yml): its inputs, that it installs the CLI from its own
checkout, and its steps' scripts run for real under a GITHUB_* environment, on a push to the
default branch and on a pull request (one job summary, one annotation per finding)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import PASSING_TEST
from conftest import SOURCE_ROOT
from conftest import Repo
from conftest import git

PY = sys.executable
NOTES = "refs/notes/receipts"
ACTION: dict[str, Any] = yaml.safe_load((SOURCE_ROOT / "action.yml").read_text())
STEPS: list[dict[str, Any]] = ACTION["runs"]["steps"]
_EXPRESSION = re.compile(r"\$\{\{\s*([^}]+?)\s*\}\}")


def test_the_action_is_composite_with_run_verify_and_publish_inputs() -> None:
    assert ACTION["runs"]["using"] == "composite"
    assert set(ACTION["inputs"]) == {"run", "verify", "publish", "python"}
    install = STEPS[0]
    assert install["env"]["ACTION_PATH"] == "${{ github.action_path }}"
    assert 'pip install --quiet "$ACTION_PATH"' in install["run"]
    assert all(step["shell"] == "bash" for step in STEPS)


def value(expression: str, inputs: dict[str, str], event: dict[str, Any]) -> str:
    """What GitHub substitutes for the few expressions the action uses."""
    if expression.startswith("inputs."):
        name = expression[len("inputs."):]
        return inputs.get(name, str(ACTION["inputs"][name].get("default", "")))
    if expression.startswith("github.event."):
        node: Any = event
        for key in expression[len("github.event."):].split("."):
            node = node.get(key, {}) if isinstance(node, dict) else {}
        return node if isinstance(node, str) else ""
    if expression == "github.action_path":
        return str(SOURCE_ROOT)
    raise AssertionError(f"an expression this test does not know: {expression}")


def runs(condition: str | None, inputs: dict[str, str], event: dict[str, Any]) -> bool:
    if condition is None:
        return True
    m = re.fullmatch(r"\$\{\{\s*inputs\.(\w+) != '([^']*)'\s*\}\}", condition)
    assert m, condition
    return value(f"inputs.{m.group(1)}", inputs, event) != m.group(2)


def run_steps(repo: Repo, inputs: dict[str, str], event_name: str, event: dict[str, Any],
              ref: str) -> tuple[list[subprocess.CompletedProcess[str]], Path]:
    """Each step after the install (the CLI of this test run is on PATH) as the runner runs
    it: bash with the step's env; the job summary file is returned with the results."""
    work = repo.path.parent
    payload = work / "event.json"
    payload.write_text(json.dumps(event))
    summary = work / "summary.md"
    summary.write_text("")
    github = {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": event_name,
              "GITHUB_EVENT_PATH": str(payload), "GITHUB_REF": ref,
              "GITHUB_SHA": repo.git("rev-parse", "HEAD"), "GITHUB_STEP_SUMMARY": str(summary),
              "GITHUB_PATH": str(work / "path.txt"), "RUNNER_TEMP": str(work),
              "GITHUB_ACTION_PATH": str(SOURCE_ROOT)}
    if event_name == "pull_request":
        github["GITHUB_BASE_REF"] = event["pull_request"]["base"]["ref"]
    results = []
    for step in STEPS[1:]:
        if not runs(step.get("if"), inputs, event):
            continue
        env = {k: _EXPRESSION.sub(lambda m: value(m.group(1), inputs, event), str(v))
               for k, v in step.get("env", {}).items()}
        proc = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=repo.path, text=True,
                              capture_output=True, check=False,
                              env={**os.environ, **github, **env})
        results.append(proc)
        if proc.returncode != 0:
            break
    return results, summary


@pytest.fixture
def checkout(repo: Repo, tmp_path: Path) -> tuple[Repo, Path]:
    """The default branch pushed to a bare origin, then a fresh clone of it with no
    origin/HEAD, as actions/checkout leaves one."""
    repo.write(".receipt-hooks.toml", f'test-command = "{PY} t.py"\n')
    repo.write("t.py", PASSING_TEST)
    repo.commit("tested")
    remote = repo.add_remote()
    repo.git("push", "-q", "origin", "main")
    clone = Repo(tmp_path / "job" / "repo", init=False)
    git(tmp_path, "clone", "-q", str(remote), str(clone.path))
    clone.git("remote", "set-head", "origin", "-d")
    return clone, remote


def test_a_push_to_the_default_branch_runs_publishes_and_verifies(
        checkout: tuple[Repo, Path]) -> None:
    clone, remote = checkout
    event = {"ref": "refs/heads/main", "repository": {"default_branch": "main"}}
    results, summary = run_steps(clone, {"run": "suite", "publish": "true"}, "push", event,
                                 "refs/heads/main")
    assert [r.returncode for r in results] == [0, 0, 0], [r.stderr for r in results]
    assert "has no refs/notes/receipts yet" in results[0].stderr
    assert f"{NOTES} pushed to origin" in results[1].stderr
    assert git(remote, "rev-parse", NOTES)
    assert "receipt verify: 1 commit(s) vouched for by" in results[2].stdout
    assert "the default branch's own (GitHub builds a push" in results[2].stderr
    assert summary.read_text().count("### Receipts:") == 1


def test_a_pull_request_without_a_receipt_is_refused_once_per_commit(
        checkout: tuple[Repo, Path]) -> None:
    clone, _remote = checkout
    base = clone.git("rev-parse", "HEAD")
    head = clone.commit("untested", u="1\n")
    event = {"pull_request": {"base": {"sha": base, "ref": "main"}, "head": {"sha": head}}}
    results, summary = run_steps(clone, {}, "pull_request", event, "refs/pull/1/merge")
    assert [r.returncode for r in results] == [0, 2]
    verify = results[1]
    assert verify.stdout.startswith(f"{head[:7]}: no receipt from '{PY} t.py'")
    assert len([line for line in verify.stdout.splitlines() if line.startswith("::error")]) == 1
    text = summary.read_text()
    assert text.count("### Receipts:") == 1 and "refused (exit 2)" in text


def test_the_example_workflows_use_the_action_with_its_inputs() -> None:
    uses = {}
    for path in sorted((SOURCE_ROOT / "examples").glob("*.yml")):
        workflow = yaml.safe_load(path.read_text())
        if "jobs" not in workflow:  # a GitLab pipeline: its jobs are top-level keys
            scripts = [str(line) for job in workflow.values() if isinstance(job, dict)
                       for key in ("before_script", "script") for line in job.get(key, [])]
            assert scripts and not [s for s in scripts if "pip install receipt-hooks" in s]
            continue
        for job in workflow["jobs"].values():
            for step in job["steps"]:
                if str(step.get("uses", "")).startswith("receipt-hooks/receipt-hooks@"):
                    uses[path.name] = step
                    assert set(step.get("with", {})) <= set(ACTION["inputs"]), path.name
                assert "pip install receipt-hooks" not in str(step.get("run", ""))
    assert set(uses) == {"receipts-pull-request.yml", "receipts-push.yml"}
    assert uses["receipts-push.yml"]["with"] == {"run": "suite", "publish": "true",
                                                 "verify": "head"}
