"""The contract of event dedup, whichever backend remembers: Slack retries an event it thinks was missed, and two
replicas may receive the same one; it is answered once."""
from __future__ import annotations

from typing import Protocol


class Dedup(Protocol):
    """``first(key)`` is true for exactly one caller per key while the key is remembered."""

    def first(self, key: str) -> bool: ...

    def __len__(self) -> int: ...
