"""``receipt ledger add|resolve|list|check``: write and read the assumption ledger."""

from __future__ import annotations

import argparse
import os

from hooks.core import git
from hooks.core.cmdline import describe
from hooks.core.errors import USAGE_ERROR
from hooks.core.output import print_line
from hooks.core.output import warn
from hooks.core.text import printable
from hooks.core.text import printable_path
from hooks.core.times import utc_now
from hooks.ledger import lines
from hooks.ledger import store


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="ledger_command", metavar="COMMAND", required=True,
                                parser_class=type(parser))
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--ledger", metavar="PATH",
                        help=f"the ledger (default: {store.DEFAULT_LEDGER} at the repository "
                             f"root)")
    add = sub.add_parser("add", parents=[common], help="append a hypothesis; prints its id")
    describe(add, "Append a hypothesis, what you believe is wrong and the commands that test "
                  "it, and print its id.",
             "receipt ledger add \"the cache key ignores the locale\" --test \"pytest -k "
             "locale\"")
    add.add_argument("hypothesis", help="what you believe is wrong, in one sentence")
    add.add_argument("--test", action="append", required=True, metavar="CMD",
                     help="a command that would prove or refute it (repeatable)")
    add.add_argument("--author", help="who is writing it (a person or an agent)")
    add.set_defaults(ledger_func=_add)
    resolve = sub.add_parser("resolve", parents=[common],
                             help="append the outcome of testing a hypothesis")
    describe(resolve, "Append the outcome of testing a hypothesis; earlier lines are never "
                      "edited.",
             "receipt ledger resolve h-3f9a0c12 --status refuted --evidence \"pytest -k "
             "locale passed\"")
    resolve.add_argument("id", help="the hypothesis id (h-xxxxxxxx, or line-N)")
    resolve.add_argument("--status", choices=("proven", "refuted"), required=True)
    resolve.add_argument("--evidence", required=True, metavar="TEXT",
                         help="what showed it: a command and its result, a receipt, a link")
    resolve.set_defaults(ledger_func=_resolve)
    listing = sub.add_parser("list", parents=[common],
                             help="hypotheses with their latest status")
    describe(listing, "List the hypotheses with their latest status.",
             "receipt ledger list --open")
    listing.add_argument("--open", action="store_true", help="only those still unproven")
    listing.set_defaults(ledger_func=_list)
    check = sub.add_parser("check", parents=[common], help="validate the whole ledger")
    describe(check, "Validate every line of the ledger; exit 1 on a problem.",
             "receipt ledger check", annotates=True)
    check.set_defaults(ledger_func=_check)


def ledger_path(given: str | None) -> tuple[str, str]:
    """(path to open, path to show): as given, else the default at the repository root."""
    from hooks.core import config

    if given:
        return given, given
    paths = git.repo_paths()
    path = os.path.join(paths.root, config.for_repo(paths).ledger)
    return path, os.path.relpath(path)


def run(args: argparse.Namespace) -> int:
    path, shown = ledger_path(args.ledger)
    code: int = args.ledger_func(args, path, shown)
    return code


def _append_valid(entry: dict[str, object], path: str, shown: str) -> int:
    problems = lines.validation_errors(entry)
    if problems:
        warn(f"receipt ledger: not written to {shown}: {problems[0]}")
        return USAGE_ERROR  # what was asked cannot be written: a usage error, as documented
    store.append(path, [entry])
    return 0


def _add(args: argparse.Namespace, path: str, shown: str) -> int:
    entry: dict[str, object] = {"ts": utc_now(), "id": lines.new_id(),
                                "hypothesis": args.hypothesis, "tests": args.test,
                                "status": "unproven"}
    if args.author:
        entry["author"] = args.author
    code = _append_valid(entry, path, shown)
    if code == 0:
        print_line(str(entry["id"]))
    return code


def _resolve(args: argparse.Namespace, path: str, shown: str) -> int:
    parsed = lines.parse_all(store.read_as_committed(path))
    known = {hid: status for hid, _, status in lines.hypotheses_with_status(parsed)}
    if args.id not in known:
        warn(f"receipt ledger: no hypothesis {args.id} in {shown}: "
             f"'receipt ledger list' shows the ids")
        return USAGE_ERROR
    entry = {"ts": utc_now(), "resolves": args.id, "status": args.status,
             "evidence": args.evidence}
    code = _append_valid(entry, path, shown)
    if code == 0:
        print_line(f"{args.id}: {known[args.id]} -> {args.status}")
    return code


def _list(args: argparse.Namespace, path: str, shown: str) -> int:
    parsed = lines.parse_all(store.read_as_committed(path))
    lines.validate_lines(parsed)  # an invalid line is no hypothesis to list
    for hid, entry, status in lines.hypotheses_with_status(parsed):
        if args.open and status != "unproven":
            continue
        # (the text as printable: a hypothesis cannot write escape codes or a CI runner's
        # "::command::" line to the terminal)
        print_line(f"{printable(hid):<12} {status:<9} {printable(str(entry.get('ts', ''))):<20} "
                   f"{printable_path(str(entry.get('hypothesis', '')))}")
    invalid = sum(1 for line in parsed if line.problems)
    if invalid:
        warn(f"receipt ledger: warning: {invalid} line{'s' if invalid > 1 else ''} of {shown} "
             f"{'are' if invalid > 1 else 'is'} not valid and not listed: 'receipt ledger check' "
             f"says why")
    return 0


def _check(_args: argparse.Namespace, path: str, shown: str) -> int:
    if not os.path.lexists(path):
        print_line(f"{shown}: no ledger yet; 'receipt ledger add' creates it")
        return 0
    problems = store.invalid_lines(path, shown, store.memo_dir())
    if problems:
        from hooks.core.output import Finding
        from hooks.core.output import print_findings

        print_findings([Finding(text, 1, "invalid-line", path=shown, line=number)
                        for number, text in problems], fmt="text", exit_code=1)
        return 1
    count = len(lines.split_lines(store.read_as_committed(path)))
    print_line(f"{shown}: {count} lines, all valid")
    return 0
