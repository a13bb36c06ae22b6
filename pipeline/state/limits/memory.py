"""A per-caller rate limit in this process (every front end: the Slack bot, the MCP server; the fallback of the Redis
one)."""
from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

MAX_KEYS = 10_000  # keys remembered by a RateLimiter; the oldest is forgotten first


class RateLimiter:
    """At most ``limit`` events per key within a sliding ``window`` of seconds; remembers a bounded number of keys."""

    def __init__(self, limit: int, window: float, max_keys: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.max_keys = max_keys
        self.clock = clock
        self._hits: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def wait(self, key: str) -> float:
        """0 and the event counted when allowed, else the seconds until it would be."""
        now = self.clock()
        with self._lock:
            hits = self._hits.setdefault(key, deque())
            self._hits.move_to_end(key)
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                return max(0.001, hits[0] + self.window - now)
            hits.append(now)
            while len(self._hits) > self.max_keys:
                self._hits.popitem(last=False)
            return 0.0
