"""Every exit code of every command and hook, as data: the one table.

``--help`` epilogs, the README's table and docs/exit-codes.md are rendered from ``TABLE``, and a
test keeps the written copies equal to it. Findings are 1 (the hooks, ``receipt skips``,
``ledger check``, ``claims``, ``doctor``); the receipt check's verdicts are 2-6; the fuse's are 42
and 43; a mistake in how a command was called or configured is 64 or 78 (sysexits' EX_USAGE and
EX_CONFIG), so CI can tell a broken setup from a finding; a machine that cannot write what the
command must write (a full disk, a read-only or forbidden file) is 74 (EX_IOERR).
"""

from __future__ import annotations

OK = 0
FINDINGS = 1
MISSING, STALE, FAILED, INVALID, OFF_POLICY = 2, 3, 4, 5, 6
FUSE_BLOWN = 42
ENV_CONTRACT = 43
USAGE = 64
INTERNAL = 70
IO = 74
CONFIG = 78
INTERRUPTED = 130

# When several of the check's verdicts apply, the exit code is the first in this order.
CHECK_ORDER = (MISSING, INVALID, STALE, FAILED, OFF_POLICY)

# The commands' groups, in the table's column order: (key, who, what the group is).
GROUPS = (
    ("check", "`check-receipt`, `receipt check`, `verify`, `show`", "the receipt check"),
    ("findings", "`no-inserted-skips`, `require-ledger-hypothesis`, `receipt skips`, "
                 "`ledger check`, `claims`, `doctor`", "commands that report findings"),
    ("fuse", "`receipt fuse`", "the circuit breaker"),
)

# (code, short name, {group: meaning}); a group missing from a row does not use that code.
TABLE: tuple[tuple[int, str, dict[str, str]], ...] = (
    (OK, "ok", {"check": "every checked commit has a valid receipt",
                "findings": "no findings",
                "fuse": "a step went green"}),
    (FINDINGS, "findings", {"findings": "findings, each printed"}),
    (MISSING, "missing", {"check": "receipt missing"}),
    (STALE, "stale", {"check": "stale: the tree differs, the run changed the tree, or older "
                               "than --max-age"}),
    (FAILED, "failed", {"check": "the run failed: non-zero exit, failed tests, zero tests "
                                 "counted, no test passed"}),
    (INVALID, "not a receipt", {"check": "not a receipt: unreadable, not JSON, over 1 MiB, "
                                         "schema errors"}),
    (OFF_POLICY, "off policy", {"check": "off policy: the wrong trial, a narrowed run or one "
                                         "whose flags change outcomes, --require-command, "
                                         "--require-platform, signer, shards that do not "
                                         "compose"}),
    (FUSE_BLOWN, "fuse blown", {"fuse": "fuse blown: the same failure again, oscillation, no "
                                        "progress, max steps, budget"}),
    (ENV_CONTRACT, "environment", {"fuse": "the environment contract failed before any step"}),
    (USAGE, "usage error", {group: "usage error: bad options or arguments, not a git "
                                   "repository, a revision or file that does not exist"
                            for group, _, _ in GROUPS}),
    (INTERNAL, "internal error", {group: "internal error: a bug in receipt-hooks (one line "
                                         "names the file with the traceback)"
                                  for group, _, _ in GROUPS}),
    (IO, "i/o error", {group: "i/o error: the disk is full, or a file the command must write or "
                              "read is read-only or forbidden (one line names it)"
                       for group, _, _ in GROUPS}),
    (CONFIG, "config error", {group: "config error: the repository's config is unreadable "
                                     "or invalid"
                              for group, _, _ in GROUPS}),
    (INTERRUPTED, "interrupted", {group: "interrupted (Ctrl-C)" for group, _, _ in GROUPS}),
)


def help_line(group: str) -> str:
    """The exit codes of GROUP in one sentence, for a command's --help epilog."""
    parts = [f"{code} {meanings[group].split(':')[0]}"
             for code, _, meanings in TABLE if group in meanings]
    text = "exit codes: " + ", ".join(parts) + "."
    if group == "check":
        order = ", ".join(str(code) for code in CHECK_ORDER)
        text += f" Several problems give the first of {order}."
    return text


def markdown_table() -> str:
    """The table as the README and docs/exit-codes.md show it: a row per code and meaning."""
    lines = ["| code | meaning | commands |", "|---|---|---|"]
    for code, _, meanings in TABLE:
        by_text: dict[str, list[str]] = {}
        for group, who, _ in GROUPS:
            if group in meanings:
                by_text.setdefault(meanings[group], []).append(who)
        for text, whos in by_text.items():
            shown = "every command" if len(whos) == len(GROUPS) else ", ".join(whos)
            lines.append(f"| {code} | {text} | {shown} |")
    return "\n".join(lines) + "\n"
