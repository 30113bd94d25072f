"""Running a command the way ``receipt run`` and ``receipt fuse`` both need.

The command runs in its own process group, so a forwarded Ctrl-C or a timeout reaches every
process it started; its combined output streams live to the terminal and to a callback in
chunks, never held whole in memory. On a terminal the command gets a pseudo-terminal
(``hooks.core.terminal``) and colours as it would bare; the callback always gets the output
with colour and cursor codes removed.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence

from hooks.core import terminal
from hooks.core.errors import say
from hooks.core.errors import write_bytes
from hooks.core.text import AnsiStripper

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import FrameType
    from typing import Any

CHUNK = 1 << 16
FORWARDED_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
TIMED_OUT = 124  # what coreutils' timeout(1) exits with
POLL = 0.1  # how often the read loop looks at the command while its pipe is quiet
# Once the command has exited, its output is read for at most DRAIN_GRACE more seconds (SETTLE
# after a timeout or a forwarded signal): a daemon it left behind may hold the pipe for ever.
DRAIN_GRACE = 2.0
SETTLE = 0.5
# After a forwarded Ctrl-C or TERM, SIGKILL if the command still runs: long enough for a
# runner to print its summary on Ctrl-C (pytest does), short enough for a CI cancel; a second
# Ctrl-C or TERM kills at once.
INTERRUPT_GRACE = 3.0


class SignalForwarder:
    """Pass SIGINT/SIGTERM/SIGHUP on to the running command's process group; remember them."""

    def __init__(self) -> None:
        self.pgid: int | None = None
        self.received: int | None = None
        self.repeated = False  # a second signal came: kill, do not wait
        self._previous: dict[int, Any] = {}

    def _handle(self, signum: int, _frame: FrameType | None) -> None:
        if self.received is None:
            self.received = signum
        else:
            self.repeated = True
        if self.pgid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pgid, signum)

    def __enter__(self) -> SignalForwarder:
        for sig in FORWARDED_SIGNALS:
            self._previous[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *_exc: object) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)


def write_terminal(data: bytes) -> None:
    """The command's output, echoed; the log still gets every byte when stdout is closed."""
    write_bytes(data)


class Outcome:
    """How a command ended: its exit code (128+N for signal N, 124 on timeout, 127 not found)."""

    __slots__ = ("exit_code", "output_bytes", "start_error", "timed_out")

    def __init__(self, exit_code: int, output_bytes: int, *, timed_out: bool = False,
                 start_error: str | None = None) -> None:
        self.exit_code = exit_code
        self.output_bytes = output_bytes
        self.timed_out = timed_out
        self.start_error = start_error


