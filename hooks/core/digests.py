"""SHA-256 without loading OpenSSL: ``hashlib`` loads libcrypto (~4 ms of a hook's start-up)
for every digest; CPython's own implementation answers the same, and hashlib is the fallback
where it is missing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol
from typing import cast


class Hash(Protocol):
    def update(self, data: bytes, /) -> None: ...

    def hexdigest(self) -> str: ...


_constructor: list[Callable[[bytes], Hash]] = []


def sha256(data: bytes = b"") -> Hash:
    """A new SHA-256 hash object of DATA."""
    if not _constructor:
        try:
            from _sha2 import sha256 as builtin  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            try:
                from _sha256 import sha256 as builtin  # type: ignore[import-not-found,no-redef,unused-ignore]
            except ImportError:
                from hashlib import sha256 as builtin  # type: ignore[assignment,unused-ignore]
        _constructor.append(cast(Callable[[bytes], Hash], builtin))
    return _constructor[0](data)
