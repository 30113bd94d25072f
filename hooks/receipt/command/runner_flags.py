"""A runner's own arguments read as its parser reads them, and a command made comparable.

Every spelling of one option becomes one ``Arg``: ``-ktest_x``, ``-k test_x``, ``-qk test_x``
(``-q`` and ``-k``), ``--deselect=x`` and ``--deselect x``; a variable set on the command line
that the runner reads as more arguments (``PYTEST_ADDOPTS``, ``NODE_OPTIONS``, ``GOFLAGS``)
is read too. ``normalised`` drops what only changes the output (``-q``, ``-v``, ``--color``,
``-rA``, ``--junitxml=``), so ``python -m pytest -q`` and ``.venv/bin/pytest`` compare equal.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from hooks.receipt.command.invocation import Invocation
from hooks.receipt.command.invocation import invocations


class Syntax:
    """How one runner reads its arguments (a plain class: see programs.Launcher)."""

    __slots__ = ("camel_case", "commands", "dashdash_positional", "env_args", "long_values",
                 "next_word_suffixes", "short_values", "single_dash_long")

    def __init__(
        self, *,
        short_values: str = "",  # short options taking a value, attached or the next word
        long_values: frozenset[str] = frozenset(),  # long options whose value may be next
        single_dash_long: bool = False,  # go: -run X, -run=X, --run X; no letter clusters
        camel_case: bool = False,  # jest, vitest: --test-name-pattern is --testNamePattern
        commands: frozenset[str] = frozenset(),  # a first word that is a subcommand
        env_args: tuple[str, ...] = (),  # variables whose value the runner reads as arguments
        dashdash_positional: bool = False,  # after "--" only positionals (cargo: the binary's)
        # a plugin's output option whose next word is its value only when it ends so: a
        # conftest may register the same name as a flag, and the word is then a test path
        next_word_suffixes: dict[str, tuple[str, ...]] | None = None,
    ) -> None:
        self.short_values = short_values
        self.long_values = long_values
        self.single_dash_long = single_dash_long
        self.camel_case = camel_case
        self.commands = commands
        self.env_args = env_args
        self.dashdash_positional = dashdash_positional
        self.next_word_suffixes = next_word_suffixes or {}


def _set(text: str) -> frozenset[str]:
    return frozenset(text.split())


_JS_LONG = _set(
    "--testNamePattern --testPathPattern --testPathIgnorePatterns --config --maxWorkers "
    "--reporters --reporter --outputFile --selectProjects --ignoreProjects --shard "
    "--testTimeout --rootDir --roots --testMatch --testRegex --changedSince --seed "
    "--coverageReporters --coverageDirectory --project --root --dir --pool --environment "
    "--exclude --grep --fgrep --require --timeout --slow --jobs --ui --spec --ignore --file "
    "--extension --reporter-option --reporter-options --preload --rerun-each "
    "--testFailureExitCode --setupFiles --setupFilesAfterEnv --testEnvironment --env "
    "--globalSetup --globalTeardown --preset --testRunner --runner --testSequencer --filter "
    "--maxConcurrency --moduleNameMapper --transform --resolver --coverageThreshold --retry "
    "--retries --hookTimeout --teardownTimeout --mode --sequence.seed --projects --ui")
SYNTAX: dict[str, Syntax] = {
    "pytest": Syntax(
        short_values="kmpcoWrn", dashdash_positional=True, env_args=("PYTEST_ADDOPTS",),
        long_values=_set(
            "--deselect --ignore --ignore-glob --junitxml --junit-xml --junit-prefix --basetemp "
            "--rootdir --confcutdir --tb --maxfail --durations --durations-min --color "
            "--code-highlight --capture --import-mode --log-level --log-format --log-file "
            "--log-file-level --log-cli-level --override-ini --cov-report --cov-config "
            "--cov-fail-under --html --report-log --json-report-file --timeout --dist "
            "--numprocesses --maxprocesses --randomly-seed --lfnf --last-failed-no-failures "
            "--verbosity --pythonwarnings --assert --reruns --reruns-delay --only-rerun --count "
            "--timeout-method --random-order-bucket --random-order-seed"),
        next_word_suffixes={"--html": (".html", ".htm"),
                            "--report-log": (".json", ".jsonl", ".log", ".txt"),
                            "--json-report-file": (".json",)}),
    "unittest": Syntax(short_values="kspt", long_values=_set("--durations"),
                       commands=_set("discover")),
    "jest": Syntax(short_values="tcw", long_values=_JS_LONG, camel_case=True),
    "vitest": Syntax(short_values="tcr", long_values=_JS_LONG, camel_case=True,
                     commands=_set("run watch dev related list bench")),
    "mocha": Syntax(short_values="gfROrtsju", long_values=_JS_LONG),
    "script": Syntax(short_values="tgf", long_values=_JS_LONG, camel_case=True),
    "node": Syntax(short_values="rC", env_args=("NODE_OPTIONS",), long_values=_set(
        "--require --import --loader --experimental-loader --conditions --test-reporter "
        "--test-reporter-destination --test-name-pattern --test-skip-pattern "
        "--test-concurrency --test-timeout --test-shard")),
    "bun": Syntax(short_values="t", long_values=_set(
        "--test-name-pattern --timeout --reporter --reporter-outfile --preload --rerun-each "
        "--coverage-reporter")),
    "go": Syntax(single_dash_long=True, env_args=("GOFLAGS",), long_values=_set(
        "-run -skip -count -timeout -tags -p -cpu -coverprofile -covermode -coverpkg -bench "
        "-benchtime -list -o -exec -parallel -shuffle -vet -ldflags -gcflags -mod -C -fuzz "
        "-fuzztime -overlay -toolexec -asmflags -modfile -pgo")),
    "cargo": Syntax(short_values="pjF", long_values=_set(
        "--package --exclude --test --bin --example --bench --features --target --target-dir "
        "--manifest-path --jobs --profile --color --message-format --skip --test-threads "
        "--format --config --shuffle-seed")),
}
DEFAULT_SYNTAX = Syntax()

# Variables a runner reads as one option per comma-separated value: (runner, option).
ENV_AS_OPTION: dict[str, tuple[str, str]] = {"PYTEST_PLUGINS": ("pytest", "-p")}
# Variables the interpreter under a runner reads that change what the tests check (see
# Invocation.optimize).
INTERPRETER_VARIABLES = ("PYTHONOPTIMIZE",)
# Every variable that adds to what a runner selects or checks: ``receipt run`` records those
# set in its environment, and the check reads them as part of the command.
RUNNER_VARIABLES = tuple(sorted({name for s in SYNTAX.values() for name in s.env_args}
                                | set(ENV_AS_OPTION) | set(INTERPRETER_VARIABLES)))

# What only changes how the results are shown or written down, by runner; dropped when two
# commands are compared. A flag is here only if it cannot change which tests run or what they
# return, or can only make a run stricter (a run that passed with it passes without it: -x,
# --strict-markers, jest --ci but not --ci=false). Order, isolation, warnings filters, plugins,
# timeouts, retries, snapshots and build settings change outcomes: narrowing.OUTCOME. An entry
# "-p=no:cacheprovider" is one option with one value.
OUTPUT_ONLY: dict[str, frozenset[str]] = {
    "pytest": _set(
        "-q --quiet -v --verbose --verbosity -r -l --showlocals --tb --color --code-highlight "
        "--junitxml --junit-xml --junit-prefix --durations --durations-min --no-header "
        "--no-summary --disable-warnings --disable-pytest-warnings -s --capture --full-trace "
        "--html --self-contained-html --report-log --json-report --json-report-file "
        # stop-on-failure and strictness: a run that passed ran every selected test
        "-x --exitfirst --maxfail --strict-markers --strict-config "
        "--basetemp --setup-show --debug --trace-config "
        # plugins whose absence only removes output or a fixture (a test using it errors)
        "-p=no:cacheprovider -p=no:faulthandler -p=no:pastebin -p=no:junitxml -p=no:sugar "
        # a plugin pytest loads by default, named again: it is loaded already
        "-p=cacheprovider -p=faulthandler -p=pastebin -p=junitxml -p=logging -p=warnings "
        # ini values that only change the output (any value: the entry ends with '=')
        "-o=console_output_style= --override-ini=console_output_style= -o=junit_family= "
        "--override-ini=junit_family= -o=cache_dir= --override-ini=cache_dir="),
    "unittest": _set("-v --verbose -q --quiet -b --buffer --locals -c --catch --durations "
                      "discover -f --failfast"),
    "jest": _set("--silent --verbose --colors --no-colors --ci=true --json --outputFile "
                  "--reporters --useStderr --noStackTrace --expand --logHeapUsage "
                  # how many workers; jest isolates every test file whichever it uses
                  "-i --runInBand --bail --detectOpenHandles --forceExit --no-cache "
                  "--cache=false -w --maxWorkers --watchAll=false --watch=false"),
    "vitest": _set("run --run --reporter --outputFile --silent --color --no-color "
                    "--hideSkippedTests --bail --no-file-parallelism --maxWorkers --minWorkers "
                    "--watch=false"),
    "mocha": _set("-R --reporter -O --reporter-option --reporter-options -c --color --colors "
                   "--no-color --no-colors --diff --full-trace --inline-diffs -b --bail --exit "
                   "--no-exit -j --jobs"),
    "node": _set("--test-reporter --test-reporter-destination"),
    "bun": _set("--reporter --reporter-outfile"),
    # -count=1 only bypasses the test cache; -failfast stops only on a failure
    "go": _set("-v -json -count=1 -failfast -p -parallel -shuffle=off -x"),
    "cargo": _set("-q --quiet -v --verbose --color --message-format --nocapture --no-capture "
                   "--show-output --format -j --jobs --no-fail-fast --target-dir"),
}
OUTPUT_ONLY["script"] = OUTPUT_ONLY["jest"] | OUTPUT_ONLY["vitest"] | OUTPUT_ONLY["mocha"]


class Arg:
    """One argument as the runner reads it: an option (with its value, if it takes one) or a
    positional (``option`` None). ``source`` names the variable it came from, if any."""

    __slots__ = ("option", "source", "value")

    def __init__(self, option: str | None, value: str | None = None, source: str = "") -> None:
        self.option = option
        self.value = value
        self.source = source

    def shown(self) -> str:
        text = self.option or self.value or ""
        return f"{text} (in {self.source})" if self.source else text


def _camel(name: str) -> str:
    if name.startswith("--no-") or "-" not in name[2:]:
        return name
    head, *rest = name[2:].split("-")
    return "--" + head + "".join(part.capitalize() for part in rest)


def _read(words: Sequence[str], syntax: Syntax, source: str = "") -> list[Arg]:
    found: list[Arg] = []
    i = 0
    positional_only = False
    while i < len(words):
        word = words[i]
        i += 1
        if positional_only or not word.startswith("-") or word == "-":
            if not found and word in syntax.commands:
                found.append(Arg(word, None, source))
            else:
                found.append(Arg(None, word, source))
            continue
        if word == "--":
            found.append(Arg("--", None, source))  # cargo: the test binary's options follow
            positional_only = syntax.dashdash_positional
            continue
        if word.startswith("--") or syntax.single_dash_long:
            name, eq, value = word.partition("=")
            if syntax.single_dash_long:
                name = "-" + name.lstrip("-").removeprefix("test.")  # go: -test.run is -run
            elif syntax.camel_case:
                name = _camel(name)
            if not eq and name in syntax.long_values and i < len(words) \
                    and words[i].lower().endswith(syntax.next_word_suffixes.get(name, "")):
                value, eq = words[i], "="
                i += 1
            found.append(Arg(name, value if eq else None, source))
            continue
        for j, letter in enumerate(word[1:], 1):  # a cluster of short options: -qk EXPR
            if letter in syntax.short_values:
                value = word[j + 1:]
                if not value and i < len(words):
                    value = words[i]
                    i += 1
                found.append(Arg("-" + letter, value, source))
                break
            found.append(Arg("-" + letter, None, source))
    return found


def _split(value: str) -> list[str]:
    try:
        return shlex.split(value)
    except ValueError:
        return value.split()


def read_args(inv: Invocation) -> list[Arg]:
    """INV's arguments as its runner reads them, those from its variables first."""
    syntax = SYNTAX.get(inv.kind, DEFAULT_SYNTAX)
    found: list[Arg] = []
    for name, value in inv.env:
        if name in syntax.env_args:
            found += _read(_split(value), syntax, source=name)
        elif ENV_AS_OPTION.get(name, ("", ""))[0] == inv.kind:
            option = ENV_AS_OPTION[name][1]
            found += [Arg(option, v.strip(), name) for v in value.split(",") if v.strip()]
    return found + _read(inv.args, syntax)


