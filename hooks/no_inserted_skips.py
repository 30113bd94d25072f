"""Hook ``no-inserted-skips`` (and ``receipt skips``): refuse changes that add skipped, focused,
vacuous or disabled tests, or CI escape hatches.

Only what the change adds is read (``hooks.core.change``: the staged diff, a range, or at
pre-push the history no remote has). With nothing staged and no refs (``--all-files``,
pre-commit.ci), whole files are compared with the committed baseline instead.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from hooks.core import change
from hooks.core import exits
from hooks.core import git
from hooks.core.cmdline import ArgumentParser
from hooks.core.cmdline import describe
from hooks.core.cmdline import quoted
from hooks.core.cmdline import regex_argument
from hooks.core.errors import UserError
from hooks.core.errors import guarded
from hooks.core.output import write
from hooks.skips.allowances import DEFAULT_TICKET
from hooks.skips.baseline import BASELINE


def build_parser(prog: str) -> ArgumentParser:
    parser = ArgumentParser(prog=prog)
    describe(parser, "Refuse staged changes that add skipped, focused, vacuous or disabled "
                     "tests, or CI escape hatches (|| true, continue-on-error, --deselect).",
             f"{prog}                    # the staged change",
             f"{prog} --from-ref origin/main --to-ref HEAD",
             f"{prog} --list-rules",
             notes=["Justify one exception with a comment on the line or the line above: "
                    "'receipt: allow SKP001 -- ABC-123 flaky on arm64'.",
                    exits.help_line("findings")], annotates=True)
    parser.add_argument("filenames", nargs="*", help="limit the scan to these files")
    parser.add_argument("--from-ref", metavar="REV", help="scan the range FROM...TO")
    parser.add_argument("--to-ref", metavar="REV")
    parser.add_argument("--no-allow", action="store_true",
                        help="honour no 'receipt: allow' comments")
    parser.add_argument("--ticket-pattern", type=regex_argument, metavar="REGEX",
                        help="what an allowance's reason must contain (default: the config's "
                             "skips.ticket-pattern, else ABC-123, #123 or an issue URL)")
    parser.add_argument("--baseline", metavar="PATH",
                        help=f"baseline for whole-file scans (default: the config's "
                             f"skips.baseline, else {BASELINE})")
    parser.add_argument("--write-baseline", action="store_true",
                        help="scan every tracked file and write the baseline")
    parser.add_argument("--enable", action="append", default=[], metavar="RULE_ID",
                        type=rule_id_argument,
                        help="also run this opt-in rule (repeatable; --list-rules marks them)")
    parser.add_argument("--list-rules", action="store_true", help="print every rule and exit")
    parser.add_argument("--explain", metavar="RULE_ID", type=rule_id_argument,
                        help="print what RULE_ID finds, why, and each pack's examples "
                             "(docs/rules/RULE_ID.md)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="text for people (default) or json for machines")
    return parser


def rule_id_argument(value: str) -> str:
    from hooks.skips.rules import RULE_TITLES

    if value not in RULE_TITLES:
        raise argparse.ArgumentTypeError(f"{value!r} is not a rule id ({', '.join(RULE_TITLES)})")
    return value


def _apply_config(args: argparse.Namespace) -> set[str]:
    """Fill what the command line left unset from the config; the rule ids turned off.

    The config's ``rules`` table turns a rule off (false) or an opt-in rule on (true).
    """
    from hooks.core import config

    skips = config.for_repo(git.repo_paths()).section("skips")
    args.ticket_pattern = args.ticket_pattern or skips.get("ticket-pattern", DEFAULT_TICKET)
    args.baseline = args.baseline or skips.get("baseline", BASELINE)
    rules = skips.get("rules", {})
    args.enable = [*args.enable, *(rule for rule, on in rules.items() if on)]
    return {rule for rule, on in rules.items() if not on}


def run(argv: Sequence[str] | None, prog: str) -> int:
    args = build_parser(prog).parse_args(argv)
    from hooks.skips.report import list_rules
    from hooks.skips.report import report
    from hooks.skips.scan import scan_change
    from hooks.skips.scan import scan_whole_files

    if args.list_rules:
        return list_rules()
    if args.explain:
        from hooks.skips.explain import explain

        return explain(args.explain)
    off = _apply_config(args)
    if args.write_baseline:
        from hooks.skips.baseline import write_baseline

        change.enter_root()
        results = scan_whole_files(git.tracked_files(), frozenset(args.enable))
        write_baseline(args.baseline, [hit for hit, _ in results])
        write(f"{prog}: wrote {args.baseline} with {len(results)} existing finding(s); "
              f"commit it so --all-files runs report only new ones\n")
        return 0
    found = change.detect(args.from_ref, args.to_ref, lines=True)
    if found.is_empty:
        if not args.filenames and os.environ.get("PRE_COMMIT"):
            # pre-commit runs the hook on every commit (a deletion has no file to pass it):
            # one that stages nothing (an empty commit, a reworded amend) has nothing to read
            return 0
        return whole_file_mode(args, prog, off)
    only = set(args.filenames) if args.filenames else None
    results = [r for r in scan_change(found, only, frozenset(args.enable))
               if r[0].rule.id not in off]
    return report(results, allow=not args.no_allow, ticket=args.ticket_pattern,
                  fmt=args.format, prog=prog)


def whole_file_mode(args: argparse.Namespace, prog: str, off: set[str]) -> int:
    """Nothing staged and no refs: compare whole files with the committed baseline."""
    from hooks.skips.baseline import load_baseline
    from hooks.skips.baseline import not_in_baseline
    from hooks.skips.report import report
    from hooks.skips.scan import scan_whole_files

    baseline_path: str = args.baseline
    try:
        baseline = load_baseline(baseline_path)
    except ValueError as e:
        raise UserError(f"{prog}: {e}") from e
    if baseline is None:
        write(f"{prog}: nothing staged and no refs, so no diff to scan; to check whole files "
              f"(pre-commit run --all-files, pre-commit.ci) against what exists today, run "
              f"{quoted('receipt skips --write-baseline')} and commit {baseline_path}\n")
        return 0
    scanned = scan_whole_files(args.filenames or git.tracked_files(), frozenset(args.enable))
    fresh = [r for r in not_in_baseline(scanned, baseline) if r[0].rule.id not in off]
    return report(fresh, allow=not args.no_allow, ticket=args.ticket_pattern, fmt=args.format,
                  prog=prog)


@guarded("no-inserted-skips")
def main(argv: Sequence[str] | None = None) -> int:
    return run(argv, "no-inserted-skips")


if __name__ == "__main__":
    sys.exit(main())
