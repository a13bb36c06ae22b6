"""The contract of thread memory, which every backend (this process, a SQLite file, Redis) fulfils."""
from __future__ import annotations

from typing import Any, Protocol

KEEP_TURNS = 10  # a thread remembers at most its last ten turns
TURN_TTL_S = 24 * 3600.0  # and forgets a thread untouched for a day


class ThreadMemory(Protocol):
    """A thread's turns as JSON-able dicts, oldest first; a thread key is e.g. ``"C123:1700000000.000100"``."""

    def turns(self, thread: str) -> list[dict[str, Any]]: ...

    def remember(self, thread: str, turn: dict[str, Any]) -> None: ...
