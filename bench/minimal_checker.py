"""The seed's approach, as a floor to compare check-receipt with: read the JSON, ask git for
HEAD, compare, look at exit_code. No schema, no tree keying, no policy."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

RECEIPT = Path("artifacts/test-receipt.json")


def main() -> int:
    if not RECEIPT.exists():
        print("missing artifacts/test-receipt.json")
        return 2
    data = json.loads(RECEIPT.read_text())
    head = subprocess.check_output(["git", "rev-parse", "HEAD"], text=True).strip()
    if data.get("git_head") != head:
        print(f"receipt git_head {data.get('git_head')} != {head}")
        return 3
    if data.get("exit_code") != 0:
        return 4
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
