"""Input built to break the reader: a config nested deeper than Python's stack, a receipt or
note holding a lone surrogate or a NUL, a stop event the hook cannot decode. Each is one line
and a documented exit code (the stop hook: judged on the work tree without the message),
never exit 70 and never a stop let through."""

from __future__ import annotations

import json
import sys

import pytest
from conftest import Repo

PY = sys.executable
DEEP_CONFIG = "a = " + "[" * 600 + "]" * 600 + "\n"


@pytest.mark.parametrize(("name", "text"), [
    (".receipt-hooks.toml", DEEP_CONFIG),
    ("pyproject.toml", "[tool.receipt-hooks]\n" + DEEP_CONFIG),
], ids=["own-file", "pyproject"])
def test_a_config_nested_deeper_than_the_stack_is_a_config_error(repo: Repo, name: str,
                                                                 text: str) -> None:
    repo.commit("init", **{name: text})
    ran = repo.run("no-inserted-skips")
    assert ran.code == 78, ran.err
    assert ran.err == f"no-inserted-skips: {name}: not valid TOML here: nested too deeply to read\n"


def test_the_stop_hook_holds_the_stop_under_a_config_nested_too_deeply(repo: Repo) -> None:
    repo.commit("init", **{".receipt-hooks.toml": DEEP_CONFIG})
    ran = repo.run("receipt", "agent-hook", "--agent", "claude-code", stdin="{}")
    assert ran.code == 0, ran.err
    assert json.loads(ran.out)["decision"] == "block"
    assert "nested too deeply to read" in json.loads(ran.out)["reason"]


@pytest.mark.parametrize("event", [
    "[" * 200_000 + "]" * 200_000,
    '{"session_id": "s", "transcript_path": "a\\u0000b"}',
    '{"session_id": "\\ud800", "last_assistant_message": "All tests pass."}',
], ids=["nested-too-deeply", "nul-in-path", "lone-surrogate"])
def test_a_stop_event_the_hook_cannot_take_as_it_is_still_judges_the_tree(repo: Repo,
                                                                         event: str) -> None:
    repo.commit("init")
    repo.write("new.py", "x = 1\n")  # a change no receipt covers
    ran = repo.run("receipt", "agent-hook", "--agent", "claude-code", stdin=event)
    assert ran.code == 0, ran.err
    assert json.loads(ran.out)["decision"] == "block", ran.err
    assert "letting the stop through" not in ran.err


def _green(repo: Repo) -> dict[str, object]:
    repo.commit("init", **{"test_a.py": "def test_a():\n    pass\n", ".gitignore": "artifacts/\n"})
    assert repo.receipt("run", "--", PY, "-m", "pytest", "-q", "-p", "no:cacheprovider").code == 0
    receipt: dict[str, object] = json.loads(
        (repo.path / "artifacts" / "test-receipt.json").read_text())
    return receipt


def test_a_receipt_holding_a_lone_surrogate_is_not_a_receipt(repo: Repo) -> None:
    receipt = _green(repo)
    text = json.dumps(receipt).replace('"command": "', '"command": "\\ud800', 1)
    (repo.path / "artifacts" / "test-receipt.json").write_text(text)
    ran = repo.receipt("check")
    assert ran.code == 5, ran.err
    assert "is not a valid receipt: it holds a lone surrogate (a \\ud800-style escape), which " \
           "is not text" in ran.out


@pytest.mark.parametrize(("change", "why"), [
    ({"command": "\ud800"}, "it holds a lone surrogate"),
    ({"output": "a\x00b"}, "output.log 'a\\x00b' is outside the repository"),
], ids=["lone-surrogate", "nul-in-the-log"])
def test_a_note_holding_what_is_no_text_or_no_path_is_not_a_receipt(
        repo: Repo, change: dict[str, str], why: str) -> None:
    receipt = _green(repo)
    if "output" in change:
        receipt["output"] = {**receipt["output"], "log": change["output"]}  # type: ignore[dict-item]
    else:
        receipt.update(change)
    tree = repo.git("rev-parse", "HEAD^{tree}")
    repo.run("git", "notes", "--ref", "receipts", "add", "-f", "-m",
             json.dumps([receipt]), tree)
    repo.run("rm", "-r", "artifacts")
    for argv in (["verify", "--head", "--policy-from", "HEAD"], ["check"], ["show"]):
        ran = repo.receipt(*argv)
        assert ran.code == 5, (argv, ran.err)
        assert why in ran.out, (argv, ran.out)