def output_only(arg: Arg, kind: str) -> bool:
    """ARG only changes how runner KIND shows or writes down its results (see OUTPUT_ONLY)."""
    return _output_only(arg, OUTPUT_ONLY.get(kind, frozenset()))


def _output_only(arg: Arg, dropped: frozenset[str]) -> bool:
    if arg.option is None:
        return False
    if arg.option in dropped or f"{arg.option}={arg.value}" in dropped:
        return True
    if arg.value is None and f"{arg.option}=true" in dropped:  # --ci is --ci=true
        return True
    name, eq, _ = (arg.value or "").partition("=")  # -o NAME=VALUE: any value of NAME
    return bool(eq) and f"{arg.option}={name}=" in dropped


_DOT_SLASH = re.compile(r"^(?:\./)+")


def normalised_invocation(inv: Invocation) -> tuple[str, ...]:
    """(runner, selection arguments...): INV with every output-only option dropped, each option
    in one spelling (``-k VALUE``), ``./tests/`` read as ``tests``."""
    dropped = OUTPUT_ONLY.get(inv.kind, frozenset())
    words = [inv.runner]
    if inv.chdir != ".":  # the same runner in another directory is another suite
        words.append(f"cd={inv.chdir}")
    if inv.optimize:  # asserts stripped: the same tests check less
        words.append(f"optimize={inv.optimize}")
    for arg in read_args(inv):
        if _output_only(arg, dropped):
            continue
        if arg.option is not None:
            words.append(arg.option)
        if arg.value is not None:
            value = arg.value if arg.option else _DOT_SLASH.sub("", arg.value).rstrip("/") or "."
            if value == "." and arg.option is None and inv.kind == "pytest":
                continue  # the directory it runs in: what no path argument collects, or more
            words.append(value)
    return tuple(words)


def normalised(argv: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """ARGV made comparable, one tuple per simple command: equal for ``python -m pytest -q``,
    ``.venv/bin/pytest`` and ``pytest``; different when they select different tests, run
    in another directory or under ``python -O``."""
    return tuple(normalised_invocation(inv) for inv in invocations(argv))
