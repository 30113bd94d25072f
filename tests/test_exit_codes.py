"""One exit-code table: the README, docs/exit-codes.md and every command's --help say what
hooks/core/exits.py says; usage and config errors are told apart from findings; every JSON
document carries its version; and every relative link in the docs leads somewhere."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import Repo
from conftest import in_process

from hooks import check_receipt
from hooks import cli
from hooks import no_inserted_skips
from hooks import require_ledger_hypothesis
from hooks.core import exits

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- exit-codes:begin -->\n", "<!-- exit-codes:end -->"


def _block(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    return text[text.index(BEGIN) + len(BEGIN):text.index(END)]


@pytest.mark.parametrize("page", ["README.md", "docs/exit-codes.md"])
def test_the_written_table_is_the_table_in_code(page: str) -> None:
    assert _block(ROOT / page) == exits.markdown_table()


def test_codes_of_mistakes_collide_with_no_verdict() -> None:
    verdicts = {exits.FINDINGS, *exits.CHECK_ORDER, exits.FUSE_BLOWN, exits.ENV_CONTRACT}
    mistakes = {exits.USAGE, exits.CONFIG, exits.INTERNAL}
    assert (exits.USAGE, exits.CONFIG) == (64, 78)
    assert not verdicts & mistakes
    assert len({code for code, _, _ in exits.TABLE}) == len(exits.TABLE)


@pytest.mark.parametrize(("argv", "group"), [
    (["check", "--help"], "check"), (["verify", "--help"], "check"),
    (["show", "--help"], "check"), (["fuse", "--help"], "fuse"),
    (["claims", "--help"], "findings"),
])
def test_each_commands_help_prints_its_exit_codes(argv: list[str], group: str,
                                                  tmp_path: Path) -> None:
    shown = in_process(cli.main, argv, tmp_path)
    assert shown.code == 0
    assert " ".join(exits.help_line(group).split()) in " ".join(shown.out.split())


@pytest.mark.parametrize("main", [check_receipt.main, no_inserted_skips.main,
                                  require_ledger_hypothesis.main])
def test_each_hooks_help_prints_its_exit_codes(main: object, tmp_path: Path) -> None:
    shown = in_process(main, ["--help"], tmp_path)  # type: ignore[arg-type]
    group = "check" if main is check_receipt.main else "findings"
    assert shown.code == 0
    assert " ".join(exits.help_line(group).split()) in " ".join(shown.out.split())


def test_a_finding_a_usage_error_and_a_config_error_exit_apart(repo: Repo) -> None:
    repo.write("tests/test_a.py", "import pytest\n\n@pytest.mark.skip\ndef test_a():\n    pass\n")
    repo.git("add", "tests/test_a.py")
    finding = in_process(no_inserted_skips.main, [], repo.path)
    assert finding.code == exits.FINDINGS and "SKP001" in finding.out

    usage = in_process(no_inserted_skips.main, ["--no-such-option"], repo.path)
    assert usage.code == exits.USAGE
    assert usage.err.startswith("no-inserted-skips: error: unrecognized arguments")

    repo.write(".receipt-hooks.toml", "tset-command = 'pytest -q'\n")
    for main in (no_inserted_skips.main, require_ledger_hypothesis.main):
        config = in_process(main, [], repo.path)
        assert config.code == exits.CONFIG, config.both
        assert config.err.endswith(".receipt-hooks.toml:1: tset-command: unknown key\n")


def test_every_json_document_carries_its_version(repo: Repo) -> None:
    repo.commit("first", **{"a.txt": "a\n"})
    checked = repo.receipt("check", "--format", "json")
    assert checked.code == exits.MISSING
    assert json.loads(checked.out)["version"] == 1

    repo.write("said.md", "Done. All tests pass.\n")
    claimed = in_process(cli.main, ["claims", "--format", "json", "said.md"], repo.path)
    assert claimed.code == exits.FINDINGS
    doc = json.loads(claimed.out)
    assert (doc["version"], doc["claims"], doc["backed"]) == (1, 1, False)
    assert [f["kind"] for f in doc["findings"]] == ["CLM001"]
    assert doc["findings"][0]["path"] == "said.md" and doc["findings"][0]["line"] == 1

    repo.write("quiet.md", "Renamed the helper.\n")
    quiet = in_process(cli.main, ["claims", "--format", "json", "quiet.md"], repo.path)
    assert quiet.code == 0 and json.loads(quiet.out)["claims"] == 0


LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_every_relative_link_in_the_docs_leads_to_a_file() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    broken = []
    for page in pages:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert broken == []
