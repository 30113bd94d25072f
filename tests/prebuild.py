"""Build the test run's shared fixtures ahead of the tests that use them (conftest's
``start_prebuild`` starts this at collection, in the tests' environment).

    python tests/prebuild.py RUN_ROOT MODULE:FUNCTION...

Each FUNCTION(RUN_ROOT) builds under the same lock its fixture takes, so a worker that needs
it first waits for this build instead of starting its own; one that fails here is built
again by its fixture, which then reports the failure in the test that needed it.
"""

from __future__ import annotations

import importlib
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main(argv: list[str]) -> int:
    root, code = Path(argv[0]), 0
    for spec in argv[1:]:
        module, _, function = spec.partition(":")
        try:
            getattr(importlib.import_module(module), function)(root)
        except BaseException:  # the fixture builds it again, and says why there
            traceback.print_exc()
            code = 1
    return code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
