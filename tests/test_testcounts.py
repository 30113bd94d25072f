"""Test counts read from each runner's real closing lines: by the counter in process, and
through ``receipt run`` into the receipt."""

from __future__ import annotations

import json
import sys

import pytest
from conftest import Repo
from conftest import check_receipt

from hooks.receipt.record.testcounts import TestCounter

PY = sys.executable

SAMPLES = [
    ("pytest", "============ 1 failed, 3 passed, 2 skipped, 1 xfailed in 0.52s ============",
     (3, 1, 3, 0, 7)),
    ("pytest", "3 passed, 1 error in 0.10s", (3, 0, 0, 1, 4)),
    ("pytest", "\x1b[32m========== 5 passed, 2 warnings in 1.02s (0:00:01) ==========\x1b[0m",
     (5, 0, 0, 0, 5)),
    ("unittest", "....\n------\nRan 4 tests in 0.003s\n\nFAILED (failures=1, errors=1, skipped=1)",
     (1, 1, 1, 1, 4)),
    ("unittest", "Ran 2 tests in 0.000s\n\nOK", (2, 0, 0, 0, 2)),
    ("jest", "Test Suites: 1 failed, 1 passed, 2 total\n"
             "Tests:       1 failed, 1 skipped, 1 todo, 3 passed, 6 total\nTime: 1.2 s",
     (3, 1, 2, 0, 6)),
    ("vitest", " Test Files  1 failed | 2 passed (3)\n"
               "      Tests  1 failed | 7 passed | 2 skipped (10)",
     (7, 1, 2, 0, 10)),
    ("mocha", "  4 passing (15ms)\n  2 pending\n  1 failing\n", (4, 1, 2, 0, 7)),
    ("go", "=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n--- FAIL: TestB (0.01s)\n"
           "--- SKIP: TestC (0.00s)\nFAIL\nFAIL\texample.com/x\t0.02s", (1, 1, 1, 0, 3)),
    ("cargo", "test result: ok. 4 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out\n"
              "test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out",
     (6, 1, 1, 0, 8)),
    ("plain", "summary: 12 passed, 0 failed, 3 skipped", (12, 0, 3, 0, 15)),
]


def _script(output: str) -> list[str]:
    return [PY, "-c", f"import sys; sys.stdout.write({output!r} + '\\n')"]


@pytest.mark.parametrize(("runner", "output", "expected"), SAMPLES,
                         ids=[f"{s[0]}-{i}" for i, s in enumerate(SAMPLES)])
def test_closing_lines_are_counted(runner: str, output: str,
                                   expected: tuple[int, int, int, int, int]) -> None:
    """The counter ``receipt run`` feeds the command's output to, in process."""
    counter = TestCounter.for_command(_script(output))
    for line in (output + "\n").encode().splitlines(keepends=True):
        counter.feed(line)
    passed, failed, skipped, errors, total = expected
    assert counter.result() == {"runner": runner, "passed": passed, "failed": failed,
                                "skipped": skipped, "errors": errors, "total": total}


@pytest.mark.parametrize(("runner", "output", "expected"), [SAMPLES[0], SAMPLES[3]],
                         ids=["pytest", "unittest"])
def test_closing_lines_are_counted_into_the_receipt(
        repo: Repo, runner: str, output: str, expected: tuple[int, int, int, int, int]) -> None:
    repo.commit("init")
    repo.receipt("run", "--", *_script(output))
    tests = json.loads((repo.path / "artifacts/test-receipt.json").read_text())["tests"]
    passed, failed, skipped, errors, total = expected
    assert tests == {"runner": runner, "passed": passed, "failed": failed, "skipped": skipped,
                     "errors": errors, "total": total}


def test_output_without_a_summary_counts_nothing(repo: Repo) -> None:
    repo.commit("init")
    repo.receipt("run", "--", PY, "-c", "print('all tests passed, trust me')")
    data = json.loads((repo.path / "artifacts/test-receipt.json").read_text())
    assert data["tests"] is None
    assert check_receipt(repo.path).code == 0  # not counted is not "zero counted"...
    strict = check_receipt(repo.path, "--require-tests")  # ...unless counts are required
    assert strict.code == 4
    assert "no test counts were recognised in the output of" in strict.out
