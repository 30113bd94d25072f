"""The committed baseline ``.skips-baseline.json``: findings that existed when it was written.

With nothing staged and no refs (``--all-files``, pre-commit.ci) no diff exists, so whole files
are scanned and only findings beyond the baseline are reported.
"""

from __future__ import annotations

from collections.abc import Sequence

from hooks.core.cmdline import quoted
from hooks.skips.filescan import FileScan
from hooks.skips.filescan import Hit

BASELINE = ".skips-baseline.json"


def baseline_key(hit: Hit) -> tuple[str, str, str]:
    return (hit.path, hit.rule.id, " ".join(hit.text.split()))


def load_baseline(path: str) -> dict[tuple[str, str, str], int] | None:
    import json

    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        entries = doc["findings"]
        counts: dict[tuple[str, str, str], int] = {}
        for e in entries:
            key = (str(e["path"]), str(e["rule"]), str(e["text"]))
            counts[key] = counts.get(key, 0) + 1
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{path} is not a skips baseline ({e}): rewrite it with "
                         f"{quoted('receipt skips --write-baseline')}") from e
    return counts


def write_baseline(path: str, hits: Sequence[Hit]) -> None:
    import json

    from hooks.core.fileio import atomic_write

    doc = {"version": 1, "comment": "findings that existed when this was written; "
                                    "no-inserted-skips --all-files reports only new ones",
           "findings": [{"path": p, "rule": r, "text": t}
                        for p, r, t in sorted(baseline_key(h) for h in hits)]}
    atomic_write(path, (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode())


def not_in_baseline(results: list[tuple[Hit, FileScan]],
                    baseline: dict[tuple[str, str, str], int]) -> list[tuple[Hit, FileScan]]:
    remaining = dict(baseline)
    fresh: list[tuple[Hit, FileScan]] = []
    for hit, scan in results:
        key = baseline_key(hit)
        if remaining.get(key, 0) > 0:
            remaining[key] -= 1
        else:
            fresh.append((hit, scan))
    return fresh
