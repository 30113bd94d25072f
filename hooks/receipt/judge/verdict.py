"""Whether a schema-valid receipt vouches for a commit, and every reason it does not.

A receipt is valid for commit C when it was taken on C's tree (``git_tree == C^{tree}``), the
run left that tree as it found it (``git_tree_after == git_tree``), the command succeeded with
tests counted, and it meets the ``Requirements`` (age, command, platform, counts, narrowing).
Keying on the tree, not the commit, accepts an amended message and refuses a run on changes
that were then left out of the commit.

``datetime`` is imported only to judge an age (--max-age): the common check reads no clock.
"""

from __future__ import annotations

import re

from hooks.core import git
from hooks.core.cmdline import quoted
from hooks.core.exits import FAILED
from hooks.core.exits import OFF_POLICY
from hooks.core.exits import STALE
from hooks.core.output import Finding
from hooks.core.times import format_age
from hooks.core.times import parse_utc
from hooks.receipt.command.narrowing import narrowing_flags
from hooks.receipt.command.narrowing import outcome_flags
from hooks.receipt.store.keyed import judged_argv
from hooks.receipt.store.layout import rerun_hint

TYPE_CHECKING = False
if TYPE_CHECKING:
    import datetime as dt
    from typing import Any

    from hooks.receipt.judge.staleness import TreeMatch


class Requirements:
    """What a receipt must also show to vouch, beyond matching the tree and passing: its age,
    command, platform, test counts, and whether a narrowed run may vouch."""

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


def evaluate(
    data: dict[str, Any],
    *,
    commit: str,
    tree_match: TreeMatch,
    shown_path: str,
    requirements: Requirements,
    now: dt.datetime | None = None,
) -> list[Finding]:
    """Every reason the (schema-valid) receipt DATA does not vouch for COMMIT."""
    label = git.short(commit)
    hint = quoted(rerun_hint(data))
    ran = quoted(str(data.get("command", "")))  # the command as a message shows it
    findings: list[Finding] = []

    def add(code: int, kind: str, message: str) -> None:
        findings.append(Finding(f"{label}: {message}", code, kind, commit=commit))

    tree = data.get("git_tree")
    if not tree_match.matches:
        findings.append(Finding(
            f"stale: {tree_match.why}; {shown_path} is for tree {git.short(str(tree))}: run "
            f"{hint}, then push again", STALE, "stale", commit=commit))
    if data.get("git_tree_after") != tree:
        add(STALE, "changed-during-run",
            f"the run changed the files it tested (tree {git.short(str(tree))} before, "
            f"{git.short(str(data.get('git_tree_after')))} after; {shown_path}): "
            f"commit what the run wrote or stop it writing tracked files, then run {hint}")
    for kind, what, fix in hidden_problems(data, tree_differs=not tree_match.matches):
        add(STALE, kind, f"{what} ({shown_path}): {fix}, then run {hint}")
    if requirements.max_age_s is not None:
        import datetime as dt  # only an age needs the clock

        finished = parse_utc(str(data.get("finished_utc")))
        age = ((now or dt.datetime.now(dt.timezone.utc)) - finished).total_seconds() \
            if finished else None
        if age is None or age > requirements.max_age_s:
            add(STALE, "too-old",
                f"{shown_path} finished at {data.get('finished_utc')}, older than --max-age "
                f"{format_age(requirements.max_age_s)}: run {hint}, then push again")

    exit_code = data.get("exit_code")
    tests = data.get("tests")
    if exit_code != 0:
        add(FAILED, "failed",
            f"the recorded run failed (exit_code {exit_code} from {ran}, "
            f"{shown_path}): fix the failures, then run {hint}")
    if tests is None and requirements.require_tests:
        add(FAILED, "not-counted",
            f"no test counts were recognised in the output of {ran} "
            f"({shown_path}) and --require-tests is set: {_how_to_count(data)}")
    if isinstance(tests, dict):
        bad_tests = int(tests.get("failed", 0)) + int(tests.get("errors", 0))
        if bad_tests:
            add(FAILED, "tests-failed",
                f"{tests.get('failed', 0)} failed and {tests.get('errors', 0)} errors counted "
                f"by {tests.get('runner')} in {shown_path}: fix them, then run {hint}")
        elif tests.get("total") == 0:
            add(FAILED, "no-tests",
                f"the run counted zero tests ({tests.get('runner')}, {shown_path}): a run that "
                f"tests nothing proves nothing; point {ran} at the tests")
        elif not tests.get("passed"):
            add(FAILED, "none-passed",
                f"no test passed ({_none_passed(tests)}) in the run of {ran} ({shown_path}): "
                f"a run that tests nothing proves nothing; make the tests run rather than "
                f"skip, then run {hint}")

    command = str(data.get("command", ""))
    if requirements.require_command and not requirements.require_command.search(command):
        add(OFF_POLICY, "command",
            f"{ran} does not match --require-command "
            f"'{requirements.require_command.pattern}' ({shown_path}): run "
            f"{quoted('receipt run -- <the required command>')}")
    platform = str(data.get("kernel", ""))
    if requirements.require_platform and not requirements.require_platform.search(platform):
        add(OFF_POLICY, "platform",
            f"the run was on '{platform}' ({data.get('hostname')}), which does not match "
            f"--require-platform '{requirements.require_platform.pattern}': run the tests on a "
            f"matching machine")
    argv = judged_argv(data)
    if not requirements.allow_narrowing and argv is not None:
        flags = narrowing_flags(argv)
        if flags:
            add(OFF_POLICY, "narrowed",
                f"{ran} runs only part of the suite ({', '.join(flags)}; {shown_path}): "
                f"run the whole suite, or pass --allow-narrowing if that is the policy")
        changed = outcome_flags(argv)
        if changed:
            add(OFF_POLICY, "outcome-changed",
                f"{ran} changes what the suite's tests return ({', '.join(changed)}; "
                f"{shown_path}): run the suite without them (or configure test-command with "
                f"them), or pass --allow-narrowing if that is the policy")
    return findings


