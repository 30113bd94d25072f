"""``require-ledger-hypothesis``: a hypothesis before src/ changes; the ledger append-only."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import Repo
from conftest import precommit_config

from hooks.core.errors import USAGE_ERROR

LEDGER = "assumption-ledger.jsonl"
HOOK = "require-ledger-hypothesis"
FIX = ('receipt ledger add "<what you believe is wrong>" --test "<command that tests it>", '
       f"then git add {LEDGER}")


def hypothesis(text: str = "the cache key ignores the locale") -> str:
    return json.dumps({"ts": "2026-09-07T22:11:00Z", "hypothesis": text, "tests": ["pytest"],
                       "status": "unproven"}) + "\n"


def test_src_change_without_hypothesis_is_refused_then_accepted(repo: Repo) -> None:
    repo.commit("init", README="x\n")
    repo.write("src/app.py", "print(1)\n")
    repo.git("add", "-A")
    refused = repo.run(HOOK)
    assert refused.code == 1
    assert refused.out == (f"src/app.py changed but {LEDGER} gains no hypothesis in this change: "
                           f"write down what you believe is wrong first: {FIX}\n")
    assert repo.receipt("ledger", "add", "locale", "--test", "pytest -k locale").code == 0
    repo.git("add", LEDGER)
    accepted = repo.run(HOOK)
    assert accepted.code == 0, accepted.out
    assert accepted.out == ""


def test_a_submodule_added_or_moved_under_src_needs_a_hypothesis(repo: Repo,
                                                                 tmp_path: Path) -> None:
    library = Repo(tmp_path / "library")
    library.commit("v1", **{"lib.py": "x = 1\n"})
    repo.commit("init", README="x\n")
    repo.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(library.path),
             "src/vendor")
    refused = repo.run(HOOK)
    assert refused.code == 1, refused.out
    assert refused.out.startswith(f"src/vendor changed but {LEDGER} gains no hypothesis"), \
        refused.out
    repo.git("commit", "-qm", "vendor", "--no-verify")
    library.commit("v2", **{"lib.py": "x = 2\n"})
    repo.git("-C", "src/vendor", "pull", "-q", "origin", "HEAD")
    repo.git("add", "src/vendor")  # the pinned commit moves
    assert repo.run(HOOK).code == 1


def test_changes_outside_src_need_no_hypothesis(repo: Repo) -> None:
    repo.commit("init")
    repo.write("docs/x.md", "doc\n")
    repo.write("tests/src/test_x.py", "pass\n")  # not under ^src/
    repo.git("add", "-A")
    assert repo.run(HOOK).code == 0


def test_hypothesis_committed_earlier_does_not_cover_a_later_change(repo: Repo) -> None:
    repo.commit("with hypothesis", **{LEDGER: hypothesis(), "src__a.py": "1\n"})
    repo.write("src/a.py", "2\n")
    repo.git("add", "-A")
    assert repo.run(HOOK).code == 1


def test_earlier_lines_cannot_be_edited_deleted_or_reordered(repo: Repo) -> None:
    repo.commit("ledger", **{LEDGER: hypothesis("one") + hypothesis("two")})
    ledger = repo.path / LEDGER
    original = ledger.read_text()
    cases = {
        "edited": original.replace("one", "uno"),
        "deleted": hypothesis("one"),
        "moved": hypothesis("two") + hypothesis("one"),
    }
    for what, text in cases.items():
        ledger.write_text(text)
        repo.git("add", LEDGER)
        result = repo.run(HOOK)
        assert result.code == 1, what
        line = 2 if what == "deleted" else 1
        assert result.out.startswith(f"{LEDGER}:{line}: line {line} was {what}"), result.out
        assert f"restore it with 'git checkout HEAD -- {LEDGER}'" in result.out
    ledger.write_text(original + hypothesis("three"))
    repo.git("add", LEDGER)
    assert repo.run(HOOK).code == 0


def test_added_lines_must_validate_whatever_changed(repo: Repo) -> None:
    repo.commit("ledger", **{LEDGER: hypothesis()})
    with (repo.path / LEDGER).open("a") as f:
        f.write('{"ts": "2026-09-07T22:11:00Z", "hypothesis": "x", "tests": []}\n')
    repo.git("add", LEDGER)
    result = repo.run(HOOK)
    assert result.code == 1
    assert result.out.splitlines() == [
        f"{LEDGER}:2: hypothesis: (document): 'status' is a required property",
        f"{LEDGER}:2: hypothesis: /tests: [] should be non-empty",
    ]


def test_custom_paths_and_ledger(repo: Repo) -> None:
    repo.commit("init")
    repo.write("lib/core.py", "x\n")
    repo.git("add", "-A")
    args = ("--paths", "^lib/", "--paths", "^app/", "--ledger", "notes/ledger.jsonl")
    result = repo.run(HOOK, *args)
    assert result.code == 1
    assert "lib/core.py changed but notes/ledger.jsonl gains no hypothesis" in result.out
    repo.write("notes/ledger.jsonl", hypothesis())
    repo.git("add", "-A")
    assert repo.run(HOOK, *args).code == 0


def test_unborn_branch(repo: Repo) -> None:
    repo.write("src/a.py", "1\n")
    repo.git("add", "-A")
    assert repo.run(HOOK).code == 1
    repo.write(LEDGER, hypothesis())
    repo.git("add", "-A")
    assert repo.run(HOOK).code == 0


def test_commit_refused_then_accepted_through_the_framework(
        repo: Repo, hook_repo: tuple[str, str]) -> None:
    repo.write(".pre-commit-config.yaml", precommit_config(hook_repo, HOOK))
    repo.commit("config")
    assert repo.run("pre-commit", "install").code == 0
    repo.write("src/app.py", "print(1)\n")
    repo.git("add", "-A")
    refused = repo.run("git", "commit", "-m", "change src")
    assert refused.code == 1
    assert f"src/app.py changed but {LEDGER} gains no hypothesis" in refused.both
    added = repo.receipt("ledger", "add", "it prints 0", "--test", "python src/app.py")
    assert added.code == 0
    repo.git("add", LEDGER)
    accepted = repo.run("git", "commit", "-m", "change src")
    assert accepted.code == 0, accepted.both
    # `git commit -a` runs hooks on a temporary index: the hook must read that one
    repo.write("src/app.py", "print(2)\n")
    refused = repo.run("git", "commit", "-am", "again")
    assert refused.code == 1
    assert "src/app.py changed" in refused.both


def test_range_mode_through_pre_commit_run(repo: Repo, hook_repo: tuple[str, str]) -> None:
    repo.write(".pre-commit-config.yaml", precommit_config(hook_repo, HOOK))
    base = repo.commit("config")
    repo.commit("hypothesis first", **{LEDGER: hypothesis()})
    covered = repo.commit("then code", src__a="1\n")
    ok = repo.run("pre-commit", "run", HOOK, "--from-ref", base, "--to-ref", covered)
    assert ok.code == 0, ok.both
    uncovered = repo.commit("more code", src__a="2\n")
    refused = repo.run("pre-commit", "run", HOOK, "--from-ref", covered, "--to-ref", uncovered)
    assert refused.code == 1
    assert "src/a changed but" in refused.both
    direct = repo.run(HOOK, "--from-ref", covered, "--to-ref", uncovered)
    assert direct.code == 1
    bad_ref = repo.run(HOOK, "--from-ref", "nope", "--to-ref", uncovered)
    assert bad_ref.code == USAGE_ERROR
    assert bad_ref.err == "require-ledger-hypothesis: nope names no commit here (fetch it first?)\n"


def test_all_files_mode_validates_the_whole_ledger(
        repo: Repo, hook_repo: tuple[str, str]) -> None:
    repo.write(".pre-commit-config.yaml", precommit_config(hook_repo, HOOK))
    repo.commit("config", **{LEDGER: hypothesis()})
    assert repo.run("pre-commit", "run", "--all-files").code == 0
    (repo.path / LEDGER).write_text(hypothesis() + "[1]\n")
    repo.git("commit", "-qam", "bad line committed with --no-verify")
    result = repo.run("pre-commit", "run", "--all-files")
    assert result.code == 1
    assert f"{LEDGER}:2: is a JSON list, not an object" in result.both
