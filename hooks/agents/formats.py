"""Each agent's stop hook as data: how to read its input and how to answer it.

One entry per agent: the event it fires when it is about to end its turn, the fields that name
the session and the last message, how it counts its own continuations, the JSON that blocks
and the JSON that lets the stop through, and where its project settings and instructions live.

The project judged is never a path from the event: an event's ``cwd`` follows the agent's
``cd`` and names whatever repository the agent chose. It is the directory the client names in
the hook's environment (``CLAUDE_PROJECT_DIR``, ``GEMINI_PROJECT_DIR``), else the hook
process's own working directory, where each client starts its project hooks.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable

from hooks.agents.transcript import last_assistant_message

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class HookInput:
    """What the gate needs from an agent's stop event."""

    __slots__ = ("continued", "loop_count", "message", "proceed", "session")

    def __init__(self, session: str, message: str | None, proceed: bool = True,
                 continued: bool | None = None, loop_count: int | None = None) -> None:
        self.session = session
        self.message = message  # None: the input or transcript could not be read
        self.proceed = proceed  # False: the turn did not end normally (aborted): nothing to hold
        # the client's own "this stop follows a block" flag (stop_hook_active); None: not sent
        self.continued = continued
        self.loop_count = loop_count  # Cursor: follow-ups it has already sent this turn


UNREAD = HookInput("unknown", None)  # an input that is not a JSON object, or over the bound


class Answer:
    __slots__ = ("code", "stderr", "stdout")

    def __init__(self, stdout: str = "", stderr: str = "", code: int = 0) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.code = code


def _string(payload: dict[str, Any], key: str) -> str | None:
    """The text at KEY as text can be: a lone surrogate (JSON's "\\ud800") is replaced, and a
    NUL ends nothing but reads as absent in a path ("transcript_path": "a\\u0000b")."""
    value = payload.get(key)
    if not isinstance(value, str):
        return None
    value = value.encode("utf-8", "replace").decode("utf-8")
    if "\0" in value:
        return None if key.endswith("path") else value.replace("\0", "")
    return value


def _flag(payload: dict[str, Any], key: str) -> bool | None:
    value = payload.get(key)
    return value if isinstance(value, bool) else None


def _message(payload: dict[str, Any], key: str | None) -> str | None:
    """The last message from the input when the agent sends it, else from the transcript."""
    if key is not None and _string(payload, key) is not None:
        return _string(payload, key)
    path = _string(payload, "transcript_path")
    return last_assistant_message(path) if path else None


def _session(payload: dict[str, Any], *keys: str) -> str:
    for key in keys:
        value = _string(payload, key)
        if value:
            return value
    return "unknown"


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False)


class AgentFormat:
    def __init__(self, name: str, event: str, read: Callable[[dict[str, Any]], HookInput],
                 block: Callable[[str], Answer], allow: Answer, settings: str,
                 instructions: str, entry: Callable[[str], dict[str, Any]],
                 project_env: tuple[str, ...] = ()) -> None:
        self.name = name
        self.project_env = project_env  # where the client names its project for the hook
        self.event = event
        self.read = read
        self.block = block
        self.allow = allow
        self.settings = settings  # project settings file, repo-relative
        self.instructions = instructions  # the file the agent reads its instructions from
        self.entry = entry  # the hook group to add to settings["hooks"][event]

    def project(self) -> str:
        """The directory whose repository is judged: the client's, never the event's."""
        for name in self.project_env:
            value = os.environ.get(name, "")
            if os.path.isabs(value):
                return value
        return os.getcwd()


def _claude_like(payload: dict[str, Any]) -> HookInput:
    return HookInput(_session(payload, "session_id"), _message(payload, "last_assistant_message"),
                     continued=_flag(payload, "stop_hook_active"))


def _gemini(payload: dict[str, Any]) -> HookInput:
    # prompt_response is every response since the prompt, joined: an earlier claim or an
    # earlier NO RECEIPT is not the last word. The transcript's last model message is; the
    # whole prompt_response is read only when there is no transcript to read.
    path = _string(payload, "transcript_path")
    last = last_assistant_message(path) if path else None
    return HookInput(_session(payload, "session_id"),
                     last if last is not None else _string(payload, "prompt_response"),
                     continued=_flag(payload, "stop_hook_active"))


def _cursor(payload: dict[str, Any]) -> HookInput:
    status = payload.get("status", "completed")
    count = payload.get("loop_count")
    return HookInput(_session(payload, "conversation_id", "session_id"), _message(payload, None),
                     proceed=status == "completed",
                     loop_count=count if type(count) is int and count >= 0 else None)


def _command_entry(command: str) -> dict[str, Any]:
    return {"hooks": [{"type": "command", "command": command}]}


FORMATS: dict[str, AgentFormat] = {
    "claude-code": AgentFormat(
        "claude-code", "Stop", _claude_like,
        lambda reason: Answer(_json({"decision": "block", "reason": reason})), Answer(),
        ".claude/settings.json", "CLAUDE.md", _command_entry, ("CLAUDE_PROJECT_DIR",)),
    "codex": AgentFormat(
        "codex", "Stop", _claude_like,
        lambda reason: Answer(_json({"decision": "block", "reason": reason})), Answer("{}"),
        ".codex/hooks.json", "AGENTS.md", _command_entry),
    "gemini-cli": AgentFormat(
        "gemini-cli", "AfterAgent", _gemini,
        lambda reason: Answer(_json({"decision": "deny", "reason": reason})), Answer("{}"),
        ".gemini/settings.json", "GEMINI.md",
        lambda command: {"matcher": "*", "hooks": [
            {"name": "receipt-agent-hook", "type": "command", "command": command}]},
        ("GEMINI_PROJECT_DIR",)),
    "cursor": AgentFormat(
        "cursor", "stop", _cursor,
        lambda reason: Answer(_json({"followup_message": reason})), Answer("{}"),
        ".cursor/hooks.json", "AGENTS.md", lambda command: {"command": command}),
}
