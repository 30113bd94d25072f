"""Does a recorded command run the whole suite? Narrowing flags, read per runner."""

from __future__ import annotations

import os
from collections.abc import Sequence

from hooks.core.cmdline import command_words

# Flags that make a runner test less than the whole suite, by the runner that reads them.
# A flag ending in "=" also matches its "--flag=value" spelling.
NARROWING_FLAGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("pytest", ("-k", "--lf", "--last-failed", "--deselect", "--ignore", "--ignore-glob",
                "--sw", "--stepwise", "--co", "--collect-only", "-m")),
    ("jest", ("-t", "--testNamePattern", "-o", "--onlyChanged", "--onlyFailures",
              "--findRelatedTests", "--testPathIgnorePatterns", "--passWithNoTests")),
    ("vitest", ("-t", "--testNamePattern", "--changed", "--related", "--passWithNoTests")),
    ("mocha", ("-g", "--grep", "-f", "--fgrep", "--invert")),
    ("go", ("-run", "--run", "-skip", "--skip", "-short")),
    ("cargo", ("--skip", "--exact", "--ignored")),
)


def _runners_invoked(words: Sequence[str]) -> set[str]:
    names = [os.path.basename(w) for w in words]
    invoked = set()
    for i, name in enumerate(names):
        if name in ("pytest", "py.test"):
            invoked.add("pytest")
        elif name in ("jest", "vitest", "mocha") or (
                name in ("go", "cargo") and names[i + 1:i + 2] == ["test"]):
            invoked.add(name)
    return invoked


def narrowing_flags(argv: Sequence[str]) -> list[str]:
    """Narrowing flags in ARGV for the runners it invokes, e.g. ['-k'] for 'pytest -k slow'."""
    words = command_words(argv)
    invoked = _runners_invoked(words)
    found: list[str] = []
    for runner, flags in NARROWING_FLAGS:
        if runner not in invoked:
            continue
        for word in words:
            name = word.split("=", 1)[0]
            if name in flags and name not in found:
                found.append(name)
    return found
