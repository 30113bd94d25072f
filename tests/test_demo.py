"""``receipt demo``: the README's first command shows all three hooks, each step real."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import run


def test_the_demo_shows_all_three_hooks_refusing_and_accepting(tmp_path: Path) -> None:
    result = run(["receipt", "demo"], tmp_path)
    assert result.code == 0, result.out
    out = result.out
    steps = re.findall(r"^=== (.*)$", out, re.M)
    assert len(steps) == 7, steps
    assert re.search(r"^\s+require-ledger-hypothesis\.+Failed$", out, re.M)
    assert "changed but assumption-ledger.jsonl gains no hypothesis" in out
    assert "- exit code: 2" in out and "no receipt at artifacts/test-receipt.json" in out
    assert "receipt: wrote artifacts/test-receipt.json: exit 0, 2 passed" in out
    assert re.search(r"^\s+check-receipt\.+Passed$", out, re.M)
    assert "SKP001 test skipped with unittest.skip" in out
    assert "allowed: tests/test_calc.py:11: SKP001 -- CALC-12" in out  # shown, not hidden
    assert "- exit code: 3" in out
    assert out.rstrip().endswith("a skip needs a ticket and is shown.")
    commands = re.findall(r"^\$ (.*)$", out, re.M)
    # each command is printed once where it runs (a retry after a refusal is a new step)
    assert all(a != b for a, b in zip(commands, commands[1:])), commands
