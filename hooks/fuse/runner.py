"""Running the fuse: steps, their fingerprints and trees, ledger events, the loop and ``--once``."""

from __future__ import annotations

import argparse
import os
import time

from hooks.core import git
from hooks.core import process
from hooks.core import snapshot
from hooks.core.cmdline import command_argv
from hooks.core.cmdline import command_text
from hooks.core.output import warn
from hooks.core.times import utc_now
from hooks.fuse.environment import StepEnvironment
from hooks.fuse.fingerprint import FingerprintBuilder
from hooks.fuse.log import LineRedactingLog
from hooks.fuse.state import STATE_VERSION
from hooks.fuse.state import clear_state
from hooks.fuse.state import load_state
from hooks.fuse.state import save_state
from hooks.fuse.trip import Step
from hooks.fuse.trip import judge
from hooks.ledger import store

GREEN, BLOWN, ENV_CONTRACT, USAGE, INTERRUPTED = 0, 42, 43, 1, 130


class Config:
    def __init__(self, args: argparse.Namespace, command: list[str], shell: bool,
                 root: str | None, git_common_dir: str | None) -> None:
        base = root or os.getcwd()
        self.command = command
        self.argv = command_argv(command, shell)
        self.command_text = command_text(self.argv)
        self.max_steps: int = args.max_steps
        self.repeat_limit: int = args.repeat_limit
        self.step_timeout: float | None = args.step_timeout
        self.budget: float | None = args.budget
        self.once: bool = args.once
        self.between: str | None = getattr(args, "between", None)
        self.root = root
        self.ledger = args.ledger or os.path.join(base, store.DEFAULT_LEDGER)
        self.log = args.log or os.path.join(base, "artifacts", "fuse.log")
        default_state = (os.path.join(git_common_dir, "receipt-hooks", "fuse-state.json")
                         if git_common_dir else os.path.join(base, ".fuse-state.json"))
        self.state = args.state or default_state

    def as_event(self) -> dict[str, object]:
        return {"max_steps": self.max_steps, "repeat_limit": self.repeat_limit,
                "step_timeout": self.step_timeout, "budget": self.budget, "once": self.once}


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
        self.log: LineRedactingLog | None = None
        self.blown: str | None = None  # the blow's message, kept by --once until --reset

    # -- ledger and messages
    def event(self, name: str, **fields: object) -> None:
        """Append an event to the ledger. Not validated here (importing jsonschema cost every
        ``--once`` call ~80 ms): every field is built by this class, and tests/test_fuse.py
        validates each event the fuse writes against the ledger schema (``events()``)."""
        entry: dict[str, object] = {"ts": utc_now(), "event": name, **fields}
        try:
            store.append(self.config.ledger, [entry])
        except store.LedgerError as e:
            warn(f"receipt fuse: warning: event not recorded: {e}")

    def detail(self, name: str, **fields: object) -> None:
        """Step detail goes to the fuse log, not the tracked ledger: the ledger keeps the
        start, green and blown lines a reader needs, not every attempt."""
        if self.log is not None:
            import json

            self.log.note(f"=== {name} " + json.dumps({"ts": utc_now(), **fields},
                                                      sort_keys=True))

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
        self.detail("step", step=number, exit_code=outcome.exit_code, duration_s=duration,
                   fp=None if green else fp.strict, fp_source="none" if green else fp.source,
                   tree=tree, output_bytes=outcome.output_bytes)
        self.last_exit_code = outcome.exit_code
        self.last_timed_out_on_budget = outcome.timed_out and budget_cut
        if green:
            return None
        return Step(fp.strict, fp.loose, fp.source, tree, outcome.exit_code)

    def between(self, log: LineRedactingLog, forwarder: process.SignalForwarder) -> None:
        """The agent's edit step, run before each retry: what gives the retry a chance."""
        shown = self.env.redact(self.config.between or "")
        self.say(f"between steps: {shown}")
        log.note(f"=== between: {shown}")
        outcome = process.run_streaming(command_argv([self.config.between or ""], True),
                                        log.write, forwarder=forwarder, env=self.env.env,
                                        timeout=self.config.step_timeout)
        log.flush()
        if outcome.exit_code != 0:
            self.say(f"warning: '{shown}' exited {outcome.exit_code}; running the step anyway")

    def tree(self) -> str | None:
        if self.config.root is None:
            return None
        leave_out = []
        for path in (self.config.log, self.config.ledger, self.config.state):
            rel = os.path.relpath(os.path.abspath(path), self.config.root)
            if not rel.startswith(".."):
                leave_out.append(rel)
        try:
            return snapshot.take(self.config.root, leave_out).tree
        except git.GitError:
            return None

    def blow(self, reason: str, text: str, occurrences: int = 0) -> int:
        fp = self.history[-1].strict if self.history else None
        where = f"at step {self.steps_done}/{self.config.max_steps}" if self.steps_done else ""
        message = f"fuse blown {where}: {reason}: {text}".replace("  ", " ")
        self.blown = message
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
            self.detail("fuse_warn", reason=verdict.reason, step=self.steps_done, fp=step.strict,
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
        log = self.log = LineRedactingLog(self.config.log, self.env, truncate=True)
        try:
            with process.SignalForwarder() as forwarder:
                while self.steps_done < self.config.max_steps:
                    if self.budget_refuses_next_step():
                        average = sum(self.durations) / len(self.durations)
                        return self.blow("budget", f"the next step (about {average:.1f}s) "
                                                   f"would not fit in --budget "
                                                   f"{self.config.budget:g}s")
                    if self.steps_done and self.config.between:
                        self.between(log, forwarder)
                    step = self.run_step(log, forwarder)
                    if step is None:
                        return self.green()
                    code = self.after_failure(step)
                    if code is not None:
                        return code
            return self.blow("max_steps", f"{self.config.max_steps} steps without a green run")
        finally:
            log.close()
            self.log = None

    # -- one step per call
    def once(self) -> int:
        state = load_state(self.config.state)
        self.history = [Step.from_dict(s) for s in state.get("history", [])]
        self.steps_done = int(state.get("steps", 0))
        self.durations = [float(d) for d in state.get("durations", [])]
        self.started_wall = float(state.get("started", time.time()))
        if state.get("blown"):
            # a blown fuse stays blown: another attempt is exactly what it exists to stop
            self.say(f"{state['blown']}; not running '{self.env.redact(self.config.command_text)}'"
                     f" again. Write down what you believe is wrong (receipt ledger add), fix "
                     f"it, then 'receipt fuse --reset' and try again")
            return BLOWN
        if not self.steps_done:
            self.event("start", cmd=self.env.redact(self.config.command_text),
                       config=self.config.as_event())
        if self.steps_done >= self.config.max_steps:
            code = self.blow("max_steps", f"{self.steps_done} steps without a green run "
                                          f"(receipt fuse --reset starts over)")
            self.save_once_state()
            return code
        if self.budget_refuses_next_step():
            code = self.blow("budget", f"the next step would not fit in --budget "
                                       f"{self.config.budget:g}s (receipt fuse --reset starts "
                                       f"over)")
            self.save_once_state()
            return code
        log = self.log = LineRedactingLog(self.config.log, self.env, truncate=False)
        verdict: int | None = None
        try:
            with process.SignalForwarder() as forwarder:
                step = self.run_step(log, forwarder)
            if step is not None:
                verdict = self.after_failure(step)
        finally:
            log.close()
            self.log = None
        if step is None:
            clear_state(self.config.state)
            return self.green()
        self.save_once_state()
        return verdict if verdict is not None else self.last_exit_code

    def save_once_state(self) -> None:
        save_state(self.config.state, {
            "version": STATE_VERSION, "steps": self.steps_done, "started": self.started_wall,
            "durations": self.durations, "history": [s.as_dict() for s in self.history[-12:]],
            "blown": self.blown,
        })
