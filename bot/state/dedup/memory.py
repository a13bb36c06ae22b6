"""Event dedup in this process (a bot alone, and the fallback of the shared backends)."""
from __future__ import annotations

import threading
from collections import OrderedDict


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
