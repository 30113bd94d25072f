"""A full disk while ``receipt run`` writes: one line on stderr, the command's own exit code
(74 when it exited 0, as no receipt vouches for it), no half-written receipt or log left
behind. On a real 64 KiB tmpfs mounted over artifacts/; and a full stdout, on /dev/full."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Repo

PY = sys.executable


@pytest.fixture
def full_disk(repo: Repo, request: pytest.FixtureRequest) -> Iterator[Path]:
    """artifacts/ on a 64 KiB tmpfs of its own (mount options: the test's param, if any),
    unmounted afterwards."""
    repo.commit("init")
    where = repo.path / "artifacts"
    where.mkdir()
    options = getattr(request, "param", "size=64k")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)],
                             capture_output=True, text=True, check=False)
    if mounted.returncode != 0:
        pytest.fail(f"a full disk needs a small filesystem, and tmpfs cannot be mounted here "
                    f"(run the suite as root): {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def _printing(size: int, code: int) -> list[str]:
    """A command that prints SIZE bytes, then exits CODE."""
    return [PY, "-c", f"import sys\nfor _ in range({size // 100}):\n    print('y' * 99)\n"
                      f"sys.exit({code})"]


@pytest.mark.parametrize(("code", "exit_code"), [(0, 74), (3, 3)])
def test_a_log_that_does_not_fit_says_so_and_keeps_a_failing_exit_code(
        repo: Repo, full_disk: Path, code: int, exit_code: int) -> None:
    ran = repo.run("receipt", "run", "--", *_printing(200_000, code))
    assert ran.code == exit_code, ran.err
    assert ran.err == (f"receipt run: cannot write the log artifacts/test-output.log: No space "
                       f"left on device; no receipt written (the command exited {code}): free "
                       f"some space and run it again\n")
    assert len(ran.out) > 190_000  # the command ran to its end, its output shown in full
    assert sorted(os.listdir(full_disk)) == []  # no receipt, no half-written log


def test_a_receipt_that_does_not_fit_says_so_and_exits_74(repo: Repo, full_disk: Path) -> None:
    (full_disk / "filler").write_bytes(b"f" * (60 << 10))  # one page left: the log's
    ran = repo.receipt("run", "--", *_printing(200, 0))
    assert ran.code == 74, ran.err
    assert ran.err == ("receipt run: cannot write the receipt artifacts/test-receipt.json: No "
                       "space left on device; the log artifacts/test-output.log is complete, "
                       "but no receipt vouches for this run (the command exited 0): free some "
                       "space and run it again\n")
    assert sorted(os.listdir(full_disk)) == ["filler", "test-output.log"]


@pytest.mark.parametrize("full_disk", ["size=64k,nr_inodes=1"], indirect=True)
def test_no_inode_for_the_log_says_so_and_keeps_the_exit_code(repo: Repo,
                                                              full_disk: Path) -> None:
    ran = repo.receipt("run", "--", *_printing(200, 5))
    assert ran.code == 5, ran.err
    assert ran.err == ("receipt run: cannot write the log artifacts/test-output.log: No space "
                       "left on device; no receipt written (the command exited 5): free some "
                       "space and run it again\n")
    assert os.listdir(full_disk) == []


@pytest.fixture
def full_repo(tmp_path: Path) -> Iterator[Repo]:
    """A repository wholly on a 256 KiB tmpfs, filled to the last byte after its first commit."""
    where = tmp_path / "disk"
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(where)],
                             capture_output=True, text=True, check=False)
    if mounted.returncode != 0:
        pytest.fail(f"a full disk needs a small filesystem, and tmpfs cannot be mounted here "
                    f"(run the suite as root): {mounted.stderr.strip()}")
    try:
        repo = Repo(where / "r")
        repo.commit("init", **{"test_a.py": "def test_a():\n    pass\n"})
        subprocess.run(["dd", "if=/dev/zero", f"of={where / 'fill'}", "bs=1k", "count=1000"],
                       capture_output=True, check=False)  # ends at "No space left on device"
        yield repo
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


@pytest.mark.parametrize("argv", [
    ["run", "--", "true"], ["override", "--reason", "INC-42 hotfix, the suite runs after"],
    ["ledger", "add", "the cache key misses the locale", "--test", "test_a.py"],
], ids=["run", "override", "ledger-add"])
def test_a_full_disk_is_one_line_and_exit_74_not_a_bug(full_repo: Repo, argv: list[str]) -> None:
    ran = full_repo.receipt(*argv)
    assert ran.code == 74, ran.err
    assert "No space left on device: free some space and run it again" in ran.err
    assert len(ran.err.splitlines()) == 1 and "internal error" not in ran.err


def test_output_refused_by_a_full_disk_is_exit_74_not_silence(repo: Repo) -> None:
    repo.commit("init")
    with open("/dev/full", "w") as full:
        proc = subprocess.run(["receipt", "contract"], cwd=repo.path, stdout=full,
                              stderr=subprocess.PIPE, text=True, check=False)
    assert proc.returncode == 74, proc.stderr
    assert proc.stderr == ("receipt: cannot write or read stdout: No space left on device: free "
                           "some space and run it again\n")
