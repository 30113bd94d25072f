"""``receipt ledger``: appends that never tear, reads that never crash, ids that resolve."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import Repo
from conftest import receipt_main

from hooks.core.errors import USAGE_ERROR

LEDGER = "assumption-ledger.jsonl"
SEED_LINE = ('{"ts":"2026-09-07T22:11:00Z","hypothesis":"STRIPE_API_KEY is unset in this workflow",'
             '"tests":["python -c \\"import os,sys; sys.exit(0 if os.getenv(\\"STRIPE_API_KEY\\") '
             'else 1)\\"","pytest -k checkout -q"],"status":"unproven"}')


def lines(repo: Repo) -> list[dict[str, object]]:
    return [json.loads(line) for line in (repo.path / LEDGER).read_text().splitlines()]


def test_add_appends_a_hypothesis_and_prints_its_id(repo: Repo) -> None:
    result = repo.run("receipt", "ledger", "add", "STRIPE_API_KEY is unset",
                      "--test", "pytest -k checkout", "--test", "env | grep STRIPE")
    assert result.code == 0
    (entry,) = lines(repo)
    assert result.out == f"{entry['id']}\n"
    assert entry["hypothesis"] == "STRIPE_API_KEY is unset"
    assert entry["tests"] == ["pytest -k checkout", "env | grep STRIPE"]
    assert entry["status"] == "unproven"
    assert repo.run("receipt", "ledger", "check").out == f"{LEDGER}: 1 lines, all valid\n"


def test_the_seed_hypothesis_line_is_valid_as_written(repo: Repo) -> None:
    repo.write(LEDGER, SEED_LINE + "\n")
    result = receipt_main(repo.path, "ledger", "check")
    assert result.code == 0, result.out
    listed = receipt_main(repo.path, "ledger", "list")
    assert "line-1       unproven  2026-09-07T22:11:00Z STRIPE_API_KEY is unset" in listed.out


def test_a_blank_hypothesis_is_refused_and_nothing_written(repo: Repo) -> None:
    result = repo.run("receipt", "ledger", "add", "   ", "--test", "pytest")
    assert result.code == USAGE_ERROR  # what was asked cannot be written, as documented
    assert result.err.startswith(f"receipt ledger: not written to {LEDGER}: hypothesis: "
                                 f"/hypothesis: '   ': expected text with")
    assert not (repo.path / LEDGER).exists()
    assert repo.run("receipt", "ledger", "add", "x").code == USAGE_ERROR  # --test is required


def test_resolve_list_and_open(repo: Repo) -> None:
    first = receipt_main(repo.path, "ledger", "add", "cache is stale", "--test",
                         "make t").out.strip()
    second = receipt_main(repo.path, "ledger", "add", "clock skew", "--test", "date").out.strip()
    result = receipt_main(repo.path, "ledger", "resolve", first, "--status", "refuted",
                      "--evidence", "receipt a5870f2: cache cleared, still failing")
    assert result.code == 0
    assert result.out == f"{first}: unproven -> refuted\n"
    listed = receipt_main(repo.path, "ledger", "list").out.splitlines()
    assert [row.split()[:2] for row in listed] == [[first, "refuted"], [second, "unproven"]]
    open_only = receipt_main(repo.path, "ledger", "list", "--open").out.splitlines()
    assert [row.split()[0] for row in open_only] == [second]
    unknown = receipt_main(repo.path, "ledger", "resolve", "h-00000000", "--status", "proven",
                       "--evidence", "x")
    assert unknown.code == USAGE_ERROR
    assert "no hypothesis h-00000000 in" in unknown.err
    assert len(lines(repo)) == 3


def test_add_after_a_last_line_without_newline_keeps_both_whole(repo: Repo) -> None:
    repo.write(LEDGER, SEED_LINE)  # no final newline, as an editor may leave it
    check = receipt_main(repo.path, "ledger", "check")
    assert check.code == 1
    assert f"{LEDGER}:1: has no newline at its end" in check.out
    assert receipt_main(repo.path, "ledger", "add", "h2", "--test", "t").code == 0
    data = (repo.path / LEDGER).read_bytes()
    assert data.startswith(SEED_LINE.encode() + b"\n")
    assert len(lines(repo)) == 2
    assert receipt_main(repo.path, "ledger", "check").code == 0


BAD_LEDGERS = [
    (SEED_LINE.encode() + b"\r\n", f"{LEDGER}:1: ends with CRLF"),
    (SEED_LINE.encode() + b"\n\xff\xfe{}\n", f"{LEDGER}:2: is not UTF-8 (byte 1)"),
    (SEED_LINE.encode() + b"\n{\"a\": \"\x00\"}\n", f"{LEDGER}:2: contains a NUL byte (column 8)"),
    (b"[1, 2]\n", f"{LEDGER}:1: is a JSON list, not an object"),
    (b"{nope\n", f"{LEDGER}:1: is not JSON (Expecting property name"),
    (b"\n", f"{LEDGER}:1: is blank"),
    (b'{"ts": "2026-09-07T22:11:00Z", "resolves": "h-1", "status": "maybe", "evidence": "e"}\n',
     f"{LEDGER}:1: resolution: /status: 'maybe' is not one of ['proven', 'refuted']"),
]


@pytest.mark.parametrize(("content", "message"), BAD_LEDGERS)
def test_bad_ledgers_get_one_line_per_problem_and_are_not_rewritten(
        repo: Repo, content: bytes, message: str) -> None:
    path = repo.write(LEDGER, content)
    result = receipt_main(repo.path, "ledger", "check")
    assert result.code == 1
    assert result.out.startswith(message), result.out
    assert "Traceback" not in result.both
    assert receipt_main(repo.path, "ledger", "list").code == 0
    assert path.read_bytes() == content


def test_a_directory_or_symlink_ledger_is_refused(repo: Repo, tmp_path: Path) -> None:
    (repo.path / LEDGER).mkdir()
    for argv in (("check",), ("add", "h", "--test", "t"), ("list",)):
        result = receipt_main(repo.path, "ledger", *argv)
        assert result.code == USAGE_ERROR
        assert result.err.endswith(f"{LEDGER} is a directory; the ledger is a JSON Lines file\n")
    (repo.path / LEDGER).rmdir()
    outside = tmp_path / "elsewhere.jsonl"
    outside.write_text("")
    (repo.path / LEDGER).symlink_to(outside)
    result = receipt_main(repo.path, "ledger", "add", "h", "--test", "t")
    assert result.code == USAGE_ERROR
    assert "is a symlink; the ledger must be a regular file" in result.err
    assert outside.read_text() == ""


def test_a_large_ledger_is_checked_and_then_remembered(repo: Repo) -> None:
    entry = json.loads(SEED_LINE)
    body = "".join(json.dumps({**entry, "hypothesis": f"cause {i}"}) + "\n" for i in range(5000))
    repo.write(LEDGER, body)
    assert receipt_main(repo.path, "ledger", "check").out == f"{LEDGER}: 5000 lines, all valid\n"
    with (repo.path / LEDGER).open("a") as f:
        f.write('{"ts": "bad"}\n')
    result = receipt_main(repo.path, "ledger", "check")  # only the new line is validated again...
    assert result.code == 1
    assert result.out.startswith(f"{LEDGER}:5001: is none of hypothesis")  # ...and numbered


def test_320_concurrent_appends_leave_320_whole_lines(repo: Repo) -> None:
    worker = (
        "import sys\n"
        "from hooks.ledger import store as ledger\n"
        "for i in range(20):\n"
        "    ledger.append(sys.argv[1], [{'ts': '2026-09-07T22:11:00Z',"
        " 'id': f'h-{sys.argv[2]}-{i}', 'hypothesis': 'x' * 3000, 'tests': ['t'],"
        " 'status': 'unproven'}])\n"
    )
    path = str(repo.path / LEDGER)
    procs = [subprocess.Popen([sys.executable, "-c", worker, path, str(n)]) for n in range(16)]
    assert [p.wait(timeout=120) for p in procs] == [0] * 16
    entries = lines(repo)
    assert len(entries) == 320
    assert len({e["id"] for e in entries}) == 320
    assert receipt_main(repo.path, "ledger", "check").out == f"{LEDGER}: 320 lines, all valid\n"


def test_concurrent_cli_adds(repo: Repo) -> None:
    procs = [subprocess.Popen(["receipt", "ledger", "add", f"cause {n}", "--test", "t"],
                              cwd=repo.path, stdout=subprocess.PIPE) for n in range(12)]
    ids = [p.communicate(timeout=120)[0].decode().strip() for p in procs]
    assert sorted(ids) == sorted(e["id"] for e in lines(repo))


def test_ledger_path_option_and_outside_a_repository(tmp_path: Path) -> None:
    result = subprocess.run(["receipt", "ledger", "add", "h", "--test", "t", "--ledger",
                             "notes/l.jsonl"], cwd=tmp_path, capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0
    assert (tmp_path / "notes/l.jsonl").read_text().count("\n") == 1
