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


CACHE_FILE = "runtimes.json"


def _probe(cmd: Sequence[str], cache_dir: str | None = None) -> str | None:
    """The first line CMD prints, remembered in CACHE_DIR by the program's real path, mtime and
    size when it is a binary, and for a pyenv or asdf shim by what it chooses from too; any
    other script may choose differently each time, so it is asked every time."""
    key = _binary_key(cmd) if cache_dir else None
    if key is None or cache_dir is None:
        return _asked(cmd)
    import json

    path = os.path.join(cache_dir, CACHE_FILE)
    try:
        with open(path, encoding="utf-8") as f:
            cached = json.load(f)
    except (OSError, ValueError):
        cached = {}
    if not isinstance(cached, dict):
        cached = {}
    if isinstance(cached.get(key), str):
        return str(cached[key])
    found = _asked(cmd)
    if found is not None:
        from hooks.core.fileio import atomic_write

        cached = {k: v for k, v in cached.items() if isinstance(v, str)}
        cached[key] = found
        try:
            os.makedirs(cache_dir, exist_ok=True)
            atomic_write(path, json.dumps(dict(list(cached.items())[-64:])).encode())
        except OSError:
            pass  # a cache: the next run asks again
    return found


def _binary_key(cmd: Sequence[str]) -> str | None:
    """What identifies CMD's answer: the program's real path, mtime and size for a binary; for
    a version manager's shim, also everything its choice is made from (``_shim_choice``);
    None for any other script, which is asked every time."""
    found = shutil.which(cmd[0])
    if not found:
        return None
    real = os.path.realpath(found)
    try:
        info = os.stat(real)
        with open(real, "rb") as f:
            head = f.read(4096)
    except OSError:
        return None
    key = [real, str(info.st_mtime_ns), str(info.st_size), *cmd[1:]]
    if head[:2] == b"#!":
        choice = _shim_choice(head)
        if choice is None:
            return None
        key += choice
    return "\0".join(key)


# Version managers whose shims choose the interpreter from files and variables alone: the
# word that marks the shim, the variables' prefix, the files looked for from the working
# directory up, and the global file (under the manager's root, or the home directory).
_MANAGERS = (
    (b"pyenv", "PYENV_", (".python-version",), ("PYENV_ROOT", "~/.pyenv", "version")),
    (b"asdf", "ASDF_", (".tool-versions",), ("HOME", "~", ".tool-versions")),
)


def _shim_choice(head: bytes) -> list[str] | None:
    """For the shim of a known version manager (pyenv, asdf), HEAD being its first bytes, what
    its choice of interpreter depends on: its variables, and the identity (path, mtime, size)
    of each version file from the working directory up and of the global one. A later run
    with all of these the same is answered from the cache; any other script is None."""
    manager = next((m for m in _MANAGERS if m[0] in head), None)
    if manager is None:
        return None
    _word, prefix, names, (root_var, root_default, global_name) = manager
    choice = sorted(f"{k}={v}" for k, v in os.environ.items() if k.startswith(prefix))
    root = os.environ.get(root_var) or os.path.expanduser(root_default)
    places = []
    here = os.getcwd()
    while True:
        places += [os.path.join(here, n) for n in names]
        up = os.path.dirname(here)
        if up == here:
            break
        here = up
    for path in [*places, os.path.join(root, global_name), os.path.join(root, "versions")]:
        try:
            info = os.stat(path)
        except OSError:
            continue
        choice.append(f"{path}:{info.st_mtime_ns}:{info.st_size}")
    return choice


def _asked(cmd: Sequence[str]) -> str | None:
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = proc.stdout.decode("utf-8", "replace").strip().splitlines()
    return lines[0].strip() if proc.returncode == 0 and lines else None


def runtime_of(argv: Sequence[str], cache_dir: str | None = None) -> str:
    """The version line of the runtime ARGV runs on; CACHE_DIR remembers binaries' answers."""
    words = command_words(argv)
    names = {os.path.basename(w) for w in words[:3]} | set(words[:1])
    for programs, probe in RUNTIME_PROBES:
        if names & programs:
            found = _probe(probe, cache_dir)
            if found:
                return found
    python = next((w for w in words[:1] if os.path.basename(w).startswith("python")), "python3")
    if _is_this_interpreter(python):
        return _THIS_PYTHON
    return _probe((python, "--version"), cache_dir) or _THIS_PYTHON


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
