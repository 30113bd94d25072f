"""``receipt fuse``: a circuit breaker for an agent's inner loop.

Runs a command up to ``--max-steps`` times and stops (exit 42) as soon as retrying is plainly
not working: the same failure ``--repeat-limit`` times in a row, failures that alternate, a
step that changed nothing, or the wall-clock budget spent. ``--once`` runs a single step and
keeps the history in a state file, for agents that call their test command once per attempt.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import json
import os
import re
import shlex
import sys
import time
from collections.abc import Callable
from collections.abc import Sequence

from hooks import git_repo
from hooks import ledger
from hooks import process
from hooks.fileio import atomic_write
from hooks.fingerprint import FingerprintBuilder
from hooks.output import ArgumentParser
from hooks.output import warn
from hooks.receipts import utc_now

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

GREEN, BLOWN, ENV_CONTRACT, USAGE, INTERRUPTED = 0, 42, 43, 1, 130
SHELL = "/bin/sh"
CLEAN_ENV_KEEP = ("PATH", "HOME", "LANG", "LC_*", "TERM", "TMPDIR", "USER", "SHELL", "PWD")
SECRET_NAME_PATTERNS = ("*KEY*", "*SECRET*", "*TOKEN*", "*PASSWORD*")
# The seed script's variables, so `receipt fuse` drops into its Makefile unchanged.
SEED_VARIABLES = {"max_steps": "MAX_STEPS", "repeat_limit": "REPEAT_LIMIT", "log": "LOG",
                  "ledger": "LEDGER", "state": "FINGERPRINT_FILE"}
STATE_VERSION = 1
PERIODS = (2, 3)


# ---- judging a history of failing steps: pure functions of data ------------------------

class Step:
    """What the fuse remembers of one failing step."""

    __slots__ = ("exit_code", "loose", "source", "strict", "tree")

    def __init__(self, strict: str, loose: str, source: str, tree: str | None,
                 exit_code: int) -> None:
        self.strict = strict
        self.loose = loose
        self.source = source
        self.tree = tree
        self.exit_code = exit_code

    def as_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Step:
        return cls(str(data["strict"]), str(data["loose"]), str(data["source"]),
                   data.get("tree"), int(data["exit_code"]))


class Verdict:
    __slots__ = ("blow", "occurrences", "reason", "text")

    def __init__(self, blow: bool, reason: str, occurrences: int, text: str) -> None:
        self.blow = blow
        self.reason = reason
        self.occurrences = occurrences
        self.text = text


def _trailing_run(values: Sequence[str]) -> int:
    run = 1
    while run < len(values) and values[-run - 1] == values[-1]:
        run += 1
    return run


def _cycles(values: Sequence[str], period: int, length: int) -> bool:
    """The last LENGTH values repeat with PERIOD and hold at least two different values."""
    if len(values) < length:
        return False
    window = values[-length:]
    return (len(set(window)) >= 2
            and all(window[i] == window[i - period] for i in range(period, length)))


def judge(history: Sequence[Step], repeat_limit: int) -> Verdict | None:
    """Whether the fuse blows (or warns) after the last of HISTORY's failing steps."""
    last = history[-1]
    strict = [s.strict for s in history]
    loose = [s.loose for s in history]
    run = _trailing_run(strict)
    if len(history) >= 2:
        before = history[-2]
        if before.tree is not None and before.tree == last.tree and before.strict == last.strict:
            return Verdict(True, "no_progress", run,
                           "the step changed nothing in the work tree and failed the same way")
    if run >= repeat_limit:
        return Verdict(True, "repeated_error", run,
                       f"the same failure {run} times in a row")
    for period in PERIODS:
        if _cycles(loose, period, 2 * period) or _cycles(strict, period, 2 * period):
            return Verdict(True, "oscillation", 2,
                           f"the failures alternate with period {period}: each fix undoes the "
                           f"one before")
    if repeat_limit > 1 and run == repeat_limit - 1:
        return Verdict(False, "repeated_error", run,
                       f"the same failure {run} times in a row; one more and the fuse blows")
    for period in PERIODS:
        if _cycles(loose, period, 2 * period - 1) or _cycles(strict, period, 2 * period - 1):
            return Verdict(False, "oscillation", 1,
                           f"the failures look like they alternate with period {period}; one "
                           f"more and the fuse blows")
    return None