def test_git_failing_is_said_in_its_own_words_not_its_closing_hint(repo: Repo) -> None:
    repo.commit("init")
    ran = repo.receipt("publish")
    assert ran.code == 64, ran.err
    assert ran.err == "receipt: fatal: 'origin' does not appear to be a git repository\n"


def test_a_directory_named_as_the_allowed_signers_file_is_said_to_be_one(repo: Repo) -> None:
    repo.commit("init")
    ran = repo.run("check-receipt", "--allowed-signers", str(repo.path))
    assert ran.code == 64, ran.err
    assert ran.err == f"check-receipt: allowed-signers file {repo.path} is not a file\n"


def test_nan_is_no_budget_on_the_command_line_or_in_the_config(repo: Repo) -> None:
    repo.commit("init", **{"pyproject.toml": "[tool.receipt-hooks.fuse]\nbudget = 3\n"})
    ran = repo.receipt("fuse", "--budget", "nan", "--", "true")
    assert ran.code == 64, ran.err
    assert "argument --budget: not a number of seconds: 'nan'" in ran.err
    repo.commit("nan", **{"pyproject.toml": "[tool.receipt-hooks.fuse]\nbudget = nan\n"})
    ran = repo.receipt("fuse", "--once", "--", "true")
    assert ran.code == 78, ran.err
    assert ran.err == ("receipt: pyproject.toml: tool.receipt-hooks.fuse.budget = nan: not a "
                       "number a setting takes\n")


def test_ledger_list_says_what_it_leaves_out_and_prints_no_escape_codes(repo: Repo) -> None:
    repo.commit("init")
    assert repo.receipt("ledger", "add", "the cache key \x1b[31mred", "--test", "pytest").code == 0
    listed = repo.receipt("ledger", "list", "--open")
    assert listed.code == 0, listed.err
    assert "the cache key" in listed.out and "\x1b" not in listed.out
    ledger = repo.path / "assumption-ledger.jsonl"
    ledger.write_bytes(ledger.read_bytes().replace(b"\n", b"\r\n"))
    listed = repo.receipt("ledger", "list", "--open")
    assert listed.code == 0, listed.err
    assert listed.err == ("receipt ledger: warning: 1 line of assumption-ledger.jsonl is not valid "
                          "and not listed: 'receipt ledger check' says why\n")


@pytest.mark.parametrize(("make", "why"), [
    (lambda p: p.mkdir(), ".pre-commit-config.yaml is not a regular file"),
    (lambda p: p.write_bytes(b"\xff\xfe\x00r"), ".pre-commit-config.yaml is not UTF-8 text"),
], ids=["a-directory", "not-utf-8"])
def test_init_refuses_a_pre_commit_config_it_cannot_edit_and_writes_nothing(
        repo: Repo, make: object, why: str) -> None:
    repo.commit("init")
    assert callable(make)
    make(repo.path / ".pre-commit-config.yaml")
    ran = repo.receipt("init", "--test-command", "pytest -q")
    assert ran.code == 64, ran.err
    assert ran.err.startswith(f"receipt: {why}"), ran.err
    assert not (repo.path / ".receipt-hooks.toml").exists()


@pytest.mark.parametrize("value", ["\u00b2/\u00b3", "\u0661/\u0662", " 1/2", "1/2 "])
def test_a_shard_is_written_in_ascii_digits_and_nothing_else(repo: Repo, value: str) -> None:
    repo.commit("init")
    ran = repo.receipt("run", "--shard", value, "--", "true")
    assert ran.code == 64, ran.err
    assert f"receipt run: --shard {value!r}: expected I/N" in ran.err


def test_a_fifo_named_as_the_ledger_is_refused_not_waited_on(repo: Repo) -> None:
    import os

    repo.commit("init")
    os.mkfifo(repo.path / "ff")
    ran = repo.run("receipt", "ledger", "add", "the cache key misses the locale", "--test",
                   "pytest", "--ledger", "ff", timeout=30)
    assert ran.code == 64, ran.err
    assert ran.err == "receipt: ff is not a regular file\n"
