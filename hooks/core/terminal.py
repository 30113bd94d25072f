"""A pseudo-terminal for a command whose output goes to a person's terminal, so that test
runners colour their output and draw progress as they do when run bare.

The pty is set up to pass bytes as a pipe would: no ``\\n`` -> ``\\r\\n`` translation and no
echo of what is typed; the terminal's size is copied so output is laid out for it. What the
person types is passed on a line at a time (their terminal stays in its own, cooked, mode, so
Ctrl-C still reaches receipt, which forwards it).
"""

from __future__ import annotations

import contextlib
import os
import sys


def wanted(echo: bool) -> bool:
    """Run under a pty: output is shown, and shown on a terminal."""
    if not echo:
        return False
    try:
        return sys.stdout is not None and sys.stdout.isatty()
    except (ValueError, OSError):
        return False


def open_pty() -> tuple[int, int] | None:
    """(master, slave) set up as above; None where no pty can be had (then a pipe is used)."""
    try:
        import termios

        master, slave = os.openpty()
    except (ImportError, OSError):
        return None
    with contextlib.suppress(OSError, termios.error):
        attrs = termios.tcgetattr(slave)
        attrs[1] &= ~termios.OPOST  # oflag: bytes as written, as a pipe passes them
        attrs[3] &= ~(termios.ECHO | termios.ECHONL)  # lflag: the person's terminal echoes
        termios.tcsetattr(slave, termios.TCSANOW, attrs)
    with contextlib.suppress(OSError, ImportError, AttributeError):
        import fcntl

        size = fcntl.ioctl(sys.stdout.fileno(), termios.TIOCGWINSZ, b"\0" * 8)
        fcntl.ioctl(slave, termios.TIOCSWINSZ, size)
    return master, slave


def stdin_to_forward() -> int | None:
    """Our stdin's fd when it is a terminal we may read (we are in its foreground)."""
    try:
        fd = sys.stdin.fileno() if sys.stdin is not None else -1
        return fd if fd >= 0 and os.isatty(fd) and os.tcgetpgrp(fd) == os.getpgrp() else None
    except (ValueError, OSError, AttributeError):
        return None


def forward_input(source: int, master: int) -> bool:
    """Pass what was typed on to the command; False once the person ended input (Ctrl-D)."""
    try:
        data = os.read(source, 4096)
    except OSError:
        return False
    with contextlib.suppress(OSError):
        os.write(master, data if data else b"\x04")  # ^D: end of input on the pty too
    return bool(data)
