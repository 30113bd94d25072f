"""``receipt contract [--agent NAME]``: the agent contract, filled with this repository's policy."""

from __future__ import annotations

from collections.abc import Sequence

from hooks.agents.formats import FORMATS
from hooks.core.cmdline import ArgumentParser
from hooks.core.cmdline import describe
from hooks.core.output import write


def main(argv: Sequence[str]) -> int:
    from hooks.agents.contract import contract
    from hooks.core import config
    from hooks.core import git

    parser = ArgumentParser(prog="receipt contract")
    describe(parser, "Print the agent contract, filled with this repository's policy, for "
                     "AGENTS.md, CLAUDE.md or GEMINI.md.",
             "receipt contract >> AGENTS.md", "receipt contract --agent claude-code")
    parser.add_argument("--agent", choices=sorted(FORMATS),
                        help="also describe that agent's stop hook")
    args = parser.parse_args(list(argv))
    write(contract(config.for_repo(git.repo_paths()), args.agent))
    return 0
