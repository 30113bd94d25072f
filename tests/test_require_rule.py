"""One rule for which commits need a receipt (``require``): a two-commit push whose older commit
is untested is judged the same by the pre-push hook, a real server's pre-receive hook and
``receipt verify --range``, under each value, and each says which rule judged."""

from __future__ import annotations

import shutil
import sys

import pytest
from conftest import PASSING_TEST
from conftest import Repo

from hooks.core.errors import CONFIG_ERROR

PY = sys.executable
NOTES = "refs/notes/receipts"
RULE = {
    "tip": 'judged by require = "tip" (.receipt-hooks.toml require): the newest commit of '
           'each pushed ref or range needs a receipt',
    "every-commit": 'judged by require = "every-commit" (.receipt-hooks.toml require): every '
                    'commit a push or range adds needs a receipt',
}


def two_commit_push(repo: Repo, rule: str) -> tuple[str, str, str]:
    """base (tested, on a server with the pre-receive check), then UNTESTED and a tested tip,
    with the plain pre-push hook installed: (base, untested, tip)."""
    remote = repo.add_remote()
    hook = remote / "hooks" / "pre-receive"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(f"#!/bin/sh\nexec {shutil.which('receipt')} verify --pre-receive\n")
    hook.chmod(0o755)
    repo.write("t.py", PASSING_TEST)
    repo.write(".receipt-hooks.toml", f'test-command = "{PY} t.py"\nrequire = "{rule}"\n')
    base = repo.commit("base")
    assert repo.receipt("run").code == 0
    first = repo.run("git", "push", "-q", "origin", "main", NOTES)
    assert first.code == 0, first.both
    assert repo.receipt("install-hook").code == 0
    untested = repo.commit("untested", a="1\n")
    tip = repo.commit("tested", b="1\n")
    assert repo.receipt("run").code == 0
    return base, untested, tip


def test_tip_is_judged_alike_by_pre_push_pre_receive_and_verify(repo: Repo) -> None:
    base, _untested, tip = two_commit_push(repo, "tip")
    ranged = repo.receipt("verify", "--range", f"{base}..HEAD")
    assert ranged.code == 0, ranged.both
    assert ranged.out == (f"receipt verify: 1 commit(s) vouched for by {NOTES}\n"
                          f"receipt verify: {RULE['tip']}\n")
    # the pre-push hook passes it, so the push reaches the server, whose hook passes it too
    pushed = repo.run("git", "push", "origin", "main", NOTES)
    assert pushed.code == 0, pushed.both
    assert f"check-receipt: {tip[:7]}: " in pushed.out
    assert f"remote: receipt verify: 1 commit(s) vouched for by {NOTES}" in pushed.err
    assert f"remote: receipt verify: {RULE['tip']}" in pushed.err
    assert repo.git("ls-remote", "origin", "main").split()[0] == tip


def test_every_commit_is_judged_alike_by_pre_push_pre_receive_and_verify(repo: Repo) -> None:
    base, untested, _tip = two_commit_push(repo, "every-commit")
    missing = f"{untested[:7]}: no receipt from '{PY} t.py'"
    ranged = repo.receipt("verify", "--range", f"{base}..HEAD")
    assert ranged.code == 2, ranged.both
    assert ranged.out.startswith(missing)
    assert ranged.out.endswith(f"receipt verify: {RULE['every-commit']}\n")
    local = repo.run("git", "push", "origin", "main", NOTES)
    assert local.code == 1 and "failed to push some refs" in local.err
    # locally the receipt file is for the tip's tree, so the older commit reads as stale
    assert local.out.startswith(f"stale: {untested[:7]} differs from the tested tree"), local.out
    assert local.out.endswith(f"check-receipt: {RULE['every-commit']}\n")
    server = repo.run("git", "push", "--no-verify", "origin", "main", NOTES)
    assert server.code == 1 and "pre-receive hook declined" in server.err
    assert f"remote: {missing}" in server.err
    assert f"remote: receipt verify: {RULE['every-commit']}" in server.err
    assert repo.git("ls-remote", "origin", "main").split()[0] == base


@pytest.mark.parametrize("rule", ["tip", "every-commit"])
def test_the_rule_is_named_in_the_config_schema(repo: Repo, rule: str) -> None:
    repo.write(".receipt-hooks.toml", f'require = "{rule}x"\n')
    repo.commit("bad rule")
    refused = repo.receipt("check")
    assert refused.code == CONFIG_ERROR
    assert f"require: '{rule}x' is not one of ['tip', 'every-commit']" in refused.err
