"""The agent contract: what an agent working in this repository may say, and when.

Written for AGENTS.md / CLAUDE.md / GEMINI.md and filled in from the repository's policy, so
the instructions an agent reads and the checks that hold it agree word for word.
"""

from __future__ import annotations

from hooks.core.config import Config

# How many stops in a row the hook blocks for one reason before it lets the agent stop.
DEFAULT_MAX_BLOCKS = 3

MARKER = "<!-- receipt-hooks: agent contract -->"
DEFAULT_PATHS = ["^src/"]


def contract(policy: Config, agent: str | None = None) -> str:

    commands = policy.test_commands
    suite = ("\n    ".join(f"receipt run -- {c}" for c in commands) if commands
             else "receipt run -- <the project's test command>")
    paths = ", ".join(f"`{p}`" for p in policy.get("hypothesis-paths", DEFAULT_PATHS))
    fuse = policy.section("fuse")
    steps = fuse.get("max-steps", 8)
    blocks = policy.section("agents").get("max-blocks", DEFAULT_MAX_BLOCKS)
    hook = (f"\nA stop hook (`receipt agent-hook --agent {agent}`) holds you to this: it will\n"
            f"not let you finish while the work tree differs from the last green receipt, or\n"
            f"while your last message claims success that no receipt covers. After {blocks}\n"
            f"blocks in a row for the same reason it lets you stop and logs a fuse event:\n"
            f"a failure on the record, not a way out.\n" if agent else "")
    return f"""{MARKER}
## Tests: the receipt rule

You may write code, but you may not say the work is done, or that tests pass, until the suite
has run through receipt and exited 0 on the files exactly as you leave them:

    {suite}

That writes `artifacts/test-receipt.json`. Never write or edit a receipt by hand, never narrow
the suite (`-k`, `--lf`, `--deselect`, a single file), and never skip, xfail or comment out a
test to get there. A claim in prose ("all tests pass", "CI will pass", "verified locally")
counts for nothing; `receipt claims` checks your summary against the receipt.

If the suite cannot run here (a missing service, an empty variable, no network), do not
work around it and do not guess: say **NO RECEIPT**, say why in one line, and stop. That is
an honest result; it is logged in the ledger.
{hook}
## Before changing code: the ledger

Before you change files matching {paths}, write down what you believe is wrong and how to
test it, in `{policy.ledger}`:

    receipt ledger add "<hypothesis, one sentence someone could argue with>" --test "<command>"

Earlier lines are never edited: when the evidence is in, append a resolution
(`receipt ledger resolve ID --status proven|refuted --evidence "..."`).

## Retrying: the fuse

Run your inner loop through `receipt fuse --once -- <test command>`, once per attempt. When it
exits 42 the fuse has blown (the same failure again, failures that alternate, no progress, or
{steps} attempts): stop retrying, add a hypothesis to the ledger, change your approach, then
`receipt fuse --reset`. Exit 43 means the environment is wrong (a required variable is
empty): fix the environment or say NO RECEIPT; do not rewrite the client.
"""
