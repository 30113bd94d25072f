"""``receipt fuse``: a circuit breaker for an agent's inner loop.

Runs a command up to ``--max-steps`` times and stops (exit 42) as soon as retrying is plainly
not working: the same failure ``--repeat-limit`` times in a row, failures that alternate, a
step that changed nothing, or the wall-clock budget spent. ``--once`` runs a single step and
keeps the history in a state file, for agents that call their test command once per attempt.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable
from collections.abc import Sequence

from hooks.core import config as repo_config
from hooks.core import exits
from hooks.core import git
from hooks.core.cmdline import ArgumentParser
from hooks.core.cmdline import describe
from hooks.core.cmdline import split_at_dashdash
from hooks.core.exits import ENV_CONTRACT
from hooks.core.exits import OK as GREEN
from hooks.core.output import warn
from hooks.fuse.environment import CLEAN_ENV_KEEP
from hooks.fuse.environment import StepEnvironment
from hooks.fuse.runner import Config
from hooks.fuse.runner import Fuse
from hooks.fuse.state import clear_state

# The seed script's variables, so `receipt fuse` drops into its Makefile unchanged.
SEED_VARIABLES = {"max_steps": "MAX_STEPS", "repeat_limit": "REPEAT_LIMIT", "log": "LOG",
                  "ledger": "LEDGER", "state": "FINGERPRINT_FILE"}


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog="receipt fuse",
        usage="receipt fuse [options] -- CMD [ARG ...]   (or AGENT_CMD='...' receipt fuse)")
    describe(parser, "Run an agent's test command again and again, and stop (exit 42) as soon "
                     "as retrying is plainly not working.",
             "receipt fuse --max-steps 5 -- pytest -x -q",
             "receipt fuse --once -- pytest -q     # one step per call, history kept",
             notes=[exits.help_line("fuse") + " With --once, a failed step that does not blow "
                    "the fuse exits with the step's own code."])
    add = parser.add_argument
    add("--max-steps", type=_positive_int, metavar="N", help="steps at most (default 8)")
    add("--repeat-limit", type=_positive_int, metavar="N",
        help="blow when the same failure comes N times in a row (default 3)")
    add("--ledger", metavar="PATH", help="where events go (default assumption-ledger.jsonl)")
    add("--log", metavar="PATH", help="where output goes (default artifacts/fuse.log)")
    add("--state", metavar="PATH", help="--once history file (default inside the git dir)")
    add("--step-timeout", type=_positive_float, metavar="S",
        help="end a step (its whole process group) after S seconds")
    add("--budget", type=_positive_float, metavar="S",
        help="wall-clock seconds for all steps; no step starts that cannot fit")
    add("--unset", action="append", default=[], metavar="NAME_OR_GLOB",
        help="drop these variables from the steps' environment (repeatable; STRIPE_* works)")
    add("--clean-env", action="store_true",
        help=f"keep only {', '.join(CLEAN_ENV_KEEP)} and --keep names")
    add("--keep", action="append", default=[], metavar="NAME",
        help="with --clean-env, keep this variable too (repeatable)")
    add("--require-env", action="append", default=[], metavar="NAME",
        help="refuse to start (exit 43) unless NAME is set and not blank (repeatable)")
    add("--once", action="store_true", help="run one step; remember the history in --state")
    add("--between", metavar="CMD",
        help="a shell command run before each retry (the agent's edit step), so a retry "
             "can differ from the step before")
    add("--reset", action="store_true", help="forget the --once history (records fuse_reset)")
    add("--override", metavar="REASON",
        help="go past the config's fuse caps; the reason is logged in the ledger")
    return parser


def _positive(text: str, convert: Callable[[str], float], what: str, least: str) -> float:
    try:
        value = convert(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not {what}: {text!r}") from None
    if math.isnan(value):  # no comparison holds for nan, so no cap or budget would hold it
        raise argparse.ArgumentTypeError(f"not {what}: {text!r}")
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be {least}: {text!r}")
    return value


def _positive_int(text: str) -> int:
    return int(_positive(text, int, "a whole number", "at least 1"))


def _positive_float(text: str) -> float:
    return _positive(text, float, "a number of seconds", "more than 0")


def _from_seed_variables(args: argparse.Namespace, parser: ArgumentParser) -> None:
    """Options win; the seed's variables fill what options left unset; then defaults."""
    for option, variable in SEED_VARIABLES.items():
        value = os.environ.get(variable)
        if getattr(args, option) is None and value:
            if option in ("max_steps", "repeat_limit"):
                try:
                    setattr(args, option, _positive_int(value))
                except argparse.ArgumentTypeError as e:
                    parser.error(f"{variable}: {e}")
            else:
                setattr(args, option, value)



