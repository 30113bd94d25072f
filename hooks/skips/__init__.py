"""The skip guard's rule packs, one module per ecosystem, and how a file finds its packs."""

from __future__ import annotations

from hooks.skips import ci
from hooks.skips import cpp
from hooks.skips import dotnet
from hooks.skips import go
from hooks.skips import js
from hooks.skips import jvm
from hooks.skips import php
from hooks.skips import python
from hooks.skips import ruby
from hooks.skips import rust
from hooks.skips import swift
from hooks.skips.rules import RULE_TITLES
from hooks.skips.rules import Pack
from hooks.skips.rules import Rule

PACKS: tuple[Pack, ...] = (
    python.PACK, js.PACK, go.PACK, rust.PACK, ruby.PACK, jvm.PACK, dotnet.PACK, php.PACK,
    swift.PACK, cpp.PACK, *ci.PACKS,
)

# identify's tags for files whose name says nothing (no extension: a script with a shebang)
_TAG_PACKS = {"python": python.PACK, "javascript": js.PACK, "ruby": ruby.PACK, "php": php.PACK}

__all__ = ["PACKS", "RULE_TITLES", "Pack", "Rule", "packs_for"]


def packs_for(path: str) -> list[Pack]:
    """The packs whose rules apply to PATH: by name and extension, else by identify's tags."""
    found = [pack for pack in PACKS if pack.covers(path)]
    if found or "." in path.rsplit("/", 1)[-1]:
        return found
    try:
        from identify import identify  # only for extensionless files: it costs an import

        tags = identify.tags_from_path(path)
    except (ImportError, ValueError, OSError):
        return []
    return [pack for tag, pack in _TAG_PACKS.items() if tag in tags]
