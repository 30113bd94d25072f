"""Every command's output ends where its reader stops reading: piped into ``head -1`` or
``head -0`` through a real shell, each listing command exits as it does with the whole
output read (its own exit code, its own stderr), never "internal error ... BrokenPipeError"."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Repo
from conftest import Result
from conftest import built_template
from conftest import copied
from conftest import in_process

from hooks import check_receipt
from hooks import cli
from hooks import no_inserted_skips

PY = sys.executable
LEDGER = "assumption-ledger.jsonl"
ENTRIES = 700  # ~70 KB listed: more than a pipe holds, so the writer meets the closed end


def _project(repo: Repo) -> None:
    repo.write(LEDGER, "".join(json.dumps({
        "ts": "2026-09-07T22:11:00Z", "id": f"h-{n:06d}",
        "hypothesis": f"the cache key ignores locale number {n} " + "x" * 40,
        "tests": ["pytest"], "status": "unproven"}) + "\n" for n in range(ENTRIES)))
    repo.write("tests/test_skipped.py", "".join(
        f"import pytest\n\n@pytest.mark.skip\ndef test_{n}():\n    pass\n" for n in range(300)))
    repo.write("t.py", "print('3 passed in 0.01s')\n")
    repo.commit("a project with a long ledger")
    repo.add_remote()
    assert repo.receipt("run", "--", PY, "t.py").code == 0


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_template(tmp_path_factory, _project)


@pytest.fixture(scope="module")
def project(template: Path, tmp_path_factory: pytest.TempPathFactory) -> Repo:
    return copied(template, tmp_path_factory.mktemp("piped"))


MAINS: dict[str, Callable[[list[str]], int]] = {
    "receipt": cli.main, "no-inserted-skips": no_inserted_skips.main,
    "check-receipt": check_receipt.main}
LISTINGS = [
    "receipt skips --list-rules", "no-inserted-skips --list-rules",
    "receipt skips --explain SKP001", "receipt ledger list", "receipt ledger check",
    "receipt --help", "receipt run --help", "receipt --version",
    "receipt contract", "receipt show", "receipt check", "receipt attest",
    "receipt verify --head", "check-receipt", "receipt skips tests/test_skipped.py",
    "no-inserted-skips tests/test_skipped.py",
]


# head -0 closes the pipe before the command writes; head -1 once it has read a line, while
# the longer listings are still writing.
PIPED = ([(command, 0) for command in LISTINGS]
         + [(command, 1) for command in ("receipt skips --list-rules",
                                         "no-inserted-skips --list-rules",
                                         "receipt ledger list", "receipt skips --explain SKP001",
                                         "no-inserted-skips tests/test_skipped.py")])


@pytest.mark.parametrize(("command", "lines"), PIPED)
def test_a_listing_piped_into_head_ends_as_if_read_whole(project: Repo, command: str,
                                                         lines: int) -> None:
    program, *args = shlex.split(command)
    whole: Result = in_process(MAINS[program], args, project.path)
    piped = project.run("bash", "-o", "pipefail", "-c", f"{command} | head -{lines}")
    assert (piped.code, piped.err) == (whole.code, whole.err), piped.err
    assert piped.out == "".join(whole.out.splitlines(keepends=True)[:lines])
