"""The policy that judges a push, through real git and a real bare remote: it is the one
committed in the push, a push that changes its policy says so, an ``ignore`` that hides source
is refused, replace refs are ignored, a clone-local clean filter is refused, overrides count
only when committed; and the messages of no-op pushes, missing receipts and odd names."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from conftest import FAILING_TEST
from conftest import PASSING_TEST
from conftest import Repo
from conftest import Result
from conftest import built_template
from conftest import copied
from conftest import receipt_check
from conftest import receipt_main

from hooks.core.errors import USAGE_ERROR

PY = sys.executable
SUITE = f"test-command = '{PY} t.py'\n"
RECEIPT = "artifacts/test-receipt.json"


def project(repo: Repo, config: str | None = SUITE) -> str:
    """t.py passes, a config (unless None), a bare remote, the plain pre-push hook, pushed."""
    repo.write("t.py", PASSING_TEST)
    if config is not None:
        repo.write(".receipt-hooks.toml", config)
    head = repo.commit("init")
    repo.add_remote()
    assert repo.receipt("install-hook").code == 0
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    pushed = push(repo)
    assert pushed.code == 0, pushed.both
    return head


def push(repo: Repo, *refs: str) -> Result:
    return repo.run("git", "push", "-q", "origin", *(refs or ("HEAD:main",)))


@pytest.fixture(scope="module")
def published_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """project() with the suite's config, built once per module and copied for each test."""
    return built_template(tmp_path_factory, project)


@pytest.fixture
def published(published_template: Path, tmp_path: Path) -> Repo:
    """A copy of the template's repository and bare remote, the remote's URL pointed at the copy."""
    return copied(published_template, tmp_path)


def test_an_ignored_uncommitted_config_does_not_judge_the_push(repo: Repo) -> None:
    project(repo, config=None)
    (repo.path / ".git/info").mkdir(exist_ok=True)
    with open(repo.path / ".git/info/exclude", "a") as exclude:
        exclude.write(".receipt-hooks.toml\n")
    repo.write(".receipt-hooks.toml", SUITE + "ignore = ['t.py', 'src/**']\n")
    repo.write("src/calc.py", "def add(a, b):\n    return a + b\n")
    repo.commit("calc")
    assert repo.receipt("run").code == 0
    broken = repo.commit("broken, never tested", **{"src/calc.py": "def add(a, b):\n"
                                                                   "    return a - b\n"})
    refused = push(repo)
    assert refused.code == 1, refused.both
    assert (f"check-receipt: note: the work tree's .receipt-hooks.toml differs from the policy "
            f"committed in {broken[:7]} (no config); the push is judged by the committed one"
            ) in refused.err
    assert f"stale: {broken[:7]} holds src/calc.py, t.py, which the receipt left out" \
        in refused.out


def test_a_branch_pushed_from_another_checkout_is_judged_by_its_own_config(published: Repo) -> None:
    repo = published
    repo.git("checkout", "-q", "-b", "weak")
    repo.commit("weak", **{".receipt-hooks.toml": "test-command = 'true'\n"})
    repo.git("checkout", "-q", "main")
    repo.git("checkout", "-q", "-b", "feat")
    feat = repo.commit("broken", **{"t.py": FAILING_TEST})
    assert repo.receipt("run", "--", "true").code == 0
    repo.git("checkout", "-q", "weak")
    refused = push(repo, "feat")
    assert refused.code == 1, refused.both
    assert (f"wrong trial: {feat[:7]}: the receipt ran 'true', the suite is '{PY} t.py': run "
            f"'receipt run', then push again") in refused.out
    assert "differs from the policy committed in" in refused.err


def test_a_push_that_changes_its_own_policy_says_so_every_time(published: Repo) -> None:
    repo, base = published, published.git("rev-parse", "HEAD")
    narrowed = repo.commit("narrow", **{".receipt-hooks.toml": f"test-command = '{PY} u.py'\n",
                                        "u.py": PASSING_TEST})
    assert repo.receipt("run", "--", PY, "u.py").code == 0
    said = (f"check-receipt: {narrowed[:7]}: the pushed commits change the policy (since "
            f"{base[:7]}): test-command \"{PY} t.py\" -> \"{PY} u.py\"; this check applies the "
            f"pushed "
            f"one, 'receipt verify' on a server or in CI applies the base branch's")
    for _ in range(2):
        checked = receipt_check(repo.path)
        assert checked.code == 0 and said in checked.err, checked.both
    repo.git("rm", "-q", ".receipt-hooks.toml")
    deleted = repo.commit("drop the policy")
    assert repo.receipt("run", "--", PY, "u.py").code == 0
    pushed = push(repo)
    assert pushed.code == 0, pushed.both
    assert (f"check-receipt: {deleted[:7]}: the pushed commits change the policy (since "
            f"{base[:7]}): they delete .receipt-hooks.toml") in pushed.err
    quiet = repo.commit("no policy change")
    assert repo.receipt("run", "--", PY, "u.py").code == 0
    assert "change the policy" not in push(repo).err, quiet


