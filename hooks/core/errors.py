"""One error model for every command and hook.

A problem the user can fix is a ``UserError``: one line on stderr and a documented exit code,
raised anywhere and printed in one place (``guarded``). Anything else is a bug in receipt-hooks:
exit 70 (sysexits' EX_SOFTWARE), one line naming the file that holds the traceback, and the
traceback itself on stderr when ``RECEIPT_HOOKS_DEBUG=1``. No input ever prints a traceback
by default.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable
from collections.abc import Sequence

from hooks.core.exits import CONFIG as CONFIG_ERROR
from hooks.core.exits import INTERNAL as INTERNAL_ERROR
from hooks.core.exits import INTERRUPTED
from hooks.core.exits import IO as IO_ERROR
from hooks.core.exits import USAGE as USAGE_ERROR

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO


__all__ = ["CONFIG_ERROR", "INTERNAL_ERROR", "INTERRUPTED", "IO_ERROR", "USAGE_ERROR", "UserError"]

# what the machine, not receipt-hooks, did wrong: a full disk or quota, a read-only file system,
# a file the user may not write or read, a failing device
_MACHINE_ERRNOS = frozenset(getattr(errno, name) for name in (
    "ENOSPC", "EDQUOT", "EROFS", "EACCES", "EPERM", "EIO", "EFBIG") if hasattr(errno, name))


class UserError(Exception):
    """A problem the user can fix. ``str(e)`` is the whole line to show; ``code`` the exit."""

    def __init__(self, message: str, code: int = USAGE_ERROR) -> None:
        super().__init__(message)
        self.code = code


def say(message: str) -> None:
    """One line on stderr; a closed or broken stderr loses the line, never the verdict."""
    write_text(sys.stderr, message + "\n")


def machine_error(error: BaseException) -> OSError | None:
    """ERROR when the machine caused it (``_MACHINE_ERRNOS``), else None."""
    return error if isinstance(error, OSError) and error.errno in _MACHINE_ERRNOS else None


def describe_machine_error(error: OSError, what: str = "a file") -> str:
    """ "cannot write or read .git/index: No space left on device: free some space and run it
    again" (WHAT names it when the error does not)."""
    # a rename names its destination second: the file the user knows
    named = error.filename2 if error.filename2 is not None else error.filename
    if named is not None:
        what = os.fsdecode(named)
    return f"cannot write or read {what}: {error.strerror or error}: {machine_fix(error)}"


def machine_fix(error: OSError) -> str:
    """What to do about ERROR: "free some space and run it again", or the permissions."""
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "make it writable (or choose another path) and run it again"
    if error.errno == errno.EIO:
        return "check the disk and run it again"
    return "free some space and run it again"


_lost_output: list[OSError] = []  # stdout writes the machine refused (a full disk under > file)


def write_text(stream: TextIO | None, text: str) -> None:
    """Write TEXT to STREAM: every command's output goes through here. A character its
    encoding cannot hold (a non-UTF-8 byte kept as a surrogate, under a strict encoding) is
    written as a backslash escape; a closed or broken stream loses the text, never the exit
    code. A closed pipe (``receipt ledger list | head -1``) is the end of the output: the
    command goes on to its own exit code, writing nothing more there."""
    try:
        if stream is None:
            return
        try:
            stream.write(text)
        except UnicodeEncodeError:
            encoding = stream.encoding or "ascii"
            stream.write(text.encode(encoding, "backslashreplace").decode(encoding))
        stream.flush()
    except BrokenPipeError:
        end_of_output(stream)
    except OSError as e:
        _output_refused(stream, e)
    except (ValueError, AttributeError):
        pass


def _output_refused(stream: TextIO | None, error: OSError) -> None:
    """When STREAM is stdout and the machine refused it more (a full disk under ``> file``):
    remembered for the exit code, and the rest goes to /dev/null, so Python's own flush at
    exit does not fail again (which would print an "Exception ignored" and exit 120)."""
    if stream is not sys.stdout or machine_error(error) is None:
        return
    _lost_output.append(error)
    end_of_output(sys.stdout)


