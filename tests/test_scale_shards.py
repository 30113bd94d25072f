"""Shards: a real 4-shard pytest-split suite run in 4 clones, published at the same moment,
composed into one verdict by pre-push, pre-receive and verify; and each way a set of shards
falls short refused with its own message."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import SOURCE_ROOT
from conftest import Repo
from conftest import git
from conftest import receipt_main

PY = sys.executable
NOTES = "refs/notes/receipts"
SUITE = "pytest -q"  # the examples' suite: pytest-split loads as the plugin it is
# the session turns plugin autoloading off; the shards' pytest loads pytest-split as users'
# does (PYTEST_PLUGINS would be recorded as part of the command)
PLUGINS = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": ""}
GITHUB = SOURCE_ROOT / "examples" / "github-shards.yml"
GITLAB = SOURCE_ROOT / "examples" / "gitlab-shards.yml"


def shard_argv(i: int, n: int = 4) -> list[str]:
    return ["--shard", f"{i}/{n}", "--", "pytest", "-q", "--splits", str(n), "--group", str(i)]


def github_shard_job() -> tuple[list[int], list[str]]:
    """The example workflow's matrix and its shard job's receipt commands, as written."""
    workflow = yaml.safe_load(GITHUB.read_text())
    job = workflow["jobs"]["shard"]
    commands = [step["run"] for step in job["steps"] if str(step.get("run", "")).startswith(
        "receipt ")]
    return job["strategy"]["matrix"]["shard"], commands


def receipt_argv(command: str, **values: str) -> list[str]:
    """A CI step's receipt command with its expressions filled in, as receipt's own argv."""
    for name, value in values.items():
        command = command.replace(name, value)
    words = shlex.split(command)
    assert words[0] == "receipt", command
    return words[1:]


def build_project(repo: Repo, config: bool = True) -> None:
    # 16 tests in 8 files; a test fails when FAIL_ONE is set (a red shard, really run)
    repo.write(".gitignore", "artifacts/\n__pycache__/\n.pytest_cache/\n.test_durations\n")
    for i in range(8):
        repo.write(f"tests/test_m{i}.py",
                   f"import os\n\ndef test_a{i}():\n    assert not os.environ.get('FAIL_ONE')\n"
                   f"\ndef test_b{i}():\n    pass\n")
    # a node that drops one test of its group when DROP_ONE is set (a retried node that ran
    # fewer tests than the group the split gave it)
    repo.write("conftest.py", "import os\nimport pytest\n\n\n"
               "@pytest.hookimpl(hookwrapper=True)\n"  # after pytest-split's own split
               "def pytest_collection_modifyitems(config, items):\n"
               "    yield\n"
               "    if os.environ.get('DROP_ONE') and config.getoption('splits', None):\n"
               "        del items[:1]\n")
    if config:
        repo.write(".receipt-hooks.toml", f"test-command = '{SUITE}'\n")
    repo.commit("a suite of 16 tests")


@pytest.fixture(scope="module")
def sharded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project pushed to a server running the server hooks; four clones of it, each ran one
    shard of 4 and published at the same moment; a developer clone with the pre-push hook.
    Built once for the whole run (conftest's prebuild, or the first worker to need it), copied
    by each test."""
    from conftest import run_root

    return ensure_sharded(run_root(tmp_path_factory))


def ensure_sharded(root: Path) -> Path:
    from conftest import once

    where = root / "sharded"
    with once(root, "sharded"):
        if not (where / "built").exists():
            build_sharded(where)
            (where / "built").write_text("")
    return where


