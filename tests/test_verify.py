"""``receipt verify``: ranges in CI (json, annotations, step summary) and a real git server's
pre-receive hook, pushed to over the local and file:// transports."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from conftest import PASSING_TEST
from conftest import Repo
from conftest import git
from conftest import receipt_main

from hooks.core.errors import USAGE_ERROR
from hooks.receipt.verify import read_pre_receive

PY = sys.executable
NOTES = "refs/notes/receipts"
ZEROS = "0" * 40


def commit_tested(repo: Repo, name: str) -> str:
    head = repo.commit(f"tested {name}", **{name: "1\n"})
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    return head


def history(repo: Repo) -> tuple[str, str, str, str]:
    """base, tested, UNTESTED, tested: the untested commit sits in the middle."""
    repo.write("t.py", PASSING_TEST)
    base = repo.commit("base")
    first = commit_tested(repo, "a")
    untested = repo.commit("untested", b="1\n")
    last = commit_tested(repo, "c")
    return base, first, untested, last


def test_range_with_an_untested_commit_in_the_middle_is_refused_with_its_id(repo: Repo) -> None:
    base, first, untested, last = history(repo)
    result = receipt_main(repo.path, "verify", "--range", f"{base}..HEAD")
    assert result.code == 2
    tree = repo.git("rev-parse", "--short=7", f"{untested}^{{tree}}")
    assert result.out.startswith(f"{untested[:7]}: no receipt in {NOTES} for tree {tree}")
    assert first[:7] not in result.out and last[:7] not in result.out
    assert receipt_main(repo.path, "verify", "--range", f"{untested}..HEAD").code == 0
    assert receipt_main(repo.path, "verify", "--range", f"{base}..HEAD", "--head").code == 0
    # --rev names no base: the policy is named (never taken from the judged commits)
    assert receipt_main(repo.path, "verify", "--rev", first, "--rev", last,
                        "--policy-from", base).code == 0
    assert receipt_main(repo.path, "verify", "--rev", untested, "--policy-from", base).code == 2


def test_verify_reads_only_the_notes_and_the_same_policy(repo: Repo) -> None:
    repo.write("t.py", PASSING_TEST)
    repo.commit("base")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    ok = receipt_main(repo.path, "verify", "--head", "--policy-from", "HEAD")
    assert ok.code == 0 and ok.out == f"receipt verify: 1 commit(s) vouched for by {NOTES}\n"
    off = receipt_main(repo.path, "verify", "--require-command", "^make",
                       "--policy-from", "HEAD")
    assert off.code == 6 and "does not match --require-command '^make'" in off.out
    repo.git("update-ref", "-d", NOTES)  # the file is still there: verify does not read it
    assert repo.run("check-receipt").code == 0
    assert receipt_main(repo.path, "verify", "--policy-from", "HEAD").code == 2


def test_json_format(repo: Repo) -> None:
    base, _first, untested, last = history(repo)
    result = receipt_main(repo.path, "verify", "--range", f"{base}..HEAD", "--format", "json")
    doc = json.loads(result.out)
    assert result.code == 2 and doc["exit_code"] == 2 and doc["ok"] is False
    assert doc["commits"][0] == last and untested in doc["commits"]
    assert [(f["kind"], f["commit"]) for f in doc["findings"]] == [("missing", untested)]


def test_github_annotations_and_step_summary(repo: Repo, tmp_path: Path) -> None:
    base, first, untested, _last = history(repo)
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    result = repo.receipt("verify", "--range", f"{base}..HEAD",
                      env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)})
    assert result.code == 2
    assert f"::error title=receipt missing::{untested[:7]}: no receipt in {NOTES}" in result.out
    text = summary.read_text()
    assert text.startswith("earlier step\n### Receipts: refused (exit 2)\n")
    assert "| commit | tree | command | counts | where | when | verdict |" in text
    tree = repo.git("rev-parse", "--short=7", f"{first}^{{tree}}")
    row = next(line for line in text.splitlines() if line.startswith(f"| {first[:7]} "))
    assert row.startswith(f"| {first[:7]} | {tree} | `{PY} t.py` | 3 passed, 0 failed, "
                          f"0 skipped | ")
    assert row.endswith("| ✅ vouched |")
    assert any(line.startswith(f"| {untested[:7]} ") and "❌" in line
               for line in text.splitlines())


def test_a_bad_range_is_one_line_and_a_usage_error(repo: Repo) -> None:
    repo.commit("base")
    result = repo.receipt("verify", "--range", "nosuch..HEAD")
    assert result.code == USAGE_ERROR
    assert result.err.startswith("receipt: ") and "Traceback" not in result.err


def test_pre_receive_lines() -> None:
    pushed = read_pre_receive(
        f"{ZEROS} {'a' * 40} refs/heads/main\n{'b' * 40} {ZEROS} refs/heads/gone\n"
        f"{ZEROS} {'c' * 40} {NOTES}\n{ZEROS} {'d' * 40} refs/tags/v1\n", NOTES)
    assert pushed.commits == ["a" * 40]
    assert pushed.notes == ["c" * 40]
    assert pushed.passed == ["refs/heads/gone (deleted)", "refs/tags/v1 (not a branch)"]


def server(repo: Repo) -> Path:
    remote = repo.add_remote()
    hook = remote / "hooks" / "pre-receive"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(f"#!/bin/sh\nexec {shutil.which('receipt')} verify --pre-receive\n")
    hook.chmod(0o755)
    return remote


def test_server_refuses_a_no_verify_push_of_an_untested_commit(repo: Repo) -> None:
    remote = server(repo)
    repo.write("t.py", PASSING_TEST)
    repo.commit("base")
    refused = repo.run("git", "push", "--no-verify", "origin", "main")
    assert refused.code != 0
    tree = repo.git("rev-parse", "--short=7", "HEAD^{tree}")
    assert f"remote: {repo.git('rev-parse', '--short=7', 'HEAD')}: no receipt in {NOTES} " \
           f"for tree {tree}" in refused.err
    assert "pre-receive hook declined" in refused.err
    assert git(remote, "for-each-ref") == ""
    # the tested commit, with its notes in the same push, over the local path
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    accepted = repo.run("git", "push", "origin", "main", NOTES)
    assert accepted.code == 0, accepted.both
    assert git(remote, "rev-parse", "main") == repo.git("rev-parse", "HEAD")


def test_server_over_file_url_with_notes_already_there_and_deletions(repo: Repo) -> None:
    remote = server(repo)
    repo.git("remote", "set-url", "origin", f"file://{remote}")
    repo.write("t.py", PASSING_TEST)
    repo.commit("base")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    assert repo.run("git", "push", "origin", "main", NOTES).code == 0
    repo.git("checkout", "-q", "-b", "side")
    repo.commit("untested side", s="1\n")
    refused = repo.run("git", "push", "--no-verify", "origin", "side")
    assert refused.code != 0 and "no receipt in refs/notes/receipts" in refused.err
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    # notes first, branch later: the server reads the notes it already has
    assert repo.run("git", "push", "origin", NOTES).code == 0
    accepted = repo.run("git", "push", "origin", "side")
    assert accepted.code == 0, accepted.both
    deleted = repo.run("git", "push", "origin", ":side")
    assert deleted.code == 0, deleted.both
    assert git(remote, "for-each-ref", "refs/heads/side") == ""


# The in-toto Statement v1 layout (in-toto/attestation spec/v1/statement.md) and the fields
# the test-result predicate v0.1 defines, as a schema the output must satisfy.
STATEMENT_LAYOUT = {
    "type": "object",
    "required": ["_type", "subject", "predicateType", "predicate"],
    "additionalProperties": False,
    "properties": {
        "_type": {"const": "https://in-toto.io/Statement/v1"},
        "subject": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["digest"],
            "properties": {"name": {"type": "string"}, "digest": {
                "type": "object", "minProperties": 1,
                "additionalProperties": {"type": "string", "pattern": "^[0-9a-f]+$"}}}}},
        "predicateType": {"const": "https://in-toto.io/attestation/test-result/v0.1"},
        "predicate": {
            "type": "object", "required": ["result", "configuration"],
            "additionalProperties": False,
            "properties": {
                "result": {"enum": ["PASSED", "WARNED", "FAILED"]},
                "configuration": {"type": "array", "items": {
                    "type": "object", "required": ["name"],
                    "properties": {"name": {"type": "string"},
                                   "digest": {"type": "object"},
                                   "annotations": {"type": "object"}}}},
                "url": {"type": "string"},
                "passedTests": {"type": "array", "items": {"type": "string"}},
                "warnedTests": {"type": "array", "items": {"type": "string"}},
                "failedTests": {"type": "array", "items": {"type": "string"}}}}},
}


def test_attest_prints_an_in_toto_statement_for_the_commit(repo: Repo) -> None:
    import jsonschema

    repo.write("t.py", PASSING_TEST)
    head = repo.commit("tests")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    result = repo.receipt("attest")
    assert result.code == 0, result.both
    doc = json.loads(result.out)
    jsonschema.validate(doc, STATEMENT_LAYOUT)
    assert doc["subject"][0]["digest"] == {"gitCommit": head}
    assert doc["subject"][1]["digest"] == {"gitTree": repo.git("rev-parse", "HEAD^{tree}")}
    assert doc["predicate"]["result"] == "PASSED"
    config = doc["predicate"]["configuration"]
    assert config[0]["name"] == f"{PY} t.py"
    assert config[0]["annotations"]["tests"]["passed"] == 3
    log = (repo.path / "artifacts/test-output.log").read_bytes()
    import hashlib

    assert config[1] == {"name": "artifacts/test-output.log",
                         "digest": {"sha256": hashlib.sha256(log).hexdigest()}}


def test_attest_a_failed_run_and_refuse_an_untested_commit(repo: Repo) -> None:
    import jsonschema

    repo.write("t.py", "import sys\nprint('=== 1 failed, 2 passed in 0.01s ===')\nsys.exit(1)\n")
    repo.commit("failing")
    assert repo.receipt("run", "--", PY, "t.py").code == 1
    failed = repo.receipt("attest")
    assert failed.code == 0
    doc = json.loads(failed.out)
    jsonschema.validate(doc, STATEMENT_LAYOUT)
    assert doc["predicate"]["result"] == "FAILED"
    repo.commit("untested", x="1\n")
    none = repo.receipt("attest")
    assert none.code == 2 and none.out == ""
    assert "receipt attest: nothing to attest: no receipt was taken on the tree of" in none.err


def test_the_example_workflow_fetches_the_notes_and_verifies_the_range() -> None:
    import yaml
    from conftest import SOURCE_ROOT

    workflow = yaml.safe_load((SOURCE_ROOT / "examples" / "receipts-verify.yml").read_text())
    steps = workflow["jobs"]["receipts"]["steps"]
    runs = [step.get("run", "") for step in steps]
    assert steps[0]["with"]["fetch-depth"] == 0
    assert "git fetch origin '+refs/notes/receipts:refs/notes/receipts'" in runs
    assert any(r.startswith("receipt verify --range ") for r in runs)
