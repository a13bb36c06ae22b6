"""What keeps the bot answering under load: event dedup, and the load limits it shares with the MCP server (a
per-user rate limit and a bounded worker pool, in ``pipeline.shared.limits``)."""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from pipeline.settings import Settings
from pipeline.shared.limits import MAX_KEYS, RateLimiter, WorkerPool

__all__ = ["MAX_KEYS", "Limits", "RateLimiter", "Seen", "WorkerPool"]
SEEN_EVENTS = 20_000  # event ids and message keys remembered for dedup (a retry comes within minutes)


@dataclass(frozen=True)
class Limits:
    """The bot's load knobs; ``workers`` and the question cap come from Settings."""

    queue_size: int  # questions waiting beyond the busy workers before new ones are turned away
    user_questions: int  # questions one user may ask ...
    user_window_s: float  # ... within this many seconds
    seen_events: int  # event ids and message keys remembered for dedup

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        return cls(queue_size=settings.queue_size, user_questions=settings.user_questions,
                   user_window_s=settings.user_window_s, seen_events=SEEN_EVENTS)


class Seen:
    """A bounded, thread-safe set of recent keys; ``first(key)`` is true exactly once per key while remembered."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._keys: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def first(self, key: str) -> bool:
        with self._lock:
            if key in self._keys:
                self._keys.move_to_end(key)
                return False
            self._keys[key] = None
            if len(self._keys) > self.maxsize:
                self._keys.popitem(last=False)
            return True

    def __len__(self) -> int:
        return len(self._keys)
