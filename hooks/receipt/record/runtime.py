"""Which runtime a command ran on (its version line), for the receipt's ``runtime`` field."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
from collections.abc import Sequence

from hooks.core.cmdline import command_words

# Which runtime's version to record, by the program the command starts (first match wins).
RUNTIME_PROBES: tuple[tuple[frozenset[str], tuple[str, ...]], ...] = (
    (frozenset({"node", "npm", "npx", "yarn", "pnpm", "jest", "vitest", "mocha", "bun"}),
     ("node", "--version")),
    (frozenset({"go", "gotestsum"}), ("go", "version")),
    (frozenset({"cargo", "rustc", "cargo-nextest"}), ("rustc", "--version")),
    (frozenset({"mvn", "gradle", "java", "./gradlew", "./mvnw"}), ("java", "-version")),
    (frozenset({"dotnet"}), ("dotnet", "--version")),
    (frozenset({"ruby", "rspec", "bundle", "rake"}), ("ruby", "--version")),
    (frozenset({"php", "phpunit", "pest"}), ("php", "--version")),
    (frozenset({"swift"}), ("swift", "--version")),
)


def _probe(cmd: Sequence[str]) -> str | None:
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = proc.stdout.decode("utf-8", "replace").strip().splitlines()
    return lines[0].strip() if proc.returncode == 0 and lines else None


def runtime_of(argv: Sequence[str]) -> str:
    words = command_words(argv)
    names = {os.path.basename(w) for w in words[:3]} | set(words[:1])
    for programs, probe in RUNTIME_PROBES:
        if names & programs:
            found = _probe(probe)
            if found:
                return found
    python = next((w for w in words[:1] if os.path.basename(w).startswith("python")), "python3")
    if _is_this_interpreter(python):
        return _THIS_PYTHON
    return _probe((python, "--version")) or _THIS_PYTHON


# What ``python --version`` prints for the interpreter running this code (3.11.7, 3.13.0rc1).
_THIS_PYTHON = f"Python {platform.python_version()}"


def _is_this_interpreter(program: str) -> bool:
    """PROGRAM (as the command would find it on PATH) is the very file running this code, so
    its version line is known without starting it: the common case, a venv's python running
    the venv's receipt, saves a process (~20-60 ms, far more through a pyenv shim, which is a
    script and so never the same file)."""
    found = shutil.which(program)
    if not found or not sys.executable:
        return False
    try:
        return os.path.samefile(os.path.realpath(found), os.path.realpath(sys.executable))
    except OSError:
        return False
