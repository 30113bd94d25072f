"""Publishing under contention: many clones run ``receipt publish`` at the same moment against
one bare remote, as processes, and no receipt is lost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import PASSING_TEST
from conftest import Repo
from conftest import git

from hooks.core.errors import USAGE_ERROR

PY = sys.executable
NOTES = "refs/notes/receipts"


def clone(remote: Path, where: Path) -> Repo:
    git(where.parent, "clone", "-q", str(remote), str(where))
    return Repo(where, init=False)


def remote_receipts(remote: Path, tree: str) -> list[dict[str, object]]:
    data: list[dict[str, object]] = json.loads(git(remote, "notes", "--ref", "receipts",
                                                   "show", tree))
    return data


def test_eight_concurrent_publishers_all_land_every_receipt(repo: Repo) -> None:
    remote = repo.add_remote()
    names = [f"t{i}.py" for i in range(8)]
    for name in names:
        repo.write(name, PASSING_TEST)
    repo.commit("tests")
    repo.git("push", "-q", "origin", "main")
    tree = repo.git("rev-parse", "HEAD^{tree}")
    clones = [clone(remote, repo.path.parent / f"c{i}") for i in range(8)]
    for each, name in zip(clones, names):  # one receipt each, all on the same tree's note
        assert each.receipt("run", "--", PY, name).code == 0
    procs = [subprocess.Popen(["receipt", "publish"], cwd=each.path, env=dict(os.environ),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for each in clones]
    said = [p.communicate(timeout=120) for p in procs]
    codes = [p.returncode for p in procs]
    assert codes == [0] * 8, [err.decode() for _out, err in said]
    for _out, err in said:
        assert "receipt publish: refs/notes/receipts pushed to origin: 1 receipt(s) new on " \
               "origin" in err.decode(), err.decode()
    assert sorted(r["argv"][-1] for r in remote_receipts(remote, tree)) == names  # type: ignore[index]


def test_publish_with_nothing_new_says_so_and_check_receipt_counts(repo: Repo) -> None:
    remote = repo.add_remote()
    repo.write("t.py", PASSING_TEST)
    repo.commit("tests")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    first = repo.receipt("publish")
    assert first.code == 0, first.both
    assert "1 receipt(s) new on origin" in first.err
    again = repo.receipt("publish")
    assert again.code == 0, again.both
    assert "receipt publish: refs/notes/receipts pushed to origin: origin already has every " \
           "receipt here: nothing new to push" in again.err
    assert git(remote, "rev-parse", NOTES) == repo.git("rev-parse", NOTES)


def test_publish_refused_by_the_server_for_another_reason_fails_at_once(repo: Repo) -> None:
    remote = repo.add_remote()
    hook = remote / "hooks" / "pre-receive"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text("#!/bin/sh\necho 'no notes here, ever' >&2\nexit 1\n")
    hook.chmod(0o755)
    repo.write("t.py", PASSING_TEST)
    repo.commit("tests")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    refused = repo.receipt("publish", "--deadline", "600")
    assert refused.code == USAGE_ERROR
    assert "origin refused refs/notes/receipts after its notes were merged into ours:" in \
        refused.err
    assert "pre-receive hook declined" in refused.err
