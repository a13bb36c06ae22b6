"""The contract of the deployment's waiting questions: a bounded count that every replica's queue joins."""
from __future__ import annotations

from typing import Protocol


class WaitingQueue(Protocol):
    """At most ``capacity`` questions wait at once, over every replica."""

    capacity: int

    def join(self) -> tuple[str, int] | None:
        """A place (its token, and how many questions wait ahead) or None when the queue is full."""
        ...

    def leave(self, token: str) -> None:
        """Give the place back (the question started, or was never queued)."""
        ...