# cap key in [fuse] of the config -> (option attribute, the fuse's own default)
CAPS = {"max-steps": ("max_steps", 8), "repeat-limit": ("repeat_limit", 3),
        "budget": ("budget", None)}


def apply_caps(args: argparse.Namespace, policy: repo_config.Config, root: str) -> None:
    """The committed caps: unset values take them, values past them need --override."""
    from hooks.core.errors import UserError
    from hooks.receipt.judge.overrides import record

    fuse = policy.section("fuse")
    past: list[str] = []
    for key, (attribute, default) in CAPS.items():
        cap = fuse.get(key)
        value = getattr(args, attribute)
        if value is None:
            value = default if cap is None or (default is not None and default <= cap) else cap
            setattr(args, attribute, value)
        elif cap is not None and value > cap:
            past.append(f"--{key} {value:g} (cap {cap:g})")
    args.require_env = [*args.require_env, *fuse.get("require-env", [])]
    args.unset = [*args.unset, *fuse.get("unset", [])]
    if not past:
        return
    where = policy.where("fuse")
    if args.override is None or not args.override.strip():
        raise UserError(f"receipt fuse: {', '.join(past)} goes past the cap committed in "
                        f"{where}: stay within it, or pass --override \"REASON\" (logged in the "
                        f"ledger)")
    ledger = args.ledger or os.path.join(root, policy.ledger)
    entry = record(ledger, f"fuse {', '.join(past)}", args.override, root)
    warn(f"receipt fuse: {', '.join(past)} past the cap in {where}: overridden by "
         f"{entry['who']} because {args.override} (logged in {os.path.relpath(ledger)})")


def main(argv: Sequence[str]) -> int:
    options, command, shell = split_at_dashdash(argv)
    parser = build_parser()
    args = parser.parse_args(options)
    if not command and os.environ.get("AGENT_CMD", "").strip():
        command, shell = [os.environ["AGENT_CMD"]], True
    _from_seed_variables(args, parser)
    if not command and not args.reset:
        parser.error("no command: give one after '--', or set AGENT_CMD")
    paths = git.repo_paths()
    policy = repo_config.for_repo(paths)
    apply_caps(args, policy, paths.root)
    if args.ledger is None:
        args.ledger = os.path.join(paths.root, policy.ledger)
    if args.between is not None and args.once:
        parser.error("--between runs between the steps of one fuse run; with --once the "
                     "agent's own edit comes between calls")
    config = Config(args, command or ["true"], shell and bool(command), paths.root,
                    paths.common_dir)
    if args.reset:
        clear_state(config.state)
        fuse = Fuse(config, StepEnvironment(dict(os.environ), [], False, []))
        fuse.event("fuse_reset", message="--once history cleared")
        fuse.say(f"history cleared ({config.state})")
        if not command:
            return GREEN
    for name in args.require_env:
        if not os.environ.get(name, "").strip():
            warn(f"receipt fuse: {name} is empty; fix the environment, do not rewrite the client")
            return ENV_CONTRACT
    env = StepEnvironment(dict(os.environ), args.unset, args.clean_env,
                          [*args.keep, *args.require_env])
    fuse = Fuse(config, env)
    return fuse.once() if args.once else fuse.loop()
