"""Test counts come from the runner that ran, and a command cannot hide a failure: the
parser is picked from the command, node's built-in runner is read, and a shell
string whose status can hide a failing command is refused before it runs."""

from __future__ import annotations

import json
import os
import sys

import pytest
from conftest import Repo
from conftest import check_receipt

from hooks.core.errors import USAGE_ERROR
from hooks.receipt.record.testcounts import TestCounter
from hooks.receipt.record.testcounts import parsers_for

PY = sys.executable

NODE_TAP = ("TAP version 13\n# Subtest: a\nok 1 - a\n  ---\n  duration_ms: 0.5\n  ...\n1..4\n"
            "# tests 4\n# suites 0\n# pass 1\n# fail 1\n# cancelled 0\n# skipped 1\n# todo 1\n"
            "# duration_ms 225.606767\n")
NODE_SPEC = ("\u2714 a (0.5ms)\n\u2716 d (1.2ms)\n\u2139 tests 4\n\u2139 suites 0\n"
             "\u2139 pass 2\n\u2139 fail 0\n\u2139 cancelled 0\n\u2139 skipped 1\n"
             "\u2139 todo 1\n\u2139 duration_ms 239.089978\n")
# A passing pytest run whose tests print lines shaped like other runners' failures.
PYTEST_WITH_NOISE = ("test_log.py --- FAIL: TestX (0.00s)\n--- FAIL: TestY (0.01s)\n"
                     "test result: FAILED. 0 passed; 3 failed; 0 ignored; 0 measured\n"
                     "  2 failing\n"
                     "========================= 3 passed in 0.05s =========================\n")


def counts(argv: list[str], output: str) -> dict[str, object] | None:
    counter = TestCounter.for_command(argv)
    counter.feed(output.encode())
    return counter.result()


def test_node_tap_summary_is_counted() -> None:
    assert counts(["node", "--test", "--test-reporter=tap"], NODE_TAP) == {
        "runner": "node", "passed": 1, "failed": 1, "skipped": 2, "errors": 0, "total": 4}


def test_node_spec_summary_is_counted() -> None:
    assert counts(["node", "--test"], NODE_SPEC) == {
        "runner": "node", "passed": 2, "failed": 0, "skipped": 2, "errors": 0, "total": 4}


def test_another_runners_lines_in_a_pytest_run_count_for_nothing() -> None:
    for argv in (["pytest"], ["python3", "-m", "pytest", "-q"], ["/bin/sh", "-c", "uv run pytest"]):
        assert counts(argv, PYTEST_WITH_NOISE) == {
            "runner": "pytest", "passed": 3, "failed": 0, "skipped": 0, "errors": 0, "total": 3}


def test_a_known_runner_without_its_summary_counts_nothing() -> None:
    cargo_only = "test result: ok. 4 passed; 0 failed; 0 ignored; 0 measured\n"
    assert counts(["pytest"], cargo_only) is None
    assert counts(["cargo", "test"], cargo_only) == {
        "runner": "cargo", "passed": 4, "failed": 0, "skipped": 0, "errors": 0, "total": 4}


@pytest.mark.parametrize(("argv", "parsers"), [
    (["python", "-m", "pytest"], {"pytest"}),
    (["go", "test", "./..."], {"go"}),
    (["/bin/sh", "-c", "cd x && npm test"], {"jest", "vitest", "mocha", "node", "plain", "uvu",
                                              "ava", "tap"}),
    (["make", "test"], None),
    ([PY, "-c", "print(1)"], None),
])
def test_the_parser_is_picked_from_the_command(argv: list[str],
                                               parsers: set[str] | None) -> None:
    assert parsers_for(argv) == (frozenset(parsers) if parsers is not None else None)


def test_passing_pytest_printing_other_runners_failures_is_accepted(repo: Repo) -> None:
    lines = PYTEST_WITH_NOISE.splitlines()[:4]
    body = "".join(f"    print({line!r})\n" for line in lines)
    repo.write("test_log.py", f"def test_a():\n{body}\ndef test_b():\n    pass\n")
    repo.commit("tests that log")
    ran = repo.receipt("run", "--", PY, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider")
    assert ran.code == 0, ran.both
    assert "--- FAIL: TestX" in (repo.path / "artifacts/test-output.log").read_text()
    tests = json.loads((repo.path / "artifacts/test-receipt.json").read_text())["tests"]
    assert tests == {"runner": "pytest", "passed": 2, "failed": 0, "skipped": 0, "errors": 0,
                     "total": 2}
    checked = check_receipt(repo.path)
    assert checked.code == 0, checked.both


def test_node_test_runner_is_recognised_end_to_end(repo: Repo) -> None:
    # a stand-in "node" printing the TAP reporter's summary: the command decides the parser
    bin_dir = repo.path.parent / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "node"
    fake.write_text(f"#!{PY}\nimport sys\nsys.stdout.write({NODE_TAP!r})\nsys.exit(1)\n")
    fake.chmod(0o755)
    repo.commit("init")
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    ran = repo.receipt("run", "--", "node", "--test", env=env)
    assert ran.code == 1
    assert "1 passed, 1 failed, 2 skipped, 0 errors (node)" in ran.err
    checked = repo.run("check-receipt")
    assert checked.code == 4
    assert "1 failed and 0 errors counted by node" in checked.out


@pytest.mark.parametrize(("command", "why"), [
    ("false; echo '3 passed in 0.1s'", "';' runs the next command whatever"),
    ("false\necho '3 passed in 0.1s'", "a new line runs whatever"),
    ("false || echo '3 passed in 0.1s'", "'||' turns a failure"),
    ("false | cat", "a pipe reports only its last command"),
    ("false & wait", "'&' does not wait"),
    ("! false", "'!' inverts"),
])
def test_a_shell_string_that_can_hide_a_failure_is_refused(repo: Repo, command: str,
                                                          why: str) -> None:
    repo.commit("init")
    refused = repo.receipt("run", command)
    assert refused.code == USAGE_ERROR
    lines = refused.err.strip().splitlines()
    assert len(lines) == 1, refused.err
    assert lines[0].startswith("receipt run: '") and why in lines[0]
    assert not (repo.path / "artifacts/test-receipt.json").exists()


def test_nested_sh_dash_c_is_refused_and_sh_dash_ec_is_recorded_honestly(repo: Repo) -> None:
    repo.commit("init")
    refused = repo.receipt("run", "--", "sh", "-c", "false; echo '3 passed in 0.1s'")
    assert refused.code == USAGE_ERROR
    assert "join the commands with '&&'" in refused.err
    honest = repo.receipt("run", "--", "sh", "-ec", "false; echo '3 passed in 0.1s'")
    assert honest.code == 1
    assert json.loads((repo.path / "artifacts/test-receipt.json").read_text())["exit_code"] == 1
    assert check_receipt(repo.path).code == 4
    chained = repo.receipt("run", "false && echo '3 passed in 0.1s'")
    assert chained.code == 1
    assert check_receipt(repo.path).code == 4
