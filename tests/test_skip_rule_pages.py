"""One docs page per skip rule id, generated from the rules' data, and ``--explain ID`` printing
the same page: a page that no longer says what the rules say fails here."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import in_process

from hooks import no_inserted_skips
from hooks.core.errors import USAGE_ERROR
from hooks.skips import explain
from hooks.skips.rules import RULE_TITLES

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("rule_id", sorted(RULE_TITLES))
def test_the_committed_page_is_the_generated_one(rule_id: str) -> None:
    committed = (DOCS / "rules" / f"{rule_id}.md").read_text(encoding="utf-8")
    assert committed == explain.page(rule_id), (
        f"docs/rules/{rule_id}.md is stale: python -m hooks.skips.explain docs/rules")


def test_every_rule_id_has_a_why_a_page_and_a_link_from_the_guide() -> None:
    assert sorted(explain.RULE_WHY) == sorted(RULE_TITLES)
    assert sorted(p.stem for p in (DOCS / "rules").glob("*.md")) == sorted(RULE_TITLES)
    guide = (DOCS / "skip-guard.md").read_text(encoding="utf-8")
    assert [r for r in RULE_TITLES if f"(rules/{r}.md)" not in guide] == []


def test_explain_prints_the_page_and_refuses_an_unknown_id(tmp_path: Path) -> None:
    shown = in_process(no_inserted_skips.main, ["--explain", "SKP004"], tmp_path)
    assert (shown.code, shown.out) == (0, explain.page("SKP004"))
    assert "## python: " in shown.out and "Reported:" in shown.out

    unknown = in_process(no_inserted_skips.main, ["--explain", "SKP999"], tmp_path)
    assert unknown.code == USAGE_ERROR
    assert "argument --explain: 'SKP999' is not a rule id" in unknown.err
