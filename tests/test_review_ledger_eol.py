"""A ledger that core.autocrlf checked out with CRLF is the LF ledger git stores;
'ledger add' keeps the file's line ending, so it never mixes them."""

from __future__ import annotations

from conftest import Repo
from conftest import receipt_main

LEDGER = "assumption-ledger.jsonl"


def _crlf_checkout(repo: Repo) -> None:
    assert receipt_main(repo.path, "ledger", "add", "totals are rounded once",
                    "--test", "pytest -q").code == 0
    repo.commit("ledger")
    repo.git("config", "core.autocrlf", "true")
    (repo.path / LEDGER).unlink()
    repo.git("checkout", "--", LEDGER)
    assert b"\r\n" in (repo.path / LEDGER).read_bytes()


def test_check_accepts_a_crlf_checkout_git_commits_as_lf(repo: Repo) -> None:
    _crlf_checkout(repo)
    check = receipt_main(repo.path, "ledger", "check")
    assert check.code == 0, check.both
    assert f"{LEDGER}: 1 lines, all valid" in check.out


def test_add_keeps_the_crlf_of_the_checkout_and_git_stores_lf(repo: Repo) -> None:
    _crlf_checkout(repo)
    assert receipt_main(repo.path, "ledger", "add", "refunds never exceed the charge",
                    "--test", "pytest -q").code == 0
    data = (repo.path / LEDGER).read_bytes()
    assert data.count(b"\r\n") == data.count(b"\n") == 2  # every line CRLF: nothing mixed
    repo.commit("second")
    assert b"\r" not in repo.git("cat-file", "blob", f"HEAD:{LEDGER}").encode()
    check = receipt_main(repo.path, "ledger", "check")
    assert check.code == 0, check.both
    assert f"{LEDGER}: 2 lines, all valid" in check.out


def test_crlf_that_git_would_commit_is_still_refused(repo: Repo) -> None:
    assert receipt_main(repo.path, "ledger", "add", "totals are rounded once",
                    "--test", "pytest -q").code == 0
    path = repo.path / LEDGER
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    check = receipt_main(repo.path, "ledger", "check")
    assert check.code == 1
    assert f"{LEDGER}:1: ends with CRLF" in check.out