# ---- the environment the steps run in ----------------------------------------------------

def _matches(name: str, patterns: Sequence[str]) -> bool:
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


class StepEnvironment:
    """The steps' environment, and a redactor for the values that must not be written down."""

    def __init__(self, base: dict[str, str], unset: Sequence[str], clean: bool,
                 keep: Sequence[str]) -> None:
        env = dict(base)
        if clean:
            env = {k: v for k, v in env.items() if _matches(k, (*CLEAN_ENV_KEEP, *keep))}
        env = {k: v for k, v in env.items() if not _matches(k, unset)}
        self.env = env
        secret = {k: v for k, v in base.items()
                  if (k not in env or _matches(k.upper(), SECRET_NAME_PATTERNS)) and len(v) >= 4}
        self._secrets = secret
        values = sorted({v for v in secret.values()}, key=len, reverse=True)
        self._pattern = re.compile("|".join(re.escape(v) for v in values)) if values else None
        self._names = {v: k for k, v in secret.items()}

    def redact(self, text: str) -> str:
        if self._pattern is None:
            return text
        return self._pattern.sub(lambda m: f"[redacted:{self._names[m.group(0)]}]", text)

    def redact_bytes(self, data: bytes) -> bytes:
        if self._pattern is None:
            return data
        return self.redact(data.decode("utf-8", "surrogateescape")).encode(
            "utf-8", "surrogateescape")


class LineRedactingLog:
    """Writes output to the log a line at a time, so a secret split across chunks is caught."""

    def __init__(self, path: str, env: StepEnvironment, truncate: bool) -> None:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self._file = open(path, "wb" if truncate else "ab")  # noqa: SIM115  # closed in close()
        self._env = env
        self._partial = b""

    def write(self, data: bytes) -> None:
        data = self._partial + data
        cut = data.rfind(b"\n") + 1
        if cut == 0 and len(data) < (1 << 16):
            self._partial = data
            return
        if cut == 0:
            cut = len(data)
        self._partial = data[cut:]
        self._file.write(self._env.redact_bytes(data[:cut]))

    def note(self, text: str) -> None:
        self.flush()
        self._file.write(self._env.redact(text + "\n").encode("utf-8", "replace"))
        self._file.flush()

    def flush(self) -> None:
        if self._partial:
            self._file.write(self._env.redact_bytes(self._partial) + b"\n")
            self._partial = b""
        self._file.flush()

    def close(self) -> None:
        self.flush()
        self._file.close()


# ---- configuration ------------------------------------------------------------------------

def build_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog="receipt fuse",
        usage="receipt fuse [options] -- CMD [ARG ...]   (or AGENT_CMD='...' receipt fuse)",
        description=__doc__.splitlines()[0] if __doc__ else None)
    add = parser.add_argument
    add("--max-steps", type=_positive_int, metavar="N", help="steps at most (default 8)")
    add("--repeat-limit", type=_positive_int, metavar="N",
        help="blow when the same failure comes N times in a row (default 3)")
    add("--ledger", metavar="PATH", help="where events go (default assumption-ledger.jsonl)")
    add("--log", metavar="PATH", help="where output goes (default artifacts/fuse.log)")
    add("--state", metavar="PATH", help="--once history file (default inside the git dir)")
    add("--step-timeout", type=_positive_float, metavar="S",
        help="end a step (its whole process group) after S seconds")
    add("--budget", type=_positive_float, metavar="S",
        help="wall-clock seconds for all steps; no step starts that cannot fit")
    add("--unset", action="append", default=[], metavar="NAME_OR_GLOB",
        help="drop these variables from the steps' environment (repeatable; STRIPE_* works)")
    add("--clean-env", action="store_true",
        help=f"keep only {', '.join(CLEAN_ENV_KEEP)} and --keep names")
    add("--keep", action="append", default=[], metavar="NAME",
        help="with --clean-env, keep this variable too (repeatable)")
    add("--require-env", action="append", default=[], metavar="NAME",
        help="refuse to start (exit 43) unless NAME is set and not blank (repeatable)")
    add("--once", action="store_true", help="run one step; remember the history in --state")
    add("--reset", action="store_true", help="forget the --once history (records fuse_reset)")
    return parser


