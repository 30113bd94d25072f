"""Each agent's stop hook as data: how to read its input and how to answer it.

One entry per agent: the event it fires when it is about to end its turn, the fields that name
the session, the last message and the directory, the JSON that blocks and the JSON that lets
the stop through, and where its project settings and instructions live.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from hooks.agents.transcript import last_assistant_message

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class HookInput:
    """What the gate needs from an agent's stop event."""

    __slots__ = ("cwd", "message", "proceed", "session")

    def __init__(self, session: str, message: str | None, cwd: str | None,
                 proceed: bool = True) -> None:
        self.session = session
        self.message = message
        self.cwd = cwd
        self.proceed = proceed  # False: the turn did not end normally (aborted): nothing to hold


class Answer:
    __slots__ = ("code", "stderr", "stdout")

    def __init__(self, stdout: str = "", stderr: str = "", code: int = 0) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.code = code


def _string(payload: dict[str, Any], key: str) -> str | None:
    value = payload.get(key)
    return value if isinstance(value, str) else None


def _message(payload: dict[str, Any], key: str | None) -> str | None:
    """The last message from the input when the agent sends it, else from the transcript."""
    if key is not None and _string(payload, key) is not None:
        return _string(payload, key)
    path = _string(payload, "transcript_path")
    return last_assistant_message(path) if path else None


def _session(payload: dict[str, Any], *keys: str) -> str:
    for key in keys:
        if _string(payload, key):
            return str(payload[key])
    return "unknown"


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False)


class AgentFormat:
    def __init__(self, name: str, event: str, read: Callable[[dict[str, Any]], HookInput],
                 block: Callable[[str], Answer], allow: Answer, settings: str,
                 instructions: str, entry: Callable[[str], dict[str, Any]]) -> None:
        self.name = name
        self.event = event
        self.read = read
        self.block = block
        self.allow = allow
        self.settings = settings  # project settings file, repo-relative
        self.instructions = instructions  # the file the agent reads its instructions from
        self.entry = entry  # the hook group to add to settings["hooks"][event]


def _claude_like(payload: dict[str, Any]) -> HookInput:
    return HookInput(_session(payload, "session_id"), _message(payload, "last_assistant_message"),
                     _string(payload, "cwd"))


def _gemini(payload: dict[str, Any]) -> HookInput:
    return HookInput(_session(payload, "session_id"), _message(payload, "prompt_response"),
                     _string(payload, "cwd"))


def _cursor(payload: dict[str, Any]) -> HookInput:
    roots = payload.get("workspace_roots")
    cwd = roots[0] if isinstance(roots, list) and roots and isinstance(roots[0], str) else None
    status = payload.get("status", "completed")
    return HookInput(_session(payload, "conversation_id", "session_id"), _message(payload, None),
                     cwd, proceed=status == "completed")


def _command_entry(command: str) -> dict[str, Any]:
    return {"hooks": [{"type": "command", "command": command}]}


FORMATS: dict[str, AgentFormat] = {
    "claude-code": AgentFormat(
        "claude-code", "Stop", _claude_like,
        lambda reason: Answer(_json({"decision": "block", "reason": reason})), Answer(),
        ".claude/settings.json", "CLAUDE.md", _command_entry),
    "codex": AgentFormat(
        "codex", "Stop", _claude_like,
        lambda reason: Answer(_json({"decision": "block", "reason": reason})), Answer("{}"),
        ".codex/hooks.json", "AGENTS.md", _command_entry),
    "gemini-cli": AgentFormat(
        "gemini-cli", "AfterAgent", _gemini,
        lambda reason: Answer(_json({"decision": "deny", "reason": reason})), Answer("{}"),
        ".gemini/settings.json", "GEMINI.md",
        lambda command: {"matcher": "*", "hooks": [
            {"name": "receipt-agent-hook", "type": "command", "command": command}]}),
    "cursor": AgentFormat(
        "cursor", "stop", _cursor,
        lambda reason: Answer(_json({"followup_message": reason})), Answer("{}"),
        ".cursor/hooks.json", "AGENTS.md", lambda command: {"command": command}),
}
