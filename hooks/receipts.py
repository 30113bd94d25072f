"""Receipts: where they live, how they are read, and whether one is valid for a commit.

A receipt is valid for commit C when it was taken on C's tree (``git_tree == C^{tree}``), the
run left that tree as it found it (``git_tree_after == git_tree``), the command succeeded with
tests counted, and it meets the caller's policy. Keying on the tree, not the commit, accepts an
amended message and refuses a run on changes that were then left out of the commit.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shlex
from collections.abc import Sequence

from hooks import git_repo
from hooks import schemas
from hooks.fileio import UnreadableFile
from hooks.fileio import read_bounded
from hooks.output import Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SCHEMA_ID = "receipt-hooks/receipt/v1"
DEFAULT_RECEIPT = "artifacts/test-receipt.json"
DEFAULT_LOG = "artifacts/test-output.log"
MAX_RECEIPT_BYTES = 1 << 20

# Exit codes, DESIGN.md "Exit codes"; when several apply the first in CHECK_ORDER wins.
MISSING, STALE, FAILED, INVALID, OFF_POLICY = 2, 3, 4, 5, 6
CHECK_ORDER = (MISSING, INVALID, STALE, FAILED, OFF_POLICY)

# Flags that make a runner test less than the whole suite, by the runner that reads them.
# A flag ending in "=" also matches its "--flag=value" spelling.
NARROWING_FLAGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("pytest", ("-k", "--lf", "--last-failed", "--deselect", "--ignore", "--ignore-glob",
                "--sw", "--stepwise", "--co", "--collect-only", "-m")),
    ("jest", ("-t", "--testNamePattern", "-o", "--onlyChanged", "--onlyFailures",
              "--findRelatedTests", "--testPathIgnorePatterns", "--passWithNoTests")),
    ("vitest", ("-t", "--testNamePattern", "--changed", "--related", "--passWithNoTests")),
    ("mocha", ("-g", "--grep", "-f", "--fgrep", "--invert")),
    ("go", ("-run", "--run", "-skip", "--skip", "-short")),
    ("cargo", ("--skip", "--exact", "--ignored")),
)

_UTC_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def utc_now() -> str:
    return dt.datetime.now(dt.timezone.utc).strftime(_UTC_FORMAT)


def parse_utc(text: str) -> dt.datetime | None:
    try:
        seconds = text.split(".", maxsplit=1)[0].rstrip("Z") + "Z"
        return dt.datetime.strptime(seconds, _UTC_FORMAT).replace(tzinfo=dt.timezone.utc)
    except (ValueError, AttributeError):
        return None


def resolve_paths(root: str, receipt: str | None, log: str | None) -> tuple[str, str]:
    """Absolute receipt and log paths: defaults sit at the repo root, given ones are as typed."""
    receipt_path = os.path.abspath(receipt) if receipt else os.path.join(root, DEFAULT_RECEIPT)
    log_path = os.path.abspath(log) if log else os.path.join(root, DEFAULT_LOG)
    return receipt_path, log_path


def repo_relative(root: str, path: str) -> str:
    rel = os.path.relpath(path, root)
    return path if rel.startswith("..") else rel.replace(os.sep, "/")


def memo_dir(paths: git_repo.RepoPaths) -> str:
    return os.path.join(paths.common_dir, "receipt-hooks", "valid")


def rerun_hint(receipt: dict[str, Any] | None) -> str:
    """The command that makes a fresh receipt, reusing what the last one ran when known."""
    if receipt and isinstance(receipt.get("argv"), list) and receipt["argv"]:
        argv = [str(a) for a in receipt["argv"]]
        if argv[:2] == ["/bin/sh", "-c"] and len(argv) == 3:
            return f"receipt run {shlex.quote(argv[2])}"
        return "receipt run -- " + shlex.join(argv)
    return "receipt run -- <your test command>"


class LoadedReceipt:
    """The parsed receipt (None when unreadable) and what is wrong with it as a document."""

    __slots__ = ("data", "findings")

    def __init__(self, data: dict[str, Any] | None = None,
                 findings: list[Finding] | None = None) -> None:
        self.data = data
        self.findings = findings or []


def load(path: str, shown_path: str, memo: str | None) -> LoadedReceipt:
    """Read and schema-check the receipt at PATH; problems become findings, never exceptions.

    Messages do not name a commit: the caller prefixes the commit they were checked for.
    """

    def bad(message: str, code: int = INVALID, kind: str = "invalid") -> LoadedReceipt:
        hint = rerun_hint(None)
        return LoadedReceipt(findings=[Finding(
            f"{message}: run '{hint}', then push again", code, kind)])

    try:
        raw = read_bounded(path, MAX_RECEIPT_BYTES)
    except FileNotFoundError:
        return bad(f"no receipt at {shown_path}", MISSING, "missing")
    except UnreadableFile as e:
        return bad(f"{shown_path} is not a receipt: it {e}")
    try:
        data = json.loads(raw)
    except RecursionError:
        return bad(f"{shown_path} is not a receipt: JSON nested too deeply")
    except (UnicodeDecodeError, ValueError) as e:
        reason = str(e).splitlines()[0][:120]
        return bad(f"{shown_path} is not a receipt: not JSON ({reason})")
    if not isinstance(data, dict):
        return bad(f"{shown_path} is not a receipt: a JSON {type(data).__name__}, not an object")
    errors = schemas.validate_remembered(schemas.RECEIPT, raw, data, memo)
    if errors:
        hint = rerun_hint(data)
        return LoadedReceipt(data=data, findings=[
            Finding(f"{shown_path} is not a valid receipt: {err}: run '{hint}'",
                    INVALID, "invalid")
            for err in errors
        ])
    return LoadedReceipt(data=data)


class Policy:
    """What a receipt must also satisfy, beyond matching the tree and passing."""

    __slots__ = ("allow_narrowing", "max_age_s", "require_command", "require_platform",
                 "require_tests")

    def __init__(self, *, max_age_s: float | None = None,
                 require_command: re.Pattern[str] | None = None,
                 require_platform: re.Pattern[str] | None = None,
                 allow_narrowing: bool = False, require_tests: bool = False) -> None:
        self.max_age_s = max_age_s
        self.require_command = require_command
        self.require_platform = require_platform
        self.allow_narrowing = allow_narrowing
        self.require_tests = require_tests


def _runners_invoked(words: Sequence[str]) -> set[str]:
    names = [os.path.basename(w) for w in words]
    invoked = set()
    for i, name in enumerate(names):
        if name in ("pytest", "py.test"):
            invoked.add("pytest")
        elif name in ("jest", "vitest", "mocha") or (
                name in ("go", "cargo") and names[i + 1:i + 2] == ["test"]):
            invoked.add(name)
    return invoked


def narrowing_flags(argv: Sequence[str]) -> list[str]:
    """Narrowing flags in ARGV for the runners it invokes, e.g. ['-k'] for 'pytest -k slow'."""
    words = list(argv)
    if len(words) == 3 and words[:2] == ["/bin/sh", "-c"]:
        try:
            words = shlex.split(words[2])
        except ValueError:
            words = words[2].split()
    invoked = _runners_invoked(words)
    found: list[str] = []
    for runner, flags in NARROWING_FLAGS:
        if runner not in invoked:
            continue
        for word in words:
            name = word.split("=", 1)[0]
            if name in flags and name not in found:
                found.append(name)
    return found


def evaluate(
    data: dict[str, Any],
    *,
    commit: str,
    commit_tree: str,
    shown_path: str,
    policy: Policy,
    now: dt.datetime | None = None,
) -> list[Finding]:
    """Every reason the (schema-valid) receipt DATA does not vouch for COMMIT."""
    label = git_repo.short(commit)
    hint = rerun_hint(data)
    findings: list[Finding] = []

    def add(code: int, kind: str, message: str) -> None:
        findings.append(Finding(f"{label}: {message}", code, kind, commit=commit))

    tree = data.get("git_tree")
    if tree != commit_tree:
        add(STALE, "stale",
            f"no receipt for tree {git_repo.short(commit_tree)} ({shown_path} is for tree "
            f"{git_repo.short(str(tree))}): run '{hint}', then push again")
    if data.get("git_tree_after") != tree:
        add(STALE, "changed-during-run",
            f"the run changed the files it tested (tree {git_repo.short(str(tree))} before, "
            f"{git_repo.short(str(data.get('git_tree_after')))} after; {shown_path}): "
            f"commit what the run wrote or stop it writing tracked files, then run '{hint}'")
    if policy.max_age_s is not None:
        finished = parse_utc(str(data.get("finished_utc")))
        age = ((now or dt.datetime.now(dt.timezone.utc)) - finished).total_seconds() \
            if finished else None
        if age is None or age > policy.max_age_s:
            add(STALE, "too-old",
                f"{shown_path} finished at {data.get('finished_utc')}, older than --max-age "
                f"{format_age(policy.max_age_s)}: run '{hint}', then push again")

    exit_code = data.get("exit_code")
    tests = data.get("tests")
    if exit_code != 0:
        add(FAILED, "failed",
            f"the recorded run failed (exit_code {exit_code} from '{data.get('command')}', "
            f"{shown_path}): fix the failures, then run '{hint}'")
    if tests is None and policy.require_tests:
        add(FAILED, "not-counted",
            f"no test counts were recognised in the output of '{data.get('command')}' "
            f"({shown_path}) and --require-tests is set: use a runner whose summary receipt "
            f"reads, or 'receipt run --junit FILE -- ...'")
    if isinstance(tests, dict):
        bad_tests = int(tests.get("failed", 0)) + int(tests.get("errors", 0))
        if bad_tests:
            add(FAILED, "tests-failed",
                f"{tests.get('failed', 0)} failed and {tests.get('errors', 0)} errors counted "
                f"by {tests.get('runner')} in {shown_path}: fix them, then run '{hint}'")
        elif tests.get("total") == 0:
            add(FAILED, "no-tests",
                f"the run counted zero tests ({tests.get('runner')}, {shown_path}): a run that "
                f"tests nothing proves nothing; point '{data.get('command')}' at the tests")

    command = str(data.get("command", ""))
    if policy.require_command and not policy.require_command.search(command):
        add(OFF_POLICY, "command",
            f"'{command}' does not match --require-command "
            f"'{policy.require_command.pattern}' ({shown_path}): run 'receipt run -- <the "
            f"required command>'")
    platform = str(data.get("kernel", ""))
    if policy.require_platform and not policy.require_platform.search(platform):
        add(OFF_POLICY, "platform",
            f"the run was on '{platform}' ({data.get('hostname')}), which does not match "
            f"--require-platform '{policy.require_platform.pattern}': run the tests on a "
            f"matching machine")
    argv = data.get("argv")
    if not policy.allow_narrowing and isinstance(argv, list):
        flags = narrowing_flags([str(a) for a in argv])
        if flags:
            add(OFF_POLICY, "narrowed",
                f"'{command}' runs only part of the suite ({', '.join(flags)}; {shown_path}): "
                f"run the whole suite, or pass --allow-narrowing if that is the policy")
    return findings


def format_age(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size and seconds % size == 0:
            return f"{int(seconds // size)}{unit}"
    return f"{seconds:g}s"


def parse_age(text: str) -> float:
    """'90', '90s', '15m', '24h', '7d' -> seconds; ValueError otherwise."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*", text)
    if not m:
        raise ValueError(f"not a duration: {text!r} (use e.g. 90s, 15m, 24h, 7d)")
    return float(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]
