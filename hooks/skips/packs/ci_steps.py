"""What a CI line belongs to: the shell command an ``|| true`` guards, the step or job a
``continue-on-error`` sits on, the list an entry is added to. Read from the file's raw lines
by indentation and shell punctuation, not by a YAML or shell parser: the hook runs on every
commit and the file may be half-edited.

"Runs tests or checks" is one judgement shared by the rules: the runner tables of
``hooks.receipt.command.programs`` (what the receipt recognises as a test command) plus the check,
lint and build programs below, plus any word that names tests or checks (``run-tests.sh``,
``npm run test:ci``, ``make check``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# Programs whose every run tests, checks or builds (a failure of any of them is a red build).
CHECK_PROGRAMS = frozenset({
    "rake", "rspec", "tox", "nox", "make", "gmake", "mvn", "mvnw", "gradle", "gradlew",
    "sbt", "ant", "bazel", "ctest", "phpunit", "prove", "bats", "diff", "cmp", "cucumber",
    "karma", "ava", "tap", "jasmine", "cypress", "playwright", "flake8", "mypy", "ruff",
    "pylint", "eslint", "tsc", "shellcheck", "clippy-driver", "gotestsum", "xcodebuild",
    "pre-commit",
})
# (program, subcommand) pairs that test, check or build, beyond the receipt's runners.
CHECK_SUBCOMMANDS = frozenset({
    ("cargo", "nextest"), ("cargo", "check"), ("cargo", "clippy"), ("cargo", "build"),
    ("cargo", "t"), ("go", "vet"), ("go", "build"), ("dotnet", "test"), ("dotnet", "build"),
    ("swift", "test"), ("swift", "build"), ("deno", "test"), ("node", "--test"),
})
# a word naming tests or checks: test_x.sh, run-tests, test:ci, make check (not checkout,
# latest, specific)
_CHECK_WORD = re.compile(r"(?i)(?:^|[^a-z])(?:test|(?:specs?|checks?|lint|verify|build|compile)"
                         r"(?![a-z]))")
_WORD = re.compile(r"[^\s\"'`()=;|&<>{}$]+")


def _base(word: str) -> str:
    return word.rsplit("/", 1)[-1]


def runs_checks(command: str) -> bool:
    """COMMAND (shell text, perhaps several commands) runs, or may run, tests or checks."""
    from hooks.receipt.command.programs import RUNNER_PROGRAMS
    from hooks.receipt.command.programs import SCRIPT_COMMANDS
    from hooks.receipt.command.programs import SUBCOMMAND_RUNNERS

    words = [_base(w) for w in _WORD.findall(command)]
    pairs = set(zip(words, words[1:]))
    return (any(w in RUNNER_PROGRAMS or w in CHECK_PROGRAMS or _CHECK_WORD.search(w)
                for w in words)
            or any(p in SUBCOMMAND_RUNNERS or p in CHECK_SUBCOMMANDS
                   or SCRIPT_COMMANDS.get(p, "") == "test" for p in pairs))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


# where a guarded command begins: after a separator, or a YAML/JSON key's value starts
_COMMAND_START = re.compile(r"&&|;|(?<![$<>])\(|(?<!\$)\{|\bthen\b|\bdo\b|\belse\b|^\s*-?\s*[\w-]+:\s*[|>]?\s*"
                            r"|^\s*\"[^\"]*\"\s*:\s*\"")


def guarded_command(lines: Sequence[str], line: int, col: int) -> str:
    """The command whose failure the ``||`` at (LINE, COL) swallows: back to the last
    ``&&``/``;``/``(`` of its group, through ``\\`` continuation lines."""
    text = lines[line - 1][:col]
    number = line - 1
    while True:
        starts = list(_COMMAND_START.finditer(text))
        if starts:
            return text[starts[-1].end():]
        if number == 0 or not lines[number - 1].rstrip().endswith("\\"):
            return text
        number -= 1
        text = lines[number].rstrip()[:-1] + " " + text


# runs only once the job has failed: if: failure() (not if: ${{ !cancelled() }})
_FAILURE_ONLY = re.compile(r"^\s*-?\s*if\s*:.*(?<![!\w])(?:failure|cancelled)\s*\(\s*\)")
_STEP_KEY = re.compile(r"^\s*-?\s*(?:run|uses|script|bash|pwsh|powershell|task|command)\s*:")
# the keys of a step whose values say what it runs (not its name, paths, cache keys)
_COMMAND_KEYS = frozenset({"run", "uses", "script", "bash", "pwsh", "powershell", "task",
                           "command", "args", "arguments", "goals", "tasks", "inputs"})
_KEY = re.compile(r"^\s*-?\s*([\w-]+)\s*:(.*)$")


def step_commands(step: Sequence[str]) -> str:
    """The commands and actions a step runs: its run/uses/script/command values, with the lines
    of a block scalar below them."""
    out: list[str] = []
    keep = False
    for line in step:
        m = _KEY.match(line)
        if m:
            keep = m.group(1) in _COMMAND_KEYS
        if keep:
            out.append(m.group(2) if m else line)
    return "\n".join(out)


def _step_start(lines: Sequence[str], line: int) -> int | None:
    i = line - 1
    if lines[i].lstrip().startswith("- "):
        return i
    own = _indent(lines[i])
    start = next((j for j in range(i - 1, -1, -1)
                  if lines[j].strip() and _indent(lines[j]) < own), -1)
    return start if start >= 0 and lines[start].lstrip().startswith("- ") else None


def step_of(lines: Sequence[str], line: int) -> list[str] | None:
    """The lines of the YAML list item (a CI step) holding LINE, or None when LINE is a key
    of a mapping that is not a list item (a job)."""
    start = _step_start(lines, line)
    if start is None:
        return None
    dash = _indent(lines[start])
    end = next((j for j in range(start + 1, len(lines))
                if lines[j].strip() and _indent(lines[j]) <= dash), len(lines))
    return list(lines[start:end])


def _job_of(lines: Sequence[str], line: int) -> list[str] | None:
    """The lines of the mapping LINE is a key of, when that mapping has ``steps:`` (a job)."""
    own = _indent(lines[line - 1])
    head = next((j for j in range(line - 2, -1, -1)
                 if lines[j].strip() and _indent(lines[j]) < own), None)
    if head is None:
        return None
    end = next((j for j in range(head + 1, len(lines))
                if lines[j].strip() and _indent(lines[j]) <= _indent(lines[head])), len(lines))
    block = list(lines[head:end])
    return block if any(re.match(r"^\s*steps\s*:", s) for s in block) else None


def step_may_fail_harmlessly(lines: Sequence[str], line: int, _text: str = "",
                             _col: int = 0) -> bool:
    """The step or job LINE is on runs no test, check or build: a notification, an upload, a
    cache, a step that runs only when the job has already failed. A list item that is not a
    step (a matrix entry), or a job whose steps cannot be read, is never harmless."""
    block = step_of(lines, line)
    if block is None or not any(_STEP_KEY.match(s) for s in block):
        block = _job_of(lines, line) if block is None else None
        if block is None:
            return False
    if any(_FAILURE_ONLY.match(s) for s in block):
        return True
    return not runs_checks(step_commands(block))


def list_key_line(lines: Sequence[str], line: int) -> int | None:
    """The line number of the key whose list the ``- `` entry at LINE belongs to (YAML lets
    the list sit at the key's own indentation), or None."""
    dash = _indent(lines[line - 1])
    for j in range(line - 2, -1, -1):
        text = lines[j]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        if _indent(text) > dash or (_indent(text) == dash and text.lstrip().startswith("-")):
            continue
        return j + 1 if re.match(r"^\s*-?\s*[\w-]+\s*:\s*(?:#.*)?$", text) else None
    return None


def earlier_step_tests(lines: Sequence[str], line: int, skip_flag: re.Pattern[str]) -> bool:
    """A step before LINE's in the same list runs tests or checks, and not with SKIP_FLAG."""
    start = _step_start(lines, line)
    if start is None:
        return False
    dash = _indent(lines[start])
    end = start
    for j in range(start - 1, -1, -1):
        text = lines[j]
        if not text.strip():
            continue
        if _indent(text) < dash:
            return False  # past the first step: the steps: key
        if _indent(text) == dash and text.lstrip().startswith("- "):
            commands = step_commands(lines[j:end])
            if runs_checks(commands) and not skip_flag.search(commands):
                return True
            end = j
    return False
