"""A scripted coding agent, for driving the stop hooks end to end.

One call is one turn: ``fake_agent.py PLAN PROMPT``. PLAN is a JSON file the agent keeps its
place in: ``{"attempts": [code, ...], "say": [message, ...], "next": 0}``. Each turn it writes
the next attempt to calc.py (some wrong, the last right, as an agent's guesses are); when the
prompt names a command to run (as the stop hook's reason does: run 'receipt run -- ...'), it
runs that command after its edit, as an obedient agent would. It prints its last message.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys


def main() -> int:
    plan_path, prompt = sys.argv[1], sys.argv[2]
    with open(plan_path, encoding="utf-8") as f:
        plan = json.load(f)
    turn = plan["next"]
    attempts = plan["attempts"]
    with open("calc.py", "w", encoding="utf-8") as f:
        f.write(attempts[min(turn, len(attempts) - 1)])
    asked = re.search(r"run '(receipt run [^']+)'", prompt)
    if asked:
        subprocess.run(shlex.split(asked.group(1)), check=False, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    plan["next"] = turn + 1
    with open(plan_path, "w", encoding="utf-8") as f:
        json.dump(plan, f)
    says = plan["say"]
    print(says[min(turn, len(says) - 1)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