def _positive(text: str, convert: Callable[[str], float], what: str, least: str) -> float:
    try:
        value = convert(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not {what}: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be {least}: {text!r}")
    return value


def _positive_int(text: str) -> int:
    return int(_positive(text, int, "a whole number", "at least 1"))


def _positive_float(text: str) -> float:
    return _positive(text, float, "a number of seconds", "more than 0")


class Config:
    def __init__(self, args: argparse.Namespace, command: list[str], shell: bool,
                 root: str | None, git_common_dir: str | None) -> None:
        base = root or os.getcwd()
        self.command = command
        self.argv = [SHELL, "-c", command[0]] if shell else command
        self.command_text = command[0] if shell else shlex.join(command)
        self.max_steps: int = args.max_steps
        self.repeat_limit: int = args.repeat_limit
        self.step_timeout: float | None = args.step_timeout
        self.budget: float | None = args.budget
        self.once: bool = args.once
        self.root = root
        self.ledger = args.ledger or os.path.join(base, ledger.DEFAULT_LEDGER)
        self.log = args.log or os.path.join(base, "artifacts", "fuse.log")
        default_state = (os.path.join(git_common_dir, "receipt-hooks", "fuse-state.json")
                         if git_common_dir else os.path.join(base, ".fuse-state.json"))
        self.state = args.state or default_state

    def as_event(self) -> dict[str, object]:
        return {"max_steps": self.max_steps, "repeat_limit": self.repeat_limit,
                "step_timeout": self.step_timeout, "budget": self.budget, "once": self.once}


def _from_seed_variables(args: argparse.Namespace, parser: ArgumentParser) -> None:
    """Options win; the seed's variables fill what options left unset; then defaults."""
    for option, variable in SEED_VARIABLES.items():
        value = os.environ.get(variable)
        if getattr(args, option) is None and value:
            if option in ("max_steps", "repeat_limit"):
                try:
                    setattr(args, option, _positive_int(value))
                except argparse.ArgumentTypeError as e:
                    parser.error(f"{variable}: {e}")
            else:
                setattr(args, option, value)
    args.max_steps = args.max_steps or 8
    args.repeat_limit = args.repeat_limit or 3


# ---- running ------------------------------------------------------------------------------

class Fuse:
    def __init__(self, config: Config, env: StepEnvironment) -> None:
        self.config = config
        self.env = env
        self.history: list[Step] = []
        self.durations: list[float] = []
        self.steps_done = 0
        self.started_wall = time.time()
        self.interrupted = False
        self.last_exit_code = 0
        self.last_timed_out_on_budget = False

    # -- ledger and messages
    def event(self, name: str, **fields: object) -> None:
        entry: dict[str, object] = {"ts": utc_now(), "event": name, **fields}
        problems = ledger.validation_errors(entry)
        if problems:  # our bug: say so rather than write a line the ledger hook would refuse
            warn(f"receipt fuse: internal error: {name} event does not match the schema: "
                 f"{problems[0]}")
            return
        try:
            ledger.append(self.config.ledger, [entry])
        except ledger.LedgerError as e:
            warn(f"receipt fuse: warning: event not recorded: {e}")

    def say(self, text: str) -> None:
        warn(f"receipt fuse: {text}")

    # -- one step
    def run_step(self, log: LineRedactingLog, forwarder: process.SignalForwarder) -> Step | None:
        """Run the command once; None when it went green."""
        number = self.steps_done + 1
        timeout = self.config.step_timeout
        budget_cut = False
        if self.config.budget is not None:
            remaining = self.config.budget - (time.time() - self.started_wall)
            if timeout is None or remaining < timeout:
                timeout, budget_cut = max(remaining, 0.01), True
        shown = self.env.redact(self.config.command_text)
        self.say(f"step {number}/{self.config.max_steps}: {shown}")
        log.note(f"=== step {number}/{self.config.max_steps}")
        builder = FingerprintBuilder(self.config.root)

        def on_output(chunk: bytes) -> None:
            log.write(chunk)
            builder.feed(chunk)

        t0 = time.monotonic()
        outcome = process.run_streaming(self.config.argv, on_output, forwarder=forwarder,
                                        env=self.env.env, timeout=timeout)
        duration = round(time.monotonic() - t0, 3)
        if outcome.start_error:
            self.say(outcome.start_error)
            builder.feed(outcome.start_error.encode() + b"\n")
            log.note(outcome.start_error)
        if outcome.timed_out:
            why = "the budget ran out" if budget_cut else f"--step-timeout {timeout:g}s"
            self.say(f"step {number} ended after {duration:g}s: {why}")
            log.note(f"step {number} ended: {why}")
        log.flush()
        self.steps_done = number
        self.durations.append(duration)
        self.interrupted = forwarder.received is not None
        green = outcome.exit_code == 0 and not self.interrupted
        fp = builder.result(outcome.exit_code)
        tree = self.tree()
        self.event("step", step=number, exit_code=outcome.exit_code, duration_s=duration,
                   fp=None if green else fp.strict, fp_source="none" if green else fp.source,
                   tree=tree, output_bytes=outcome.output_bytes)
        self.last_exit_code = outcome.exit_code
        self.last_timed_out_on_budget = outcome.timed_out and budget_cut
        if green:
            return None
        return Step(fp.strict, fp.loose, fp.source, tree, outcome.exit_code)

    def tree(self) -> str | None:
        if self.config.root is None:
            return None
        leave_out = []
        for path in (self.config.log, self.config.ledger, self.config.state):
            rel = os.path.relpath(os.path.abspath(path), self.config.root)
            if not rel.startswith(".."):
                leave_out.append(rel)
        try:
            return git_repo.snapshot_tree(self.config.root, leave_out)
        except git_repo.GitError:
            return None

    def blow(self, reason: str, text: str, occurrences: int = 0) -> int:
        fp = self.history[-1].strict if self.history else None
        where = f"at step {self.steps_done}/{self.config.max_steps}" if self.steps_done else ""
        message = f"fuse blown {where}: {reason}: {text}".replace("  ", " ")
        self.say(message + "; stop retrying and write down what you believe is wrong: "
                 "receipt ledger add \"<hypothesis>\" --test \"<command that tests it>\"")
        self.event("fuse_blown", reason=reason, step=max(self.steps_done, 1), fp=fp,
                   occurrences=occurrences, message=message)
        return INTERRUPTED if reason == "interrupted" else BLOWN

    def after_failure(self, step: Step) -> int | None:
        """Record STEP; the exit code if the fuse blows now, else None."""
        self.history.append(step)
        if self.interrupted:
            return self.blow("interrupted", "Ctrl-C or a termination signal")
        if self.last_timed_out_on_budget:
            return self.blow("budget", f"the {self.config.budget:g}s budget ran out during "
                                       f"the step")
        verdict = judge(self.history, self.config.repeat_limit)
        if verdict and verdict.blow:
            return self.blow(verdict.reason, f"{verdict.text} (fingerprint "
                                             f"{step.strict[:12]}, from {step.source})",
                             verdict.occurrences)
        if verdict:
            self.say(f"warning: {verdict.text}")
            self.event("fuse_warn", reason=verdict.reason, step=self.steps_done, fp=step.strict,
                       occurrences=verdict.occurrences, message=verdict.text)
        return None

    def budget_refuses_next_step(self) -> bool:
        if self.config.budget is None or not self.durations:
            return False
        average = sum(self.durations) / len(self.durations)
        return (time.time() - self.started_wall) + average > self.config.budget

    def green(self) -> int:
        self.say(f"step {self.steps_done} went green")
        self.event("inner_loop_green", step=self.steps_done)
        return GREEN

    # -- the whole loop
    def loop(self) -> int:
        self.event("start", cmd=self.env.redact(self.config.command_text),
                   config=self.config.as_event())
        log = LineRedactingLog(self.config.log, self.env, truncate=True)
        try:
            with process.SignalForwarder() as forwarder:
                while self.steps_done < self.config.max_steps:
                    if self.budget_refuses_next_step():
                        average = sum(self.durations) / len(self.durations)
                        return self.blow("budget", f"the next step (about {average:.1f}s) "
                                                   f"would not fit in --budget "
                                                   f"{self.config.budget:g}s")
                    step = self.run_step(log, forwarder)
                    if step is None:
                        return self.green()
                    code = self.after_failure(step)
                    if code is not None:
                        return code
            return self.blow("max_steps", f"{self.config.max_steps} steps without a green run")
        finally:
            log.close()

    # -- one step per call
    def once(self) -> int:
        state = load_state(self.config.state)
        self.history = [Step.from_dict(s) for s in state.get("history", [])]
        self.steps_done = int(state.get("steps", 0))
        self.durations = [float(d) for d in state.get("durations", [])]
        self.started_wall = float(state.get("started", time.time()))
        if not self.steps_done:
            self.event("start", cmd=self.env.redact(self.config.command_text),
                       config=self.config.as_event())
        if self.steps_done >= self.config.max_steps:
            return self.blow("max_steps", f"{self.steps_done} steps without a green run "
                                          f"(receipt fuse --reset starts over)")
        if self.budget_refuses_next_step():
            return self.blow("budget", f"the next step would not fit in --budget "
                                       f"{self.config.budget:g}s (receipt fuse --reset starts "
                                       f"over)")
        log = LineRedactingLog(self.config.log, self.env, truncate=False)
        try:
            with process.SignalForwarder() as forwarder:
                step = self.run_step(log, forwarder)
        finally:
            log.close()
        if step is None:
            clear_state(self.config.state)
            return self.green()
        code = self.after_failure(step)
        save_state(self.config.state, {
            "version": STATE_VERSION, "steps": self.steps_done, "started": self.started_wall,
            "durations": self.durations, "history": [s.as_dict() for s in self.history[-12:]],
        })
        return code if code is not None else self.last_exit_code


def load_state(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as f:
            state = json.load(f)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as e:
        warn(f"receipt fuse: warning: {path} is not a fuse state file ({e}); starting over")
        return {}
    if not isinstance(state, dict) or state.get("version") != STATE_VERSION:
        return {}  # e.g. the seed script's one-line fingerprint file
    return state


def save_state(path: str, state: dict[str, Any]) -> None:
    atomic_write(path, (json.dumps(state) + "\n").encode())


def clear_state(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def main(argv: Sequence[str]) -> int:
    argv = list(argv)
    if "--" in argv:
        split = argv.index("--")
        options, command, shell = argv[:split], argv[split + 1:], False
    else:
        options, command, shell = argv, [], True
    parser = build_parser()
    args = parser.parse_args(options)
    if not command and os.environ.get("AGENT_CMD", "").strip():
        command, shell = [os.environ["AGENT_CMD"]], True
    _from_seed_variables(args, parser)
    if not command and not args.reset:
        parser.error("no command: give one after '--', or set AGENT_CMD")
    try:
        paths: git_repo.RepoPaths | None = git_repo.repo_paths()
    except git_repo.GitError:
        paths = None
    config = Config(args, command or ["true"], shell and bool(command),
                    paths.root if paths else None, paths.common_dir if paths else None)
    if args.reset:
        clear_state(config.state)
        fuse = Fuse(config, StepEnvironment(dict(os.environ), [], False, []))
        fuse.event("fuse_reset", message="--once history cleared")
        fuse.say(f"history cleared ({config.state})")
        if not command:
            return GREEN
    for name in args.require_env:
        if not os.environ.get(name, "").strip():
            warn(f"receipt fuse: {name} is empty; fix the environment, do not rewrite the client")
            return ENV_CONTRACT
    env = StepEnvironment(dict(os.environ), args.unset, args.clean_env,
                          [*args.keep, *args.require_env])
    fuse = Fuse(config, env)
    return fuse.once() if args.once else fuse.loop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