def write_bytes(data: bytes) -> None:
    """Write DATA to stdout's bytes as ``write_text`` writes text (a command's own output)."""
    out = getattr(sys.stdout, "buffer", None)  # None when receipt itself started with fd 1 closed
    if out is None:
        return
    try:
        out.write(data)
        out.flush()
    except BrokenPipeError:
        end_of_output(sys.stdout)
    except OSError as e:
        _output_refused(sys.stdout, e)
    except ValueError:
        pass


def end_of_output(stream: TextIO | None) -> None:
    """STREAM's reader has gone: point its descriptor at /dev/null, so that what is still
    buffered, and whatever is written later, goes nowhere instead of failing again when Python
    flushes it at exit (which would print a BrokenPipeError and exit 120)."""
    try:
        fd = stream.fileno() if stream is not None else -1
    except (OSError, ValueError, AttributeError):
        return
    if fd < 0:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        os.dup2(devnull, fd)
    except OSError:
        pass
    finally:
        os.close(devnull)


def flush_output() -> None:
    """Flush stdout and stderr before exit, a closed pipe read as the end of the output."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except BrokenPipeError:
            end_of_output(stream)
        except OSError as e:
            _output_refused(stream, e)
        except (ValueError, AttributeError):
            pass


def keep_standard_fds() -> None:
    """Put /dev/null on fd 0, 1 or 2 when the caller closed it (``cmd >&-``): otherwise the
    next file opened takes that number, and whatever writes to "stdout" writes into it."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                opened = os.open(os.devnull, os.O_RDWR)
            except OSError:
                return
            if opened != fd:
                os.dup2(opened, fd)
                os.close(opened)


def _traceback_path() -> str:
    """Under the git dir when there is one (it stays with the repository), else the temp dir."""
    import subprocess
    import tempfile

    try:
        proc = subprocess.run(("git", "rev-parse", "--git-common-dir"), capture_output=True,
                              check=False, timeout=10)
        common = proc.stdout.decode("utf-8", "surrogateescape").strip()
        if proc.returncode == 0 and common:
            directory = os.path.join(os.path.abspath(common), "receipt-hooks")
            os.makedirs(directory, exist_ok=True)
            return os.path.join(directory, "internal-error.txt")
    except (OSError, subprocess.SubprocessError):
        pass
    return os.path.join(tempfile.gettempdir(), f"receipt-hooks-internal-error-{os.getuid()}.txt")


def report_bug(prog: str, error: BaseException) -> int:
    import traceback

    text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    where = "(could not be written)"
    try:
        path = _traceback_path()
        with open(path, "w", encoding="utf-8", errors="replace") as f:
            f.write(f"{prog} {' '.join(sys.argv[1:])}\n{text}")
        where = path
    except OSError:
        pass
    summary = str(error).splitlines()[0][:200] if str(error) else ""
    say(f"{prog}: internal error (a bug in receipt-hooks): {type(error).__name__}: {summary}; "
        f"traceback in {where} (RECEIPT_HOOKS_DEBUG=1 prints it); please report it")
    if os.environ.get("RECEIPT_HOOKS_DEBUG") == "1":
        say(text.rstrip())
    return INTERNAL_ERROR


def guarded(prog: str) -> Callable[[Callable[..., int]], Callable[..., int]]:
    """The one place errors become exit codes: user errors, Ctrl-C, bugs."""

    def wrap(main: Callable[..., int]) -> Callable[..., int]:
        def run(argv: Sequence[str] | None = None) -> int:
            keep_standard_fds()
            _lost_output.clear()
            try:
                code = main(argv)
            except UserError as e:
                say(str(e) if str(e).startswith(prog) else f"{prog}: {e}")
                code = e.code
            except KeyboardInterrupt:
                say(f"{prog}: interrupted")
                code = INTERRUPTED
            except Exception as e:  # the promise is one line, never a traceback
                refused = machine_error(e)
                if refused is None:
                    return report_bug(prog, e)
                say(f"{prog}: {describe_machine_error(refused)}")
                code = IO_ERROR
            finally:
                flush_output()  # what is still buffered, before Python's own flush at exit
            # a success whose output the machine refused is no success: "receipt attest > f"
            # on a full disk would leave nothing and exit 0 (a verdict keeps its own code)
            if code == 0 and _lost_output:
                say(f"{prog}: {describe_machine_error(_lost_output[0], 'stdout')}")
                return IO_ERROR
            return code

        run.__doc__ = main.__doc__
        return run

    return wrap