def test_an_owner_chosen_ignore_keeps_the_receipt_and_the_push_names_what_it_left_out(
        published: Repo) -> None:
    repo = published
    repo.write("docs/a.md", "a\n")
    repo.commit("docs are not tested", **{".receipt-hooks.toml":
                                          SUITE + "ignore = ['docs/**', 'artifacts/**']\n"})
    assert repo.receipt("run").code == 0
    docs_only = repo.commit("docs", **{"docs/a.md": "a, again\n", "docs/b.md": "b\n"})
    accepted = push(repo)
    assert accepted.code == 0, accepted.both
    said = (f"check-receipt: {docs_only[:7]}: 2 paths changed since the run are ignored by the "
            f"policy: docs/a.md, docs/b.md (.receipt-hooks.toml ignore [\"docs/**\"]); the "
            f"receipt vouches without them")
    assert said in accepted.err
    assert f"check-receipt: {docs_only[:7]}: {RECEIPT} vouches for this tree" in accepted.out
    checked = receipt_check(repo.path)
    assert checked.code == 0 and said in checked.err
    code = repo.commit("code", **{"t.py": PASSING_TEST + "# changed\n"})
    refused = receipt_check(repo.path)
    assert refused.code == 3, refused.both
    assert f"stale: {code[:7]} differs from the tested tree in 1 path: M t.py" in refused.out


def test_verify_takes_the_policy_from_the_range_base_not_the_pushed_commits(
        published: Repo) -> None:
    repo, base = published, published.git("rev-parse", "HEAD")
    repo.commit("narrow", **{".receipt-hooks.toml": f"test-command = '{PY} u.py'\n",
                             "u.py": PASSING_TEST})
    assert repo.receipt("run", "--", PY, "u.py").code == 0  # a note for the new suite
    by_base = receipt_main(repo.path, "verify", "--range", f"{base}..HEAD")
    assert by_base.code == 2, by_base.both
    assert f"no receipt from '{PY} t.py' in refs/notes/receipts" in by_base.out
    by_head = receipt_main(repo.path, "verify", "--range", f"{base}..HEAD", "--policy-from", "HEAD")
    assert by_head.code == 0, by_head.both
    bad = repo.receipt("verify", "--rev", "HEAD", "--policy-from", "nosuch")
    assert bad.code == USAGE_ERROR
    assert bad.err == "receipt: --policy-from nosuch: nosuch names no commit here\n"


def test_replace_refs_do_not_change_the_tree_judged(published: Repo) -> None:
    repo = published
    good = repo.commit("good", **{"g.txt": "good\n"})
    repo.git("reset", "-q", "--hard", "HEAD~1")
    bad = repo.commit("bad", **{"g.txt": "good\n", "t.py": FAILING_TEST})
    repo.git("replace", bad, good)
    repo.git("checkout", "-q", good, "--", ".")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    refused = push(repo)
    assert refused.code == 1, refused.both
    assert f"stale: {bad[:7]} differs from the tested tree in 1 path: M t.py" in refused.out


def test_a_clean_filter_from_outside_gitattributes_is_refused(published: Repo) -> None:
    repo = published
    (repo.path / ".git/info").mkdir(exist_ok=True)
    (repo.path / ".git/info/attributes").write_text("t.py filter=evil\n")
    repo.git("config", "filter.evil.clean", "sed s/exit.0./exit(1)/")
    repo.git("config", "filter.evil.smudge", "cat")
    repo.write("t.py", PASSING_TEST + "# touched\n")
    repo.commit("innocent")
    run = repo.receipt("run", "--", PY, "t.py")
    assert run.code == USAGE_ERROR
    assert run.err.startswith("receipt run: git applies a clean filter to t.py (filter=evil) "
                              "from ") and "info/attributes" in run.err
    assert "not from the repository's .gitattributes" in run.err and run.err.count("\n") == 1


