"""``no-inserted-skips``: every rule's examples through the real staged diff, the traps that must
stay quiet, allowances, the baseline, range mode and odd input."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Repo
from conftest import precommit_config
from conftest import scan_new_file

from hooks.core.errors import USAGE_ERROR
from hooks.skips import all_packs
from hooks.skips.rules import CHANGE_RULES
from hooks.skips.rules import Pack
from hooks.skips.rules import Rule

HOOK = "no-inserted-skips"


def all_rules() -> Iterator[tuple[Pack, Rule]]:
    seen: set[int] = set()
    for pack in all_packs():
        for rule in pack.rules:
            if id(rule) not in seen:
                seen.add(id(rule))
                yield pack, rule


RULES = list(all_rules())


def rule_id(case: tuple[Pack, Rule]) -> str:
    pack, rule = case
    words = re.sub(r"\W+", "-", rule.message)[:40]
    return f"{pack.name}-{rule.id}-{words}"


def commit_files(repo: Repo, message: str, files: dict[str, str]) -> str:
    for path, content in files.items():
        repo.write(path, content)
    return repo.commit(message)


def stage(repo: Repo, path: str, content: str) -> None:
    repo.write(path, content)
    repo.git("add", "--", path)


@pytest.mark.parametrize("case", RULES, ids=[rule_id(c) for c in RULES])
def test_each_rule_flags_its_bad_example_and_not_its_good_one(
        case: tuple[Pack, Rule], capsys: pytest.CaptureFixture[str]) -> None:
    pack, rule = case
    path = rule.sample or pack.sample
    enabled = frozenset({rule.id}) if rule.opt_in else frozenset()  # opt-in: runs when named
    code, out = scan_new_file(path, rule.bad, capsys, enabled)
    assert code == 1, out
    assert re.search(rf"^{re.escape(path)}:\d+:\d+: {rule.id} {re.escape(rule.message)}$",
                     out, re.M), out
    code, out = scan_new_file(path, rule.good, capsys, enabled)
    assert (code, out) == (0, "")


@pytest.mark.parametrize("pack", ["python", "javascript", "ci"])
def test_a_rule_through_the_real_staged_diff(repo: Repo, pack: str) -> None:
    found = next(p for p in all_packs() if p.name == pack)
    rule = found.rules[0]
    path = rule.sample or found.sample
    repo.commit("init")
    stage(repo, path, rule.bad)
    enable = ("--enable", rule.id) if rule.opt_in else ()  # an opt-in rule runs when named
    bad = repo.run(HOOK, *enable)
    assert bad.code == 1, bad.out
    assert re.search(rf"^{re.escape(path)}:\d+:\d+: {rule.id} {re.escape(rule.message)}$",
                     bad.out, re.M), bad.out
    repo.git("rm", "-q", "--cached", "--", path)
    stage(repo, path, rule.good)
    good = repo.run(HOOK, *enable)
    assert (good.code, good.out) == (0, "")


@pytest.mark.parametrize("rule", CHANGE_RULES, ids=[r.id for r in CHANGE_RULES])
def test_rules_about_removals(repo: Repo, rule: Rule) -> None:
    path = rule.sample or "tests/test_x.py"
    assert rule.before is not None
    commit_files(repo, "before", {path: rule.before})
    stage(repo, path, rule.bad)
    enable = ("--enable", rule.id) if rule.opt_in else ()  # an opt-in rule runs when named
    bad = repo.run(HOOK, *enable)
    assert bad.code == 1
    assert f"{path}:" in bad.out and f": {rule.id} {rule.message}" in bad.out
    stage(repo, path, rule.good)
    good = repo.run(HOOK, *enable)
    assert good.code == 0, good.out


TRAPS = [
    ("app/models/payment.rb",
     "def settle\n  Payment.pending.each(&:retry!)\n  skip_fees = true\nend\n"),
    ("spec/payment_spec.rb", "it 'settles' do\n  expect(Payment.pending).to be_empty\nend\n"),
    ("pay/pay.go", "func Run(o Options) {\n\to.Skip(3)\n}\n"),
    ("src/map.js", "const m = xitiViewMap(1);\nconst f = fitBounds(m);\n"),
    ("tests/test_pay.py", "def test_pay(self):\n    self.assertTrue(False, 'unreachable')\n"),
    ("tests/test_pay.py", "def test_docs():\n    text = 'use @pytest.mark.skip and assert True'\n"
                          "    assert 'xit(' in text  # it.skip( in a comment is fine\n"),
    ("docs/testing.md", "Use `@pytest.mark.skip` or `it.only` and `assert True`.\n"),
    ("docs/testing.rst", ".. code:: python\n\n   @pytest.mark.skip\n"),
    ("src/cart.test.ts", "const s = `it.skip('x')`;\nexpect(total).toBe(true);\n"),
    ("tests/pay.rs", "fn f<'a>(x: &'a str) -> &'a str { x } // #[ignore]\n"),
    (".github/workflows/ci.yml", "jobs:\n  t:\n    steps:\n      - run: pytest  # not || true\n"),
]


@pytest.mark.parametrize(("path", "content"), TRAPS, ids=[t[0] for t in TRAPS])
def test_traps_stay_quiet(path: str, content: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert scan_new_file(path, content, capsys) == (0, "")


@pytest.mark.parametrize(("path", "content"), [TRAPS[0], TRAPS[5], TRAPS[-1]],
                         ids=[TRAPS[0][0], TRAPS[5][0], TRAPS[-1][0]])
def test_traps_stay_quiet_through_the_staged_diff(repo: Repo, path: str, content: str) -> None:
    repo.commit("init")
    stage(repo, path, content)
    result = repo.run(HOOK)
    assert result.code == 0, result.out
    assert result.out == ""


def test_only_added_lines_count(repo: Repo) -> None:
    legacy = "import pytest\n\n@pytest.mark.skip\ndef test_a():\n    assert f()\n"
    commit_files(repo, "legacy", {"tests/test_old.py": legacy})
    repo.write("tests/test_old.py", legacy + "\ndef test_b():\n    assert g()\n")
    repo.git("add", "-A")
    assert repo.run(HOOK).code == 0


def test_renames_are_not_added_lines(repo: Repo) -> None:
    commit_files(repo, "legacy", {"tests/test_a.py": "import pytest\n\n@pytest.mark.skip\n"
                                                     "def test_a():\n    assert f()\n"})
    repo.git("mv", "tests/test_a.py", "tests/test_b.py")
    repo.git("update-index", "--chmod=+x", "tests/test_b.py")
    result = repo.run(HOOK)
    assert result.code == 0, result.out


ALLOWED = ("@pytest.mark.skip  # receipt: allow SKP001 -- ABC-123 flaky on arm64\n"
           "def test_a():\n    assert f()\n")


def test_allowance_with_id_and_ticket_is_honoured_and_listed(repo: Repo) -> None:
    repo.commit("init")
    stage(repo, "tests/test_a.py", ALLOWED)
    result = repo.run(HOOK)
    assert result.code == 0
    assert result.out == ("allowed: tests/test_a.py:1: SKP001 -- ABC-123 flaky on arm64\n"
                          "no-inserted-skips: no findings; 1 allowed (listed above)\n")
    above = "# receipt: allow SKP001 -- https://github.com/o/r/issues/9\n@pytest.mark.skip\n"
    stage(repo, "tests/test_b.py", above + "def test_b():\n    assert f()\n")
    assert repo.run(HOOK).code == 0
    assert repo.run(HOOK, "--no-allow").code == 1


@pytest.mark.parametrize(("comment", "why"), [
    ("# receipt: allow SKP001 -- flaky", "its reason has no ticket"),
    ("# receipt: allow -- ABC-123 flaky", "it names no rule id"),
    ("# receipt: allow SKP002 -- ABC-123 wrong rule", None),
])
def test_allowances_that_are_not_honoured(repo: Repo, comment: str, why: str | None) -> None:
    repo.commit("init")
    stage(repo, "tests/test_a.py", f"@pytest.mark.skip  {comment}\ndef test_a():\n    assert f()\n")
    result = repo.run(HOOK)
    assert result.code == 1
    assert "tests/test_a.py:1:2: SKP001 test skipped with pytest.mark.skip" in result.out
    if why:
        assert f"tests/test_a.py:1:1: allowance not honoured: {why}" in result.out
    custom = repo.run(HOOK, "--ticket-pattern", "flaky")
    assert custom.code == (0 if comment.startswith("# receipt: allow SKP001") else 1)


def test_baseline_mode_reports_only_new_findings(repo: Repo) -> None:
    commit_files(repo, "legacy",
                 {"tests/test_a.py": "@pytest.mark.skip\ndef test_a():\n    assert f()\n"})
    no_baseline = repo.run(HOOK)
    assert no_baseline.code == 0
    assert "run 'receipt skips --write-baseline' and commit .skips-baseline.json" in no_baseline.out
    written = repo.receipt("skips", "--write-baseline")
    assert written.code == 0
    assert "wrote .skips-baseline.json with 1 existing finding(s)" in written.out
    baseline = json.loads((repo.path / ".skips-baseline.json").read_text())
    assert baseline["findings"] == [{"path": "tests/test_a.py", "rule": "SKP001",
                                     "text": "@pytest.mark.skip"}]
    repo.commit("baseline", ".skips-baseline.json")
    assert repo.run(HOOK).code == 0
    # unrelated edits move the line; the baseline is keyed by text, not line number
    (repo.path / "tests/test_a.py").write_text("import pytest\n\n\n@pytest.mark.skip\n"
                                               "def test_a():\n    assert f()\n")
    repo.commit("move it")
    assert repo.run(HOOK).code == 0
    (repo.path / "tests/test_a.py").write_text("@pytest.mark.skip\ndef test_a():\n    assert f()\n"
                                               "\n\n@pytest.mark.skip\ndef test_b():\n"
                                               "    assert g()\n")
    repo.commit("a new skip committed with --no-verify")
    result = repo.run(HOOK, "tests/test_a.py")
    assert result.code == 1
    assert result.out.startswith("tests/test_a.py:6:2: SKP001")


def test_range_mode_and_a_commit_refused_through_the_framework(
        repo: Repo, hook_repo: tuple[str, str]) -> None:
    repo.write(".pre-commit-config.yaml", precommit_config(hook_repo, HOOK))
    base = repo.commit("config")
    assert repo.run("pre-commit", "install").code == 0
    repo.write("src/cart.test.js", "it.only('pays', () => {\n  expect(pay()).toBe(1);\n});\n")
    repo.git("add", "-A")
    refused = repo.run("git", "commit", "-m", "focus")
    assert refused.code == 1
    assert "src/cart.test.js:1:1: SKP002 focused test" in refused.both
    sneaked = repo.run("git", "commit", "-q", "--no-verify", "-m", "focus")
    assert sneaked.code == 0
    head = repo.git("rev-parse", "HEAD")
    ranged = repo.run("pre-commit", "run", HOOK, "--from-ref", base, "--to-ref", head)
    assert ranged.code == 1
    assert "src/cart.test.js:1:1: SKP002" in ranged.both
    direct = repo.run(HOOK, "--from-ref", base, "--to-ref", head)
    assert direct.code == 1
    all_files = repo.run("pre-commit", "run", HOOK, "--all-files", "--verbose")
    assert all_files.code == 0  # no baseline yet: says how to make one
    assert "receipt skips --write-baseline" in all_files.both


def test_files_scope_the_scan(repo: Repo) -> None:
    repo.commit("init")
    stage(repo, "tests/test_a.py", "@pytest.mark.skip\ndef test_a():\n    assert f()\n")
    stage(repo, "tests/test_b.py", "def test_b():\n    assert g()\n")
    assert repo.run(HOOK, "tests/test_b.py").code == 0
    assert repo.run(HOOK, "tests/test_a.py").code == 1


def test_merge_scans_the_resolution_not_the_merged_branch(repo: Repo) -> None:
    commit_files(repo, "init", {"tests/test_a.py": "def test_a():\n    assert f()\n"})
    repo.git("checkout", "-q", "-b", "other")
    commit_files(repo, "their skip",
                 {"tests/test_b.py": "@pytest.mark.skip\ndef test_b():\n    assert g()\n"})
    repo.git("checkout", "-q", "main")
    commit_files(repo, "ours", {"tests/test_a.py": "def test_a():\n    assert f() == 1\n"})
    repo.run("git", "merge", "--no-commit", "--no-ff", "other")
    assert repo.run(HOOK).code == 0
    stage(repo, "tests/test_c.py", "it_is = 1\n@pytest.mark.skip\ndef test_c():\n    assert h()\n")
    result = repo.run(HOOK)
    assert result.code == 1
    assert "tests/test_c.py:2:2: SKP001" in result.out
    assert "test_b.py" not in result.out


ODD_NAMES = ["tests/test with space.py", "tests/tést_ünïcode.py", "tests/new\nline_test.py"]


@pytest.mark.parametrize("name", ODD_NAMES)
def test_odd_file_names(repo: Repo, name: str) -> None:
    repo.commit("init")
    stage(repo, name, "@pytest.mark.skip\ndef test_a():\n    assert f()\n")
    result = repo.run(HOOK)
    assert result.code == 1
    # a name holding a newline is C-quoted, as git quotes it: it cannot start a line of its own
    shown = '"tests/new\\nline_test.py"' if "\n" in name else name
    assert f"{shown}:1:2: SKP001" in result.out


def test_a_file_name_cannot_write_a_ci_runner_command_line(repo: Repo) -> None:
    repo.commit("init")
    stage(repo, "tests/test_\n::stop-commands::zz\n.py",
          "@pytest.mark.skip\ndef test_a():\n    pass\n")
    result = repo.run(HOOK, env={"GITHUB_ACTIONS": "true"})
    assert result.code == 1
    assert not [line for line in result.out.splitlines() if line.startswith("::stop-commands")]


def test_odd_content_is_normal_input(repo: Repo) -> None:
    repo.commit("init")
    stage(repo, "tests/test_crlf.py", "@pytest.mark.skip\r\ndef test_a():\r\n    assert f()\r\n")
    (repo.path / "tests").mkdir(exist_ok=True)
    (repo.path / "tests/test_bytes.py").write_bytes(b"x = '\xff\xfe'\n@pytest.mark.skip\n"
                                                    b"def test_b():\n    pass\n")
    (repo.path / "tests/test_nul.py").write_bytes(b"\x00\x01binary@pytest.mark.skip\n")
    (repo.path / "src").mkdir()
    (repo.path / "src/bundle.min.js").write_text("it.only(1);" + "x" * 5_000_000 + "\n")
    (repo.path / "tests/link.py").symlink_to("test_crlf.py")
    repo.git("add", "-A")
    result = repo.run(HOOK, timeout=60)
    assert "Traceback" not in result.both
    assert result.code == 1
    assert "tests/test_crlf.py:1:2: SKP001" in result.out
    assert "tests/test_bytes.py:2:2: SKP001" in result.out
    assert "tests/test_bytes.py:4:5: SKP004" in result.out
    assert "test_nul" not in result.out
    assert "bundle.min.js" not in result.out


def test_unborn_branch_detached_head_and_deleted_files(repo: Repo) -> None:
    stage(repo, "tests/test_a.py", "@pytest.mark.skip\ndef test_a():\n    assert f()\n")
    assert repo.run(HOOK).code == 1  # the first commit on an unborn branch
    repo.git("commit", "-q", "--no-verify", "-m", "first")
    repo.git("checkout", "-q", "--detach")
    repo.git("rm", "-q", "tests/test_a.py")
    result = repo.run(HOOK)
    assert result.code == 0, result.out


def test_json_and_github_annotations(repo: Repo) -> None:
    repo.commit("init")
    stage(repo, "tests/test_a.py", "@pytest.mark.skip\ndef test_a():\n    assert f()\n")
    doc = json.loads(repo.run(HOOK, "--format", "json").out)
    assert doc["exit_code"] == 1
    assert doc["findings"][0] == {"message": "tests/test_a.py:1:2: SKP001 test skipped with "
                                             "pytest.mark.skip", "code": 1, "kind": "SKP001",
                                  "path": "tests/test_a.py", "line": 1, "col": 2}
    annotated = repo.run(HOOK, env={"GITHUB_ACTIONS": "true"})
    assert ("::error file=tests/test_a.py,line=1,col=2,title=SKP001::tests/test_a.py:1:2: "
            "SKP001 test skipped with pytest.mark.skip") in annotated.out


def test_list_rules_prints_every_rule(repo: Repo) -> None:
    result = repo.receipt("skips", "--list-rules")
    assert result.code == 0
    for rule_number in range(1, 10):
        assert f"SKP00{rule_number}  " in result.out
    assert result.out.count("e.g. ") == len(RULES) + len(CHANGE_RULES)


def test_usage_errors_exit_64(repo: Repo) -> None:
    repo.commit("init")
    result = repo.run(HOOK, "--from-ref", "HEAD")
    assert result.code == USAGE_ERROR
    assert result.err == "no-inserted-skips: --from-ref and --to-ref go together\n"
    assert repo.run(HOOK, "--ticket-pattern", "(").code == USAGE_ERROR


def test_worktree_and_submodule(repo: Repo, tmp_path: Path) -> None:
    library = Repo(tmp_path / "library")
    library.write("tests/test_lib.py", "@pytest.mark.skip\ndef test_lib():\n    assert f()\n")
    library.commit("library with a skip of its own")
    repo.commit("init")
    added = repo.run("git", "submodule", "add", "-q", str(library.path), "vendor/library")
    assert added.code == 0, added.err
    result = repo.run(HOOK)  # the gitlink is staged, not the submodule's files
    assert result.code == 0, result.out
    repo.git("commit", "-q", "-m", "add submodule")
    worktree = tmp_path / "wt"
    repo.git("worktree", "add", "-q", "-b", "side", str(worktree))
    (worktree / "tests").mkdir()
    (worktree / "tests/test_w.py").write_text("def test_w():\n    assert True\n")
    repo.run("git", "add", "-A", cwd=worktree)
    in_worktree = repo.run(HOOK, cwd=worktree)
    assert in_worktree.code == 1
    assert "tests/test_w.py:2:5: SKP004 assertion that cannot fail" in in_worktree.out


@pytest.mark.parametrize(("config", "env"), [
    (("diff.interHunkContext", "3"), {}),       # joins nearby hunks with context between
    (("diff.suppressBlankEmpty", "true"), {"GIT_DIFF_OPTS": "-u3"}),  # overrides -U0
])
def test_a_users_diff_settings_do_not_hide_a_skip_or_move_its_line(
        repo: Repo, config: tuple[str, str], env: dict[str, str]) -> None:
    repo.commit("base", **{"test_a.py": "import pytest\nX = 1\n\n\ndef test_a():\n"
                                        "    assert X == 1\n"})
    repo.git("config", *config)
    repo.write("test_a.py", "import pytest\nX = 2\n\n\n@pytest.mark.skip\ndef test_a():\n"
                            "    assert X == 1\n")
    repo.git("add", "-A")
    result = repo.run(HOOK, env=env)
    assert result.code == 1
    assert "test_a.py:5:" in result.out and "SKP001" in result.out, result.out
