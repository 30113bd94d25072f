"""Times as receipts and ledgers write them (RFC 3339 UTC, whole seconds), and durations.

``datetime`` is imported where a time is read or written: a check without --max-age reads none.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    import datetime as dt

_UTC_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def utc_now() -> str:
    import datetime as dt

    return dt.datetime.now(dt.timezone.utc).strftime(_UTC_FORMAT)


def parse_utc(text: str) -> dt.datetime | None:
    import datetime as dt

    try:
        seconds = text.split(".", maxsplit=1)[0].rstrip("Z") + "Z"
        return dt.datetime.strptime(seconds, _UTC_FORMAT).replace(tzinfo=dt.timezone.utc)
    except (ValueError, AttributeError):
        return None


def format_age(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size and seconds % size == 0:
            return f"{int(seconds // size)}{unit}"
    return f"{seconds:g}s"


def parse_age(text: str) -> float:
    """'90', '90s', '15m', '24h', '7d' -> seconds; ValueError otherwise."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*", text)
    if not m:
        raise ValueError(f"not a duration: {text!r} (use e.g. 90s, 15m, 24h, 7d)")
    return float(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]
