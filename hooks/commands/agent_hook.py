"""``receipt agent-hook --agent NAME``: a coding agent's stop hook, held to a receipt.

Reads the agent's stop event (JSON on stdin) and answers in the agent's own form: block the
stop with a reason naming the command to run, or let it through (see hooks/agents/gate.py for
when). The repository judged is the one the client names (hooks/agents/formats.py), never a
path in the event. An input it cannot read (not JSON, over the size bound) is no way out: the
work tree is judged without the message. Otherwise it never blocks on its own errors: anything
that goes wrong is one line on stderr and the stop goes through, because a broken hook must
not trap an agent.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence

from hooks.agents.formats import FORMATS
from hooks.agents.formats import UNREAD
from hooks.agents.formats import AgentFormat
from hooks.agents.formats import Answer
from hooks.agents.formats import HookInput
from hooks.core.cmdline import ArgumentParser
from hooks.core.cmdline import describe

MAX_INPUT_BYTES = 16 << 20


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="receipt agent-hook")
    describe(parser, "A coding agent's stop hook: the agent may not stop and say it is done "
                     "while no receipt vouches for its work.",
             "receipt agent-hook --agent claude-code   # in .claude/settings.json, as init "
             "--agent writes it",
             notes=["It reads the agent's stop event (JSON) on stdin and answers in the "
                    "agent's own form. It never blocks on its own errors: a broken hook must "
                    "not trap an agent."])
    parser.add_argument("--agent", required=True, choices=sorted(FORMATS),
                        help="whose stop hook protocol to speak")
    parser.add_argument("--max-blocks", type=int, metavar="N",
                        help="let the stop through after N blocks in a row for the same reason "
                             "in one session (default: the config's agents.max-blocks, else 3)")
    return parser


def _emit(answer: Answer) -> int:
    from hooks.core.output import print_line
    from hooks.core.output import write

    if answer.stdout:
        print_line(answer.stdout)
    if answer.stderr:
        write(answer.stderr + "\n", sys.stderr)
    return answer.code


def _note(text: str) -> None:
    sys.stderr.write(f"receipt agent-hook: {text}\n")


def read_input(agent: AgentFormat, raw: bytes) -> HookInput:
    """The event in RAW; UNREAD (judged on the work tree alone) when it cannot be read."""
    if len(raw) > MAX_INPUT_BYTES:
        _note(f"the {agent.name} hook input is over {MAX_INPUT_BYTES} bytes: judging the work "
              f"tree without the message")
        return UNREAD
    try:
        # a byte that is not UTF-8 (a stray one in the message) is replaced, not a reason to
        # drop the whole message
        payload = json.loads(raw.decode("utf-8", "replace") if raw else "{}")
    except (ValueError, RecursionError) as e:  # (nested deeper than Python's stack)
        _note(f"the {agent.name} hook input is not JSON ({e}): judging the work tree without "
              f"the message")
        return UNREAD
    if not isinstance(payload, dict):
        _note(f"the {agent.name} hook input is a JSON {type(payload).__name__}, not an object: "
              f"judging the work tree without the message")
        return UNREAD
    return agent.read(payload)


def answer(agent: AgentFormat, raw: bytes, max_blocks: int | None) -> Answer:
    from hooks.agents import gate
    from hooks.agents.contract import DEFAULT_MAX_BLOCKS
    from hooks.agents.coverage import coverage
    from hooks.claims.scan import find_claims
    from hooks.claims.scan import says_no_receipt
    from hooks.core import config
    from hooks.core import git

    hook = read_input(agent, raw)
    if not hook.proceed:
        return agent.allow
    paths = git.repo_paths(agent.project())
    os.chdir(paths.root)
    state_dir = os.path.join(paths.common_dir, "receipt-hooks", "agent-stops")
    try:
        policy = config.for_repo(paths)
        limit = max_blocks or _max_blocks(policy.section("agents").get("max-blocks",
                                                                       DEFAULT_MAX_BLOCKS))
    except config.ConfigError as e:
        # the config is the project's, which the agent can edit: a broken one holds the stop
        # (counted, so a config nobody can fix here does not trap the agent) rather than
        # switching the hook off
        decision = gate.held(hook, agent.name, "config",
                             f"the project's config cannot be read ({e}): fix it, then finish",
                             gate.state_path(state_dir, agent.name, hook.session),
                             max_blocks or DEFAULT_MAX_BLOCKS, None)
        _note(decision.reason if not decision.block else str(e))
        return agent.block(decision.reason) if decision.block else agent.allow
    message = hook.message or ""
    claims = find_claims(message)
    said_no_receipt = says_no_receipt(message)
    # NO RECEIPT is an honest exit only in a message that does not also claim success
    no_receipt = said_no_receipt and not claims
    cov = None if no_receipt else coverage(paths, policy)
    decision = gate.decide(hook, agent.name, cov, claims, no_receipt, state_dir,
                           gate.client_cap(agent.name, limit, paths.root),
                           said_no_receipt=said_no_receipt)
    if decision.event is not None:
        problem = gate.record(os.path.join(paths.root, policy.ledger), decision.event)
        if problem:
            _note(problem)
    if decision.kind == "capped":
        _note(decision.reason)
    if decision.block:
        return agent.block(decision.reason)
    return agent.allow


def _max_blocks(value: object) -> int:
    from hooks.core import config

    if type(value) is not int or value < 1:
        raise config.ConfigError(f"[agents] max-blocks must be a whole number of at least 1, "
                                 f"not {value!r}")
    return value


def main(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(list(argv))
    if args.max_blocks is not None and args.max_blocks < 1:
        build_parser().error(f"--max-blocks must be at least 1: {args.max_blocks}")
    agent = FORMATS[args.agent]
    try:
        raw = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        return _emit(answer(agent, raw, args.max_blocks))
    except KeyboardInterrupt:
        raise
    except Exception as e:  # fail open: the agent's stop must never hang on our bug
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        _note(f"error, letting the stop through: {first}")
        return _emit(agent.allow)
