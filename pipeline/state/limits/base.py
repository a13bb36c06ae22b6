"""The contract of a rate limit, whichever backend counts."""
from __future__ import annotations

from typing import Protocol


class RateLimit(Protocol):
    """At most ``limit`` events per key within a sliding ``window`` of seconds."""

    limit: int
    window: float

    def wait(self, key: str) -> float:
        """0 and the event counted when allowed, else the seconds until it would be."""
        ...
