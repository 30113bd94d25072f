"""``receipt claims [FILE|-]``: claims that the tests pass, checked against the receipt.

For agents without hooks, chat bots and PR descriptions: finds each sentence that says the
tests pass (rules in hooks/claims/rules.py; quoted, negated, conditional and questioning
sentences are not claims) and exits 0 when there is none or a green receipt covers the work
tree, 1 with each claim quoted otherwise.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from hooks.core import exits
from hooks.core.cmdline import ArgumentParser
from hooks.core.cmdline import describe
from hooks.core.errors import UserError
from hooks.core.output import write

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hooks.claims.scan import Claim

MAX_TEXT_BYTES = 4 << 20


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="receipt claims")
    describe(parser, "Find each sentence in a text that says the tests pass, and check it "
                     "against the receipt.",
             "receipt claims pr-description.md", "agent-cli run ... | receipt claims -",
             notes=["0: no claim, or a green receipt covers the work tree; 1: each unbacked "
                    "claim quoted.", exits.help_line("findings")])
    parser.add_argument("file", nargs="?", default="-", metavar="FILE",
                        help="the text to read (default -, standard input)")
    parser.add_argument("--list-rules", action="store_true",
                        help="print every rule with its id, message and examples")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="json: the claims as findings (path, line, rule id), with "
                             "'backed' and the work tree")
    return parser


def _read(name: str) -> str:
    from hooks.core.fileio import UnreadableFile
    from hooks.core.fileio import read_bounded

    if name == "-":
        return sys.stdin.buffer.read(MAX_TEXT_BYTES).decode("utf-8", "replace")
    try:
        return read_bounded(name, MAX_TEXT_BYTES).decode("utf-8", "replace")
    except FileNotFoundError:
        raise UserError(f"receipt claims: {name}: no such file") from None
    except UnreadableFile as e:
        raise UserError(f"receipt claims: {name}: it {e}") from None


def _list_rules() -> int:
    from hooks.claims.rules import RULES

    for rule in RULES:
        write(f"{rule.id} {rule.message}\n  claim:     {rule.claim!r}\n"
              f"  not claim: {rule.near_miss!r}\n")
    return 0


def _print_json(claims: Sequence[Claim], *, shown: str, backed: bool, tree: str | None) -> None:
    from hooks.core.output import Finding
    from hooks.core.output import print_findings

    findings = [Finding(f"{shown}:{c.line}: {c.rule.id} {c.rule.message}: \"{c.sentence}\"",
                        1, c.rule.id, path=shown, line=c.line) for c in claims]
    code = 0 if backed or not claims else 1
    print_findings([] if backed else findings, fmt="json", exit_code=code,
                   extra={"claims": len(claims), "backed": backed, "tree": tree})


def main(argv: Sequence[str]) -> int:
    from hooks.claims.scan import find_claims

    args = build_parser().parse_args(list(argv))
    if args.list_rules:
        return _list_rules()
    text = _read(args.file)
    claims = find_claims(text)
    if not claims:
        if args.format == "json":
            _print_json([], shown="", backed=False, tree=None)
        else:
            write("receipt claims: no claim that the tests pass\n")
        return 0
    from hooks.agents.coverage import coverage
    from hooks.core import config
    from hooks.core import git

    shown = "<stdin>" if args.file == "-" else args.file
    try:
        paths = git.repo_paths()
        cov = coverage(paths, config.for_repo(paths))
    except git.NotAGitRepository:
        cov = None
    if args.format == "json":
        _print_json(claims, shown=shown, backed=bool(cov and cov.covered),
                    tree=cov.tree if cov else None)
        return 0 if cov is not None and cov.covered else 1
    if cov is not None and cov.covered:
        write(f"receipt claims: {len(claims)} claim(s), backed: a green receipt covers this "
              f"work tree ({git.short(cov.tree)})\n")
        return 0
    for claim in claims:
        write(f"{shown}:{claim.line}: {claim.rule.id} {claim.rule.message}: "
              f"\"{claim.sentence}\"\n")
    why = ("not inside a git repository, so no receipt can back it" if cov is None else
           f"no green receipt covers this work tree (tree {git.short(cov.tree)}): run "
           f"{cov.command}, then make the claim")
    write(f"receipt claims: {len(claims)} unbacked claim(s): {why}\n")
    return 1