def build_sharded(where: Path) -> None:
    shutil.rmtree(where, ignore_errors=True)  # a build that died half way
    where.mkdir()
    dev = Repo(where / "dev")
    build_project(dev)
    server = where / "server.git"
    git(where, "init", "-q", "--bare", "--template=", str(server))
    dev.git("remote", "add", "origin", str(server))
    dev.git("push", "-q", "origin", "main")
    assert receipt_main(server, "install-hook", "--server").code == 0
    assert dev.receipt("install-hook").code == 0
    dev.commit("more", **{"tests__test_more.py": "def test_more():\n    pass\n"})
    matrix, (run, publish) = github_shard_job()  # the example's own commands
    assert matrix == [1, 2, 3, 4]
    shards = []
    for i in matrix:
        git(where, "clone", "-q", str(dev.path), str(where / f"shard{i}"))
        shard = Repo(where / f"shard{i}", init=False)
        shard.git("remote", "set-url", "origin", str(server))
        ran = shard.receipt(*receipt_argv(run, **{"${{ matrix.shard }}": str(i)}), env=PLUGINS)
        assert ran.code == 0, ran.both
        shards.append(shard)
    procs = [subprocess.Popen(["receipt", *receipt_argv(publish)], cwd=s.path,
                              env=dict(os.environ), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for s in shards]
    said = [p.communicate(timeout=120)[1].decode() for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], said


def test_four_published_shards_make_a_tree_pass_pre_push_pre_receive_and_verify(
        sharded: Path, tmp_path: Path) -> None:
    shutil.copytree(sharded, tmp_path, symlinks=True, dirs_exist_ok=True)
    dev = Repo(tmp_path / "dev", init=False)
    dev.git("remote", "set-url", "origin", str(tmp_path / "server.git"))
    assert dev.receipt("fetch").code == 0
    shown = dev.receipt("show")
    assert "the 4 shards of" in shown.both and "each ran in exactly one shard" in shown.both
    pushed = dev.run("git", "push", "origin", "main")  # pre-push, then pre-receive, for real
    assert pushed.code == 0, pushed.both
    workflow = yaml.safe_load(GITHUB.read_text())
    last = workflow["jobs"]["verify"]["steps"][-1]["run"]  # the example's verify job
    verified = dev.receipt(*receipt_argv(last, **{
        "${{ github.event.pull_request.base.sha }}": dev.git("rev-parse", "HEAD~")}))
    assert verified.code == 0, verified.both
    assert "receipt verify: 1 commit(s) vouched for by refs/notes/receipts" in verified.out
    verified = receipt_main(tmp_path / "server.git", "verify", "--rev", "main",
                            "--policy-from", "main~")
    assert verified.code == 0, verified.both
    assert "receipt verify: 1 commit(s) vouched for by refs/notes/receipts" in verified.out
    as_json = receipt_main(tmp_path / "server.git", "verify", "--rev", "main", "--policy-from",
                           "main~", "--format", "json")
    inputs = json.loads(as_json.out)["vouching"][git(tmp_path / "server.git", "rev-parse",
                                                     "main")]
    assert sorted((i["shard"]["index"], i["shard"]["count"]) for i in inputs) == \
        [(1, 4), (2, 4), (3, 4), (4, 4)]
    attested = json.loads(dev.receipt("attest").out)  # one statement, the shards its inputs
    assert attested["predicate"]["result"] == "PASSED"
    assert attested["predicate"]["annotations"]["tests"]["passed"] == 17
    assert sorted(c["name"].split(":")[0] for c in attested["predicate"]["configuration"]) == \
        ["shard 1/4", "shard 2/4", "shard 3/4", "shard 4/4"]
    assert sorted(c["digest"]["sha256"] for c in attested["predicate"]["configuration"]) == \
        sorted(i["digest"] for i in inputs)


def note_of(repo: Repo) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(repo.git("notes", "--ref", "receipts", "show",
                                                     "HEAD^{tree}"))
    return data


def with_note(repo: Repo, receipts: list[dict[str, Any]]) -> None:
    repo.write("artifacts/note.json", json.dumps(receipts))
    repo.git("notes", "--ref", "receipts", "add", "-f", "-F", "artifacts/note.json",
             "HEAD^{tree}")


def dev_copy(sharded: Path, tmp_path: Path) -> tuple[Repo, list[dict[str, Any]]]:
    shutil.copytree(sharded / "dev", tmp_path / "dev", symlinks=True)
    shutil.copytree(sharded / "server.git", tmp_path / "server.git", symlinks=True)
    dev = Repo(tmp_path / "dev", init=False)
    dev.git("remote", "set-url", "origin", str(tmp_path / "server.git"))
    assert dev.receipt("fetch").code == 0
    shutil.rmtree(dev.path / "artifacts", ignore_errors=True)  # the notes alone judge
    by_index = sorted(note_of(dev), key=lambda r: int(r["shard"]["index"]))
    return dev, by_index


def test_a_missing_shard_is_named(sharded: Path, tmp_path: Path) -> None:
    dev, shards = dev_copy(sharded, tmp_path)
    with_note(dev, [shards[0], shards[1], shards[3]])
    refused = dev.receipt("check")
    assert refused.code == 2, refused.both
    assert f"shard 3/4 of '{SUITE}' missing" in refused.both


def test_a_red_shard_is_refused_and_its_retry_counts(sharded: Path, tmp_path: Path) -> None:
    dev, _shards = dev_copy(sharded, tmp_path)
    red = dev.receipt("run", *shard_argv(2), env={"FAIL_ONE": "1", **PLUGINS})
    assert red.code == 1
    refused = dev.receipt("check")
    assert refused.code == 4, refused.both
    assert "shard 2/4 failed (exit 1)" in refused.both
    retried = dev.receipt("run", *shard_argv(2), env=PLUGINS)  # shard 2's newest attempt counts
    assert retried.code == 0, retried.both
    assert dev.receipt("check").code == 0


def test_a_red_run_after_the_shards_passed_refuses_the_tree_as_flaky(
        sharded: Path, tmp_path: Path) -> None:
    dev, _shards = dev_copy(sharded, tmp_path)
    assert dev.receipt("check").code == 0
    red = dev.receipt("run", env={"FAIL_ONE": "1", **PLUGINS})  # the whole suite, newest
    assert red.code == 1, red.both
    assert dev.receipt("check").code == 4  # the local file: the red run
    shutil.rmtree(dev.path / "artifacts")  # the notes alone, as CI and the server judge
    refused = dev.receipt("check")
    assert refused.code == 4, refused.both
    assert f"flaky: the 4 shards of '{SUITE}' passed, then a newer run of it failed" in \
        refused.both
    assert "the newest run decides" in refused.both
    assert dev.receipt("run", env=PLUGINS).code == 0
    again = dev.receipt("run", *shard_argv(1, 3), env={"FAIL_ONE": "1", **PLUGINS})
    assert again.code == 1  # a red shard of another split is a newer run of the suite too
    shutil.rmtree(dev.path / "artifacts")
    assert "flaky:" in dev.receipt("check").both
    assert dev.receipt("run", env=PLUGINS).code == 0  # green again, newest: it decides
    assert dev.receipt("check").code == 0


@pytest.mark.parametrize("total", ["x", [1], {"a": 1}, 1e300])
def test_a_shard_whose_collection_is_malformed_is_refused_in_one_line(
        sharded: Path, tmp_path: Path, total: object) -> None:
    dev, shards = dev_copy(sharded, tmp_path)
    shards[2]["shard"]["collection"]["total"] = total
    with_note(dev, shards)
    refused = dev.receipt("check")
    assert refused.code in (5, 6), refused.both
    assert "Traceback" not in refused.both and "internal error" not in refused.both
    assert "shard 3/4" in refused.both, refused.both


def test_a_shard_without_the_listing_the_others_have_is_refused(
        sharded: Path, tmp_path: Path) -> None:
    dev, shards = dev_copy(sharded, tmp_path)
    del shards[1]["shard"]["collection"]  # a machine whose listing failed
    with_note(dev, shards)
    refused = dev.receipt("check")
    assert refused.code == 6, refused.both
    assert (f"shard 2/4 of '{SUITE}' recorded no listing of the suite while the others did"
            in refused.both)


def test_a_shard_whose_group_was_all_skipped_counts_with_its_set(
        sharded: Path, tmp_path: Path) -> None:
    dev, shards = dev_copy(sharded, tmp_path)
    for shard in shards[3:]:  # its group skipped on this platform, the others passed tests
        tests = shard["tests"]
        tests["skipped"], tests["passed"] = tests["passed"], 0
    with_note(dev, shards)
    accepted = dev.receipt("check")
    assert accepted.code == 0, accepted.both
    for shard in shards:  # every shard skipped everything: nothing was tested
        tests = shard["tests"]
        tests["skipped"], tests["passed"] = tests["skipped"] + tests["passed"], 0
    with_note(dev, shards)
    refused = dev.receipt("check")
    assert refused.code == 4, refused.both
    assert f"no shard of '{SUITE}' passed a test" in refused.both


def test_shards_of_different_splits_do_not_compose(sharded: Path, tmp_path: Path) -> None:
    dev, shards = dev_copy(sharded, tmp_path)
    with_note(dev, shards[1:])  # 2/4, 3/4, 4/4
    half = dev.receipt("run", *shard_argv(1, 2), env=PLUGINS)  # and 1/2
    assert half.code == 0, half.both
    refused = dev.receipt("check")
    assert refused.code == 2, refused.both
    assert "shard 1/4 of" in refused.both and "missing" in refused.both
    assert "other shards split it 2 ways (1/2): the shards of one split must all be there" in \
        refused.both


def test_a_shard_that_selected_fewer_tests_than_its_group_is_refused(
        sharded: Path, tmp_path: Path) -> None:
    dev, shards = dev_copy(sharded, tmp_path)
    with_note(dev, [shards[0], shards[1], shards[3]])
    third = dev.receipt("run", *shard_argv(3), env={"DROP_ONE": "1", **PLUGINS})
    assert third.code == 0, third.both
    refused = dev.receipt("check")
    assert refused.code == 6, refused.both
    assert f"the shards of '{SUITE}' ran 16 of the 17 tests it collects: 1 test(s) ran in no " \
           f"shard (a shard selected fewer tests than its group)" in refused.both


def test_shards_split_by_other_timings_overlap_and_are_refused(
        sharded: Path, tmp_path: Path) -> None:
    dev, shards = dev_copy(sharded, tmp_path)
    with_note(dev, [shards[0], shards[1], shards[3]])
    # shard 3 split by other durations (a retried node with its own timings): its group is
    # not the one the other shards left to it
    durations = {f"tests/test_m{i}.py::test_{x}{i}": 10.0 if i == 0 else 0.1
                 for i in range(8) for x in "ab"}
    dev.write(".test_durations", json.dumps(durations))
    third = dev.receipt("run", *shard_argv(3), env=PLUGINS)
    assert third.code == 0, third.both
    refused = dev.receipt("check")
    assert refused.code == 6, refused.both
    assert f"tests ran in two shards of '{SUITE}': tests/test_m1.py::test_a1 (shards 1 and 3)" \
        in refused.both


def test_a_shard_alone_never_vouches(tmp_path: Path) -> None:
    from conftest import PASSING_TEST

    repo = Repo(tmp_path / "alone")  # no config: the newest receipt would decide
    repo.write(".gitignore", "artifacts/\n")
    repo.write("t.py", PASSING_TEST)
    repo.commit("tests")
    ran = repo.receipt("run", "--shard", "1/2", "--", PY, "t.py")
    assert ran.code == 0, ran.both
    refused = repo.receipt("check")
    assert refused.code == 2, refused.both
    assert f"shard 2/2 of '{PY} t.py' missing" in refused.both
    # and without --shard, a runner's own split reads as a narrowing
    build_project(repo, config=False)
    narrowed = repo.receipt("run", "--", "pytest", "-q", "--splits", "2", "--group", "1",
                            env=PLUGINS)
    assert narrowed.code == 0, narrowed.both
    assert "runs only part of the suite (--splits, --group" in repo.receipt("check").both


def test_shard_usage_errors_say_what_is_wrong(tmp_path: Path) -> None:
    from hooks.core.errors import USAGE_ERROR

    repo = Repo(tmp_path / "usage")
    build_project(repo)
    bad = repo.receipt("run", "--shard", "5/4", "--", PY, "-m", "pytest")
    assert bad.code == USAGE_ERROR
    assert "receipt run: --shard '5/4': expected I/N" in bad.err
    disagree = repo.receipt("run", *shard_argv(2)[:2], "--", PY, "-m", "pytest", "--splits",
                            "4", "--group", "3")
    assert disagree.code == USAGE_ERROR
    assert "receipt run: --shard 2/4, but the command selects shard 3/4 (--splits 4 --group " \
           "3): make them agree" in disagree.err


def test_the_gitlab_example_runs_the_same_shard_commands_as_the_github_one() -> None:
    matrix, (run, publish) = github_shard_job()
    pipeline = yaml.safe_load(GITLAB.read_text())
    job = pipeline["shard"]
    assert job["parallel"] == len(matrix)
    total = str(job["parallel"])
    for i in matrix:  # GitLab's $CI_NODE_INDEX counts from 1, as the matrix does
        gitlab = [receipt_argv(c, **{"$CI_NODE_INDEX": str(i), "$CI_NODE_TOTAL": total})
                  for c in job["script"] if c.startswith("receipt ")]
        assert gitlab == [receipt_argv(run, **{"${{ matrix.shard }}": str(i)})]
    assert [receipt_argv(c) for c in job["after_script"]] == [receipt_argv(publish)]
    verify = [c for c in pipeline["verify"]["script"] if c.startswith("receipt ")]
    assert receipt_argv(verify[0], **{"$CI_DEFAULT_BRANCH": "main"})[:3] == \
        ["verify", "--rev", "HEAD"]
