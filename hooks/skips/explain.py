"""One page per skip rule id, generated from the rules' own data: its title, why it is a
finding, and each pack's spelling with the bad and good example the suite runs.

``receipt skips --explain ID`` prints the page; docs/rules/ID.md holds the same text, and a test
fails when a page is stale (``python -m hooks.skips.explain docs/rules`` rewrites them).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from collections.abc import Sequence

from hooks.skips.rules import RULE_TITLES
from hooks.skips.rules import Rule

# Why each id is a finding: what the construct does to a green run.
RULE_WHY = {
    "SKP001": "A skipped test still reports green: the suite passes without running it, so a "
              "failure it would have shown is hidden. A skip that is really needed names a "
              "ticket in an allowance, so everyone sees it.",
    "SKP002": "A focus marker makes the runner run only the focused tests; every other test in "
              "the file, or the suite, silently stops running and the run is still green.",
    "SKP003": "A skip whose condition is a constant is an unconditional skip dressed as a "
              "platform or version check: it never runs anywhere.",
    "SKP004": "An assertion that cannot fail, an empty test body, or an assertion failure "
              "caught and dropped makes a test that passes whatever the code does.",
    "SKP005": "An expected failure (xfail, `test.failing`) or a todo turns a failing test into a "
              "passing run; the failure is recorded as expected rather than fixed.",
    "SKP006": "A test commented out no longer runs, and unlike a skip the runner does not even "
              "count it as skipped.",
    "SKP007": "A test renamed out of the runner's pattern (or marked not collectable) is no "
              "longer collected: the suite is green because the test is gone from it.",
    "SKP008": "A CI or config escape hatch (`|| true`, `continue-on-error`, an exclusion option, "
              "a deselected test) lets a red step or a failing test pass the build.",
    "SKP009": "Removing a test's assertions, with none added in their place, leaves a test "
              "that runs and passes but checks nothing.",
}


def rules_of(rule_id: str) -> Iterator[tuple[str, Rule]]:
    """(pack name, rule) for every rule with RULE_ID, each rule once, change rules last."""
    from hooks.skips import all_packs
    from hooks.skips.rules import CHANGE_RULES

    seen: set[int] = set()
    for pack in all_packs():
        for rule in pack.rules:
            if rule.id == rule_id and id(rule) not in seen:
                seen.add(id(rule))
                yield pack.name, rule
    for rule in CHANGE_RULES:
        if rule.id == rule_id:
            yield "any", rule


def _fenced(text: str) -> str:
    fence = "````" if "```" in text else "```"
    return f"{fence}\n{text.rstrip()}\n{fence}"


def page(rule_id: str) -> str:
    """The Markdown page of RULE_ID."""
    lines = [f"# {rule_id}: {RULE_TITLES[rule_id]}", "", RULE_WHY[rule_id], "",
             f"Turn it off in the config with `[tool.receipt-hooks.skips] rules = "
             f"{{ {rule_id} = false }}`, or justify one occurrence with a comment on the line or "
             f"the line above: `receipt: allow {rule_id} -- ABC-123 <reason>`.", ""]
    for pack, rule in rules_of(rule_id):
        opt_in = f" (opt-in: runs only with `--enable {rule_id}`)" if rule.opt_in else ""
        lines += [f"## {pack}: {rule.message}{opt_in}", ""]
        where = rule.sample or ""
        if rule.before is not None:
            lines += [f"Before{f' ({where})' if where else ''}:", "", _fenced(rule.before), ""]
        lines += ["Reported:", "", _fenced(rule.bad), "", "Not reported:", "",
                  _fenced(rule.good), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def explain(rule_id: str) -> int:
    """``--explain RULE_ID``: print the page."""
    from hooks.core.output import write

    write(page(rule_id))
    return 0


def write_pages(directory: str) -> list[str]:
    """Write docs/rules/<ID>.md for every rule id; the paths written."""
    from hooks.core.fileio import atomic_write

    os.makedirs(directory, exist_ok=True)
    written = []
    for rule_id in RULE_TITLES:
        path = os.path.join(directory, f"{rule_id}.md")
        atomic_write(path, page(rule_id).encode())
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    for path in write_pages(args[0] if args else os.path.join("docs", "rules")):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
