"""The fuse's fingerprints: the same failure however it is dressed, a different one seen."""

from __future__ import annotations

import pytest

from hooks.fuse.fingerprint import fingerprint

# The two sides of a pair run in different checkouts under different homes, as two agents'
# worktrees would: "{root}" and "{home}" stand for each side's own.
SIDES = (("/home/dev/projects/shop", "/home/dev"), ("/srv/agent-7/wt/shop", "/srv/agent-7"))

# Each pair is one failure printed twice with different noise: the strict fingerprints match.
SAME = [
    ("durations",
     "FAILED t.py::test_a - assert 3 == 5\n=== 1 failed, 2 passed in 0.52s ===",
     "FAILED t.py::test_a - assert 3 == 5\n=== 1 failed, 2 passed in 13.01s ==="),
    ("colours",
     "\x1b[31mFAILED\x1b[0m t.py::test_a - KeyError: 'K'",
     "FAILED t.py::test_a - KeyError: 'K'"),
    ("timestamps",
     "2026-09-07T22:11:00Z ERROR payment failed\nexit",
     "2026-09-08T01:02:03.123+02:00 ERROR payment failed\nexit"),
    ("clock times",
     "[22:11:00] build failed: missing header",
     "[09:45:13] build failed: missing header"),
    ("hex addresses",
     "Segfault in <Cart object at 0x7f3a9c0d1e20>",
     "Segfault in <Cart object at 0x55d1e2f3a410>"),
    ("pytest temp dirs",
     "E   FileNotFoundError: /tmp/pytest-of-root/pytest-41/test_x0/cfg.toml",
     "E   FileNotFoundError: /tmp/pytest-of-root/pytest-42/test_x0/cfg.toml"),
    ("mkdtemp dirs",
     "cannot write /tmp/tmpa8x_2kq/out.json",
     "cannot write /tmp/tmpzz91plm/out.json"),
    ("pids",
     "worker pid 31337 died: OOM",
     "worker pid 4242 died: OOM"),
    ("ports",
     "ConnectionRefusedError: localhost:49213 refused",
     "ConnectionRefusedError: localhost:50877 refused"),
    ("random seeds",
     "Using --randomly-seed=1234567\nFAILED t.py::test_b - AssertionError",
     "Using --randomly-seed=99\nFAILED t.py::test_b - AssertionError"),
    ("progress",
     "t.py ....F                       [ 45%]\nerror: boom",
     "t.py ....F                       [ 91%]\nerror: boom"),
    ("carriage-return redraws",
     "downloading 10%\rdownloading 55%\rdownloading 100%\nfailed to link",
     "downloading 3%\rdownloading 100%\nfailed to link"),
    ("repo root and home",
     "{root}/src/cart.py:12: TypeError\n{home}/.cache/x: stale",
     "{root}/src/cart.py:12: TypeError\n{home}/.cache/x: stale"),
    ("failing test order",
     "FAILED t.py::test_b - E\nFAILED t.py::test_a - E",
     "FAILED t.py::test_a - E\nFAILED t.py::test_b - E"),
    ("go durations",
     "--- FAIL: TestPay (0.01s)\nFAIL\texample.com/shop\t0.020s",
     "--- FAIL: TestPay (1.73s)\nFAIL\texample.com/shop\t2.106s"),
]

# Each pair is two failures that look alike but are not the same: the fingerprints differ.
DIFFERENT = [
    ("assertion values move",
     "FAILED t.py::test_a - assert 3 == 5", "FAILED t.py::test_a - assert 4 == 5"),
    ("another test fails",
     "FAILED t.py::test_a - KeyError", "FAILED t.py::test_b - KeyError"),
    ("one more failing test",
     "FAILED t.py::test_a - E", "FAILED t.py::test_a - E\nFAILED t.py::test_c - E"),
    ("a different error line",
     "error: missing header foo.h", "error: missing header bar.h"),
    ("a different line number",
     "src/cart.py:12: TypeError", "src/cart.py:48: TypeError"),
    ("cargo test name",
     "test cart::pays ... FAILED", "test cart::refunds ... FAILED"),
    ("jest test name",
     "  \u25cf Checkout \u203a applies discount", "  \u25cf Checkout \u203a charges tax"),
]


@pytest.mark.parametrize(("noise", "first", "second"), SAME, ids=[s[0] for s in SAME])
def test_noisy_but_same_failures_share_a_fingerprint(noise: str, first: str, second: str) -> None:
    (root_a, home_a), (root_b, home_b) = SIDES
    a = fingerprint(first.format(root=root_a, home=home_a).encode(), 1, root=root_a, home=home_a)
    b = fingerprint(second.format(root=root_b, home=home_b).encode(), 1, root=root_b, home=home_b)
    assert a.strict == b.strict, noise
    assert a.loose == b.loose


@pytest.mark.parametrize(("change", "first", "second"), DIFFERENT,
                         ids=[d[0] for d in DIFFERENT])
def test_similar_but_different_failures_do_not(change: str, first: str, second: str) -> None:
    root, home = SIDES[0]
    a = fingerprint(first.encode(), 1, root=root, home=home)
    b = fingerprint(second.encode(), 1, root=root, home=home)
    assert a.strict != b.strict, change


def test_the_source_is_recorded_and_the_exit_code_counts() -> None:
    assert fingerprint(b"FAILED t.py::test_a - E\n", 1).source == "failing_tests"
    assert fingerprint(b"make: *** [all] Error 2\n", 2).source == "output_tail"
    assert fingerprint(b"", 137).source == "exit_code"
    assert fingerprint(b"boom\n", 1).strict != fingerprint(b"boom\n", 2).strict


def test_loose_fingerprint_drops_numbers_for_oscillation() -> None:
    a = fingerprint(b"FAILED t.py::test_a - assert 3 == 5", 1)
    b = fingerprint(b"FAILED t.py::test_a - assert 4 == 5", 1)
    assert a.strict != b.strict
    assert a.loose == b.loose


def test_non_utf8_and_huge_lines_do_not_break_it() -> None:
    fp = fingerprint(b"\xff\xfe bad bytes\n" + b"x" * 5_000_000 + b"\nend\n", 1)
    assert fp.source == "output_tail"
