"""Thread memory in this process (``kgqa chat``, evaluation, a bot without a shared store): bounded in threads and
turns, and a thread untouched for ``ttl`` seconds is forgotten."""
from __future__ import annotations

import copy
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from pipeline.state.threads.base import KEEP_TURNS, TURN_TTL_S

MAX_THREADS = 10_000  # the least recently used thread goes first beyond this


class ProcessThreadMemory:
    """``ThreadMemory`` in a dict; turns are copied in and out, so a caller never shares them with another thread."""

    def __init__(self, keep: int, ttl: float, max_threads: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.keep = keep
        self.ttl = ttl
        self.max_threads = max_threads
        self.clock = clock
        self._threads: OrderedDict[str, tuple[float, list[dict[str, Any]]]] = OrderedDict()
        self._lock = threading.Lock()

    def turns(self, thread: str) -> list[dict[str, Any]]:
        with self._lock:
            found = self._threads.get(thread)
            if found is None:
                return []
            if self.clock() - found[0] > self.ttl:
                del self._threads[thread]
                return []
            return copy.deepcopy(found[1])

    def remember(self, thread: str, turn: dict[str, Any]) -> None:
        with self._lock:
            now = self.clock()
            _, turns = self._threads.pop(thread, (now, []))
            if turns and now - _ > self.ttl:
                turns = []
            turns = (turns + [copy.deepcopy(turn)])[-self.keep:]
            self._threads[thread] = (now, turns)
            while len(self._threads) > self.max_threads:
                self._threads.popitem(last=False)


def local_memory() -> ProcessThreadMemory:
    """This process's thread memory with the project's bounds (``kgqa chat``, evaluation, a bot's fallback)."""
    return ProcessThreadMemory(KEEP_TURNS, TURN_TTL_S, MAX_THREADS)