def _kill_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def run_streaming(
    argv: Sequence[str],
    on_output: Callable[[bytes], None],
    *,
    forwarder: SignalForwarder,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    timeout: float | None = None,
    grace: float = 2.0,
    echo: bool = True,
) -> Outcome:
    """Run ARGV, passing each chunk of its output to ON_OUTPUT (and the terminal if ECHO).

    After TIMEOUT seconds the whole process group gets SIGTERM, then SIGKILL after GRACE. A
    forwarded Ctrl-C or TERM is followed by SIGKILL after INTERRUPT_GRACE, or at once on a
    second one (each told on stderr). Output is read until
    the command has exited and the pipe is closed, but never more than DRAIN_GRACE after the
    command exited (SETTLE after a timeout or signal): a daemon it left behind (``setsid cmd
    &``) can hold the pipe open for ever, and is not the command.
    """
    # Its own process group, so a signal reaches grandchildren too. Python >= 3.11 does this
    # without preexec_fn, which keeps the fast vfork path for starting the process.
    group: dict[str, Any] = ({"process_group": 0} if sys.version_info >= (3, 11)
                             else {"preexec_fn": os.setpgrp})
    pty = terminal.open_pty() if terminal.wanted(echo) else None
    typed = terminal.stdin_to_forward() if pty else None  # what the person types goes on
    # A command in its own process group cannot read the terminal without stopping: it reads
    # the pty (fed from the terminal), or nothing.
    stdin: Any = (pty[1] if typed is not None and pty else
                  subprocess.DEVNULL if sys.stdin is None or sys.stdin.isatty() else None)
    try:
        proc = subprocess.Popen(
            argv,
            env=env,
            cwd=cwd,
            stdout=pty[1] if pty else subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=stdin,
            **group,
        )
    except (FileNotFoundError, PermissionError, NotADirectoryError) as e:
        if pty:
            os.close(pty[0])
            os.close(pty[1])
        code = 127 if isinstance(e, FileNotFoundError) else 126
        reason = "command not found" if code == 127 else "command not executable"
        return Outcome(code, 0, start_error=f"{reason}: {argv[0]}")
    forwarder.pgid = proc.pid
    if pty:
        os.close(pty[1])  # the command holds it now: its last close ends our reads
        fd = pty[0]
    else:
        assert proc.stdout is not None  # noqa: S101  # Popen(stdout=PIPE) guarantees it
        fd = proc.stdout.fileno()
    clean = AnsiStripper()
    deadline = time.monotonic() + timeout if timeout is not None else None
    kill_at: float | None = None
    stop_at: float | None = None
    returncode: int | None = None
    timed_out = eof = False
    total = 0
    try:
        while not (eof and returncode is not None):
            now = time.monotonic()
            if returncode is None:
                returncode = proc.poll()
            if returncode is None:
                if deadline is not None and not timed_out and now >= deadline:
                    timed_out = True
                    _kill_group(proc.pid, signal.SIGTERM)
                    kill_at = now + grace
                elif forwarder.received is not None and kill_at is None:
                    kill_at = now + INTERRUPT_GRACE
                    say(f"receipt: {signal.Signals(forwarder.received).name} passed to the "
                        f"command; it is killed in {INTERRUPT_GRACE:g} s if still running "
                        "(again to kill it now)")
                if kill_at is not None and kill_at != float("inf") \
                        and (now >= kill_at or forwarder.repeated):
                    if forwarder.received is not None and not timed_out:
                        say("receipt: killing the command (SIGKILL): "
                            + ("signalled again" if forwarder.repeated else
                               f"still running {INTERRUPT_GRACE:g} s after the signal"))
                    _kill_group(proc.pid, signal.SIGKILL)
                    kill_at = float("inf")
            elif stop_at is None:
                hurried = timed_out or forwarder.received is not None
                stop_at = now + (SETTLE if hurried else DRAIN_GRACE)
            if stop_at is not None and now >= stop_at:
                break
            if eof:  # the pipe is closed; the command has not exited yet
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(POLL)
                continue
            ready, _, _ = select.select([fd] if typed is None else [fd, typed], [], [], POLL)
            if typed is not None and typed in ready and not terminal.forward_input(typed, fd):
                typed = None
            if fd not in ready:
                continue
            try:
                chunk = os.read(fd, CHUNK)
            except OSError:  # EIO: every holder of the pty's other end has closed it
                chunk = b""
            if not chunk:
                eof = True
                continue
            if echo:
                write_terminal(chunk)
            logged = clean.feed(chunk)  # the log and the counts get no colour codes
            if logged:
                total += len(logged)
                on_output(logged)
        returncode = proc.wait()
        rest = clean.close()
        if rest:
            total += len(rest)
            on_output(rest)
    finally:
        forwarder.pgid = None
        if pty:
            os.close(pty[0])
        elif proc.stdout is not None:
            proc.stdout.close()
        if timed_out:  # nothing the step started may outlive it
            _kill_group(proc.pid, signal.SIGKILL)
    if timed_out:
        return Outcome(TIMED_OUT, total, timed_out=True)
    exit_code = 128 - returncode if returncode < 0 else returncode
    if forwarder.received is not None:
        exit_code = 128 + forwarder.received
    return Outcome(exit_code, total)
