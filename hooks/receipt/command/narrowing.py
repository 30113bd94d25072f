"""Does a recorded command run the whole suite? Narrowing, read per runner from its own args.

The invocation parser sets the launcher and interpreter aside first (``python -m pytest`` has
no ``-m`` of pytest's), and the runner's arguments are read in every spelling its parser
accepts (``-ktest_x``, ``-qk test_x``, ``--deselect=x``, ``PYTEST_ADDOPTS='-k x'``). Path
arguments narrow when they name part of the tree: a test id (``t.py::test_x``), a file, or a
directory below the top level (``tests/unit``). ``.``, a top-level directory (``tests``) and a
glob are read as the whole suite; the repository's configured test command is the stronger
answer for those.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from hooks.receipt.command.directories import CD_COMMANDS
from hooks.receipt.command.directories import ROOT
from hooks.receipt.command.invocation import Invocation
from hooks.receipt.command.invocation import invocations
from hooks.receipt.command.runner_flags import Arg
from hooks.receipt.command.runner_flags import output_only
from hooks.receipt.command.runner_flags import read_args

# Options (and subcommands) that make a runner test less than the whole suite, by runner.
NARROWING: dict[str, frozenset[str]] = {
    "pytest": frozenset({"-k", "-m", "--lf", "--last-failed", "--deselect", "--ignore",
                         "--ignore-glob", "--sw", "--stepwise", "--sw-skip", "--stepwise-skip",
                         "--co", "--collect-only", "-c", "--config-file", "--rootdir",
                         "--confcutdir", "--splits", "--group", "--shard-id",
                         "--num-shards", "--setup-only", "--setup-plan", "--fixtures",
                         "--funcargs", "--fixtures-per-test", "--markers", "--version", "-V",
                         "-h", "--help", "--pyargs"}),
    "unittest": frozenset({"-k"}),
    "jest": frozenset({"-t", "--testNamePattern", "--testPathPattern", "--testPathPatterns",
                       "-o", "--onlyChanged", "--onlyFailures", "-f", "--findRelatedTests",
                       "--testPathIgnorePatterns", "--passWithNoTests", "--changedSince",
                       "--lastCommit", "--selectProjects", "--ignoreProjects", "--shard",
                       "--testMatch", "--testRegex", "--roots", "--listTests", "--watch",
                       "--filter", "--changedFilesWithAncestor"}),
    "vitest": frozenset({"-t", "--testNamePattern", "--changed", "--related", "related",
                         "list", "bench", "--passWithNoTests", "--project", "--shard",
                         "--exclude", "--allowOnly"}),
    "mocha": frozenset({"-g", "--grep", "-f", "--fgrep", "-i", "--invert", "--exclude",
                        "--ignore"}),
    "node": frozenset({"--test-name-pattern", "--test-skip-pattern", "--test-only",
                       "--test-shard"}),
    "bun": frozenset({"-t", "--test-name-pattern", "--only"}),
    "go": frozenset({"-run", "-skip", "-short", "-list", "-C", "-c", "-n"}),
    "cargo": frozenset({"--skip", "--exact", "--ignored", "--list", "-p", "--package",
                        "--exclude", "--test", "--lib", "--bin", "--bins", "--doc", "--example",
                        "--examples", "--bench", "--benches", "--manifest-path",
                        "--partition", "--no-run", "--exclude-should-panic"}),
}
# Options that narrow unless their value is listed: pytest's ``-o KEY=VALUE`` can set
# ``testpaths``, ``python_files`` or ``addopts``; only keys that change the report are kept.
NARROWING_UNLESS: dict[str, dict[str, frozenset[str]]] = {
    "pytest": dict.fromkeys(("-o", "--override-ini"), frozenset({
        "console_output_style", "log_cli", "log_cli_level", "log_cli_format",
        "log_cli_date_format", "log_file", "log_file_level", "log_file_format",
        "log_file_date_format", "junit_family", "junit_suite_name", "junit_logging",
        "junit_log_passing_tests", "junit_duration_report", "cache_dir", "verbosity_assertions",
        "verbosity_test_cases", "tmp_path_retention_count", "tmp_path_retention_policy",
        "faulthandler_timeout"})),
}
# Options that run the selected tests but can change what they return: warnings filters,
# plugins loaded or unloaded, xfail and collection-error handling, order and isolation,
# timeouts, retries, snapshot updates, another config or environment, build settings. A run
# with one passes the push only under --allow-narrowing, or when the configured command has it.
OUTCOME: dict[str, frozenset[str]] = {
    "pytest": frozenset({
        "-W", "--pythonwarnings", "-p", "--runxfail", "--continue-on-collection-errors",
        "--ff", "--failed-first", "--nf", "--new-first", "--lfnf", "--last-failed-no-failures",
        "--import-mode", "--noconftest", "--assert", "--reruns", "--reruns-delay",
        "--only-rerun", "--count", "--timeout", "--timeout-method", "--randomly-seed",
        "--random-order", "--random-order-bucket", "--random-order-seed", "--cov-fail-under",
        "--pdb", "--trace", "--doctest-continue-on-failure"}),
    "unittest": frozenset(),
    "jest": frozenset({
        "-u", "--updateSnapshot", "--ci", "--testFailureExitCode", "--setupFiles",
        "--setupFilesAfterEnv", "--testEnvironment", "--env", "--globalSetup",
        "--globalTeardown", "--preset", "--testRunner", "--runner", "--testSequencer",
        "--randomize", "--seed", "--testTimeout", "--maxConcurrency", "--moduleNameMapper",
        "--transform", "--resolver", "--clearMocks", "--resetMocks", "--restoreMocks",
        "--resetModules", "--injectGlobals", "--coverageThreshold", "-c", "--config",
        "--projects", "--rootDir"}),
    "vitest": frozenset({
        "-u", "--update", "--retry", "--pool", "--no-isolate", "--isolate", "--sequence.shuffle",
        "--sequence.seed", "--sequence.concurrent", "--testTimeout", "--hookTimeout",
        "--teardownTimeout", "--dangerouslyIgnoreUnhandledErrors", "--globals",
        "--environment", "--dom", "-c", "--config", "-r", "--root", "--dir", "--mode",
        "--maxConcurrency"}),
    "mocha": frozenset({
        "--retries", "-t", "--timeout", "--timeouts", "--no-timeouts", "--allow-uncaught",
        "-r", "--require", "--file", "-u", "--ui", "--parallel", "--sort", "--delay",
        "--config", "--package"}),
    "node": frozenset({"--test-timeout", "--test-force-exit", "--test-update-snapshots", "-r",
                       "--require", "--import", "--loader", "--experimental-loader", "-C",
                       "--conditions"}),
    "bun": frozenset({"--timeout", "--preload", "-u", "--update-snapshots", "--conditions"}),
    "go": frozenset({"-timeout", "-shuffle", "-race", "-vet", "-tags", "-exec", "-overlay",
                     "-toolexec", "-ldflags", "-gcflags", "-asmflags", "-cpu", "-mod",
                     "-modfile", "-asan", "-msan", "-pgo"}),
    "cargo": frozenset({"-F", "--features", "--all-features", "--no-default-features",
                        "-r", "--release", "--profile", "--target", "--config", "-Z",
                        "--shuffle", "--shuffle-seed", "--force-run-in-process"}),
}
# A package script runs one of the JavaScript runners; which one, the command does not say.
NARROWING["script"] = (NARROWING["jest"] | NARROWING["vitest"] | NARROWING["mocha"]
                       | NARROWING["node"] | NARROWING["bun"])
OUTCOME["script"] = (OUTCOME["jest"] | OUTCOME["vitest"] | OUTCOME["mocha"] | OUTCOME["node"]
                     | OUTCOME["bun"])

# How a runner reads a positional argument: "paths" (files and directories), "modules"
# (unittest: any module name selects, except under discover), "packages" (go: ./... is all),
# "filters" (cargo: every positional is a test-name filter).
POSITIONALS: dict[str, str] = {
    "pytest": "paths", "jest": "paths", "vitest": "paths", "mocha": "paths", "node": "paths",
    "bun": "paths", "script": "paths", "unittest": "modules", "go": "packages",
    "cargo": "filters",
}
WHOLE_GO_PACKAGES = frozenset({".", "./...", "...", "all"})


def partial_path(value: str) -> bool:
    """A path argument that names part of the tree: a test id, a file, or a directory below
    the top level, or a path outside the root (``../other``). ``.``, a top-level directory and
    a glob are read as the whole suite."""
    if "::" in value:
        return True
    path = os.path.normpath(value)
    if path == os.pardir or path.startswith(os.pardir + os.sep):
        return True  # outside the repository: another tree's tests
    if path in (".", "") or any(c in path for c in "*?["):
        return False
    name = os.path.basename(path)
    return "." in name.lstrip(".") or "/" in path


def _positional_narrows(rule: str, arg: Arg, discover: bool) -> bool:
    value = arg.value or ""
    if rule == "filters":
        return True
    if rule == "packages":
        return value not in WHOLE_GO_PACKAGES
    if rule == "modules" and not discover:
        return True
    return partial_path(value)


def narrowing_of(inv: Invocation) -> list[str]:
    """What in INV's own arguments runs less than the whole suite, as the user wrote it."""
    moved = inv.chdir != ROOT and inv.runner not in CD_COMMANDS  # where a cd runs: no matter
    found = [f"runs in {inv.chdir}"] if moved else []
    if inv.optimize:
        found.append(f"{optimized(inv)} strips asserts")
    flags = NARROWING.get(inv.kind)
    rule = POSITIONALS.get(inv.kind)
    if flags is None or rule is None:
        return found
    unless = NARROWING_UNLESS.get(inv.kind, {})
    args = read_args(inv)
    discover = any(a.option == "discover" for a in args)
    for arg in args:
        if output_only(arg, inv.kind):  # --watch=false is not --watch
            continue
        if arg.option in unless:
            narrows = (arg.value or "").partition("=")[0].strip() not in unless[arg.option]
        elif arg.option is not None:
            narrows = arg.option in flags
        else:
            narrows = _positional_narrows(rule, arg, discover)
        if narrows and arg.shown() not in found:
            found.append(arg.shown())
    return found