def hidden_problems(data: dict[str, Any], *, tree_differs: bool) -> list[tuple[str, str, str]]:
    """(kind, what, fix) for the receipt's ``hidden`` paths: content no tree can record always
    refuses; content the index hid explains a tree mismatch (the tree holds the disk's)."""
    if not data.get("hidden"):
        return []
    from hooks.core import snapshot

    entries = [snapshot.Hidden(str(h.get("path")), str(h.get("why")))
               for h in data.get("hidden") or [] if isinstance(h, dict)]
    problems = []
    lost = [h for h in entries if h.why in snapshot.NOT_IN_TREE]
    if lost:
        problems.append((
            "unrecordable",
            f"the run saw changes no git tree can record: {snapshot.explain(lost)}",
            "commit or stash the changes inside it (and commit a submodule's new commit "
            "here), or remove the nested repository"))
    masked = [h for h in entries if h.why in snapshot.IN_TREE]
    if masked and tree_differs:
        problems.append((
            "hidden-by-index",
            f"the run tested files as they were on disk, which the index hides from git "
            f"status: {snapshot.explain(masked)}",
            f"clear the flag ({'; '.join(dict.fromkeys(snapshot.UNFLAG[h.why] for h in masked))})"
            f" and commit what was tested, or restore it"))
    return problems


def _none_passed(tests: dict[str, Any]) -> str:
    """What a run in which no test passed counted instead: '3 skipped' (xfailed count as
    skipped), or the total when the runner counted tests it put in no column."""
    skipped, total = tests.get("skipped", 0), tests.get("total", 0)
    if skipped == total:
        return f"{skipped} skipped"
    return f"{total} counted, {skipped} skipped" if skipped else f"{total} counted"


def _how_to_count(data: dict[str, Any]) -> str:
    """Why a run printed nothing countable, and the fix, for the runner it names."""
    from hooks.receipt.command.invocation import invocations

    argv = data.get("argv")
    kinds = {inv.kind for inv in invocations(argv)} if isinstance(argv, list) and all(
        isinstance(a, str) for a in argv) else set()
    if "pytest" in kinds:
        return ("pytest printed neither its summary line nor its progress lines "
                "(console_output_style = classic, -p no:terminal, or output sent elsewhere): "
                "let pytest print its progress or summary (plain -q or -qq do), or run "
                + quoted("receipt run --junit FILE -- pytest --junitxml=FILE ..."))
    return ("use a runner whose summary receipt reads, set summary-pattern in the config to "
            "read your own, or " + quoted("receipt run --junit FILE -- ..."))
