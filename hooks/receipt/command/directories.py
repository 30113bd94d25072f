"""Where a recorded command runs its tests: the directory changes on its command line.

``env -C ../other pytest``, ``make -C sub test``, ``npm --prefix sub test`` and
``sh -c 'cd sub && pytest'`` run the tests of another directory than the one the receipt
snapshots (the repository root). The invocation parser follows them with the tables here, so
the check can say the run was somewhere else instead of taking it for the whole suite.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

ROOT = "."

# Options that make a program (or what it launches) run in another directory, by program.
CHDIR_OPTIONS: dict[str, frozenset[str]] = {
    "env": frozenset({"-C", "--chdir"}),
    "uv": frozenset({"--directory"}),
    "poetry": frozenset({"-C", "--directory"}),
    "pdm": frozenset({"-p", "--project"}),
    "conda": frozenset({"--cwd"}),
    "mamba": frozenset({"--cwd"}),
    "micromamba": frozenset({"--cwd"}),
    "pnpm": frozenset({"-C", "--dir"}),
    "npm": frozenset({"--prefix"}),
    "yarn": frozenset({"--cwd"}),
    "bun": frozenset({"--cwd"}),
    "make": frozenset({"-C", "--directory"}),
    "gmake": frozenset({"-C", "--directory"}),
    "ninja": frozenset({"-C"}),
    "git": frozenset({"-C"}),
    "cargo": frozenset({"-C"}),
}
# Shell builtins that change the directory for the commands after them.
CD_COMMANDS = frozenset({"cd", "pushd", "popd", "chdir"})


def joined(current: str, target: str) -> str:
    """The directory after moving from CURRENT to TARGET, relative to where the run started.
    A target the shell expands (``~``, ``-``, ``$DIR``) is kept as written: somewhere else."""
    if not target or target[0] in "~-$`" or current[:1] in "~-$`":
        return target or "~"
    return posixpath.normpath(posixpath.join(current, target))


def moved(current: str, program: str, words: Sequence[str]) -> str:
    """CURRENT after PROGRAM's own directory options among WORDS (up to a ``--``)."""
    options = CHDIR_OPTIONS.get(program)
    if not options:
        return current
    i = 0
    while i < len(words) and words[i] != "--":
        word = words[i]
        i += 1
        name, eq, value = word.partition("=")
        if name in options and eq:
            current = joined(current, value)
        elif word in options and i < len(words):
            current = joined(current, words[i])
            i += 1
        else:
            short = next((o for o in options if len(o) == 2 and word.startswith(o)), None)
            if short and len(word) > 2 and not word.startswith("--"):  # -Cdir
                current = joined(current, word[2:])
    return current


def after_cd(current: str, words: Sequence[str]) -> str | None:
    """The directory a ``cd`` simple command moves to; None when WORDS is not one."""
    if not words or posixpath.basename(words[0]) not in CD_COMMANDS:
        return None
    if words[0] == "popd":
        return "-"
    targets = [w for w in words[1:] if not w.startswith("-") or w == "-"]
    return joined(current, targets[0] if targets else "~")
