"""``receipt init --agent NAME``: the stop hook in the agent's project settings, the contract in
its instructions file. Both merged into what is there, never clobbering, and idempotent."""

from __future__ import annotations

import json
import os

from hooks.agents.contract import MARKER
from hooks.agents.contract import contract
from hooks.agents.formats import FORMATS
from hooks.core.config import Config
from hooks.core.errors import UserError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def hook_command(agent: str) -> str:
    """The stop hook's command as the agent's shell runs it: plain ``receipt`` when that is
    this installation on PATH, else this installation's script by absolute path (a CLI in a
    venv is not on the agent's PATH, and an agent treats "command not found" as no hook)."""
    import shlex
    import shutil

    from hooks.core.cmdline import own_command

    own = own_command("receipt", "hooks.cli")
    found = shutil.which("receipt")
    if found and len(own) == 1 and os.path.realpath(found) == os.path.realpath(own[0]):
        return f"receipt agent-hook --agent {agent}"
    return shlex.join([*own, "agent-hook", "--agent", agent])


def _has_command(node: Any, command: str) -> bool:
    """Whether NODE holds our hook for this agent, however its command names the CLI."""
    if isinstance(node, dict):
        given = node.get("command")
        same = isinstance(given, str) and (
            given == command or given.endswith(command[command.index(" agent-hook "):]))
        return same or any(_has_command(v, command) for v in node.values())
    if isinstance(node, list):
        return any(_has_command(v, command) for v in node)
    return False


def merged_settings(agent: str, existing: str | None, shown: str) -> str | None:
    """The settings file with our hook added; None when it is already there."""
    fmt = FORMATS[agent]
    try:
        settings = json.loads(existing) if existing and existing.strip() else {}
    except ValueError as e:
        raise UserError(f"{shown} is not JSON ({e}): fix it, or add the hook by hand: "
                        f"{json.dumps(fmt.entry(hook_command(agent)))}") from None
    hooks = settings.setdefault("hooks", {}) if isinstance(settings, dict) else None
    if not isinstance(hooks, dict) or not isinstance(hooks.setdefault(fmt.event, []), list):
        raise UserError(f"{shown}: 'hooks' is not shaped as {agent} documents it: add the hook "
                        f"by hand under hooks.{fmt.event}")
    command = hook_command(agent)
    if _has_command(hooks[fmt.event], command):
        return None
    if agent == "cursor":
        settings.setdefault("version", 1)
    hooks[fmt.event].append(fmt.entry(command))
    return json.dumps(settings, indent=2) + "\n"


def with_contract(existing: str | None, policy: Config, agent: str) -> str | None:
    if existing is not None and MARKER in existing:
        return None
    body = existing or ""
    if body and not body.endswith("\n"):
        body += "\n"
    return body + ("\n" if body else "") + contract(policy, agent)


def plan(root: str, agent: str, policy: Config) -> list[tuple[str, str | None, str]]:
    """(repo-relative path, new content or None when unchanged, what) for each file."""
    fmt = FORMATS[agent]

    def read(name: str) -> str | None:
        path = os.path.join(root, name)
        if not os.path.isfile(path):
            return None
        with open(path, encoding="utf-8") as f:
            return f.read()

    return [(fmt.settings, merged_settings(agent, read(fmt.settings), fmt.settings),
             f"added the {fmt.event} hook '{hook_command(agent)}'"),
            (fmt.instructions, with_contract(read(fmt.instructions), policy, agent),
             "added the agent contract")]