def test_a_filter_the_repository_commits_is_accepted(published: Repo) -> None:
    repo = published
    (repo.path / ".git/info").mkdir(exist_ok=True)
    (repo.path / ".git/info/attributes").write_text("*.md text\n")
    repo.git("config", "filter.upper.clean", "cat")
    repo.git("config", "filter.upper.smudge", "cat")
    head = repo.commit("filter", **{".gitattributes": "*.txt filter=upper\n", "a.txt": "a\n"})
    run = repo.receipt("run", "--", PY, "t.py")
    assert run.code == 0, run.both
    assert receipt_check(repo.path).out.startswith(f"check-receipt: {head[:7]}: ")


def test_an_override_counts_only_when_committed_and_needs_a_reason(published: Repo) -> None:
    repo = published
    broken = repo.commit("broken", **{"t.py": FAILING_TEST})
    for reason in ("x", "INC-1 x", "1234567890", "two\nlines of reason"):
        said = repo.receipt("override", "--reason", reason)
        assert said.code == USAGE_ERROR
        assert said.err.startswith("receipt: override not recorded: --reason")
        assert not (repo.path / "assumption-ledger.jsonl").exists()
    assert repo.receipt("override", "--reason", "INC-1 hotfix").code == 0
    refused = push(repo)
    assert refused.code == 1
    assert (f"check-receipt: {broken[:7]}: the override in assumption-ledger.jsonl is not "
            f"committed in {broken[:7]}, so it does not count") in refused.err
    logged = repo.commit("override INC-1", "assumption-ledger.jsonl")
    pushed = push(repo)
    assert pushed.code == 0, pushed.both
    assert (f"check-receipt: {logged[:7]}: overridden by test@example.invalid because INC-1 "
            f"hotfix") in pushed.out
    published = json.loads(repo.git("show", "origin/main:assumption-ledger.jsonl"))
    assert published["why"] == "INC-1 hotfix" and published["commit"] == broken


def test_a_no_op_push_and_a_deletion_say_nothing_was_checked(published: Repo) -> None:
    repo = published
    repo.git("branch", "feat")
    assert push(repo, "feat").code == 0
    for refs in (("HEAD:main",), (":feat",)):
        pushed = push(repo, *refs)
        assert pushed.code == 0, pushed.both
        assert "check-receipt: nothing to check: the push sends no commits\n" in pushed.out
        assert "vouches" not in pushed.out


def test_the_missing_hint_names_receipt_run_when_the_suite_is_configured(published: Repo) -> None:
    repo = published
    head = repo.commit("more", **{"b.txt": "b\n"})
    shutil.rmtree(repo.path / "artifacts")
    result = receipt_check(repo.path)
    assert result.code == 2
    assert result.out == (f"{head[:7]}: no receipt at {RECEIPT}: run 'receipt run', then push "
                          f"again\n")


def test_usage_errors_go_to_stderr_and_odd_names_stay_on_one_line(published: Repo) -> None:
    repo = published
    unknown = repo.receipt("check", "--rev", "nosuchrev")
    assert unknown.code == USAGE_ERROR and unknown.out == ""
    assert unknown.err == "nosuchrev: nothing to check: it names no commit\n"
    repo.commit("odd", **{"new\nline.txt": "a\n"})
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    head = repo.commit("z", **{"new\nline.txt": "b\n"})
    stale = repo.receipt("check")
    assert stale.code == 3
    assert stale.out.startswith(f'stale: {head[:7]} differs from the tested tree in 1 path: '
                                f'M "new\\nline.txt"; ')
    assert stale.out.count("\n") == 1


def test_a_server_judges_by_its_default_branch_policy_not_the_pushed_one(repo: Repo) -> None:
    remote = repo.add_remote()
    hook = remote / "hooks" / "pre-receive"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(f"#!/bin/sh\nexec {shutil.which('receipt')} verify --pre-receive\n")
    hook.chmod(0o755)
    repo.write("t.py", PASSING_TEST)
    repo.commit("init", **{".receipt-hooks.toml": SUITE})
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    first = repo.run("git", "push", "-q", "origin", "main", "refs/notes/receipts")
    assert first.code == 0, first.both
    narrowed = repo.commit("narrow", **{".receipt-hooks.toml": f"test-command = '{PY} u.py'\n",
                                        "u.py": PASSING_TEST, "t.py": FAILING_TEST})
    assert repo.receipt("run", "--", PY, "u.py").code == 0
    refused = repo.run("git", "push", "--no-verify", "origin", "main", "refs/notes/receipts")
    assert refused.code != 0
    assert f"remote: {narrowed[:7]}: no receipt from '{PY} t.py' in refs/notes/receipts" \
        in refused.err