def outcome_of(inv: Invocation) -> list[str]:
    """What in INV's own arguments can change what its tests return, as the user wrote it."""
    flags = OUTCOME.get(inv.kind, frozenset())
    found: list[str] = []
    for arg in read_args(inv):
        if arg.option in flags and not output_only(arg, inv.kind):  # --ci=false, not --ci
            joint = "=" if len(arg.option or "") > 2 else " "  # -W ignore, --ci=false
            shown = arg.shown() if arg.value is None or arg.source else \
                f"{arg.option}{joint}{arg.value}"
            if shown not in found:
                found.append(shown)
    return found


def outcome_flags(argv: Sequence[str]) -> list[str]:
    """What in ARGV can change what its tests return, e.g. ['-W ignore'] for
    'pytest -W ignore'."""
    found: list[str] = []
    for inv in invocations(argv):
        found += [flag for flag in outcome_of(inv) if flag not in found]
    return found


def optimized(inv: Invocation) -> str:
    """How INV came to run under Python's optimisation: ``python -O``, ``PYTHONOPTIMIZE=1``."""
    level = inv.python_options.count("O")
    if level >= inv.optimize:
        return "python -" + "O" * level
    return f"PYTHONOPTIMIZE={dict(inv.env).get('PYTHONOPTIMIZE', '')}"


def narrowing_flags(argv: Sequence[str]) -> list[str]:
    """What narrows ARGV's runs, e.g. ['-k'] for 'python -m pytest -qk slow'."""
    found: list[str] = []
    for inv in invocations(argv):
        found += [flag for flag in narrowing_of(inv) if flag not in found]
    return found
