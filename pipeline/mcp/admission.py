"""How a tool call gets a worker: the caller's rate limit, then the caller's share of the workers, then a place in
the bounded pool (shared with the bot when both run in one process); the blocking work runs there and is awaited."""
from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections import Counter
from collections.abc import Callable
from typing import TypeVar

from pipeline.mcp.tools import ToolRefusal
from pipeline.state.admission.pool import WorkerPool
from pipeline.state.limits.base import RateLimit

T = TypeVar("T")
BUSY = "the server is answering as many calls as it can right now; try again in a minute"


class Admission:
    """Every tool call: rate-limited per caller; at most ``share`` calls of one caller in the pool at once (half the
    workers, at least one), so one session's load cannot take every worker; then a place in the pool or a refusal."""

    def __init__(self, pool: WorkerPool, limiter: RateLimit, share: int | None = None) -> None:
        self.pool = pool
        self.limiter = limiter
        self.share = share or max(1, pool.workers // 2)
        self._held: Counter[str] = Counter()
        self._lock = threading.Lock()

    async def run(self, caller: str, work: Callable[[], T]) -> T:
        wait = self.limiter.wait(caller)
        if wait:
            raise ToolRefusal(f"too many calls: at most {self.limiter.limit} every {self.limiter.window:.0f} s; "
                              f"try again in {wait:.0f} s")
        with self._lock:
            if self._held[caller] >= self.share:
                raise ToolRefusal(f"this session already has {self._held[caller]} call(s) running, the most one "
                                  "session may; wait for them to finish")
            if self.pool.admit() is None:
                raise ToolRefusal(BUSY)
            self._held[caller] += 1
        done: concurrent.futures.Future[T] = concurrent.futures.Future()
        done.add_done_callback(lambda _: self._let_go(caller))  # when the work ends, or is cancelled while queued
        try:
            self.pool.run(lambda: _work_into(done, work))
        except BaseException:
            self.pool.release()
            done.cancel()
            raise
        return await asyncio.wrap_future(done)

    def _let_go(self, caller: str) -> None:
        with self._lock:
            self._held[caller] -= 1
            if not self._held[caller]:
                del self._held[caller]


def _work_into(done: concurrent.futures.Future[T], work: Callable[[], T]) -> None:
    """In a worker: run ``work`` into ``done``, unless the caller went away while the call was queued."""
    if not done.set_running_or_notify_cancel():
        return
    try:
        done.set_result(work())
    except BaseException as exc:  # handed to the awaiting call, which reports it
        done.set_exception(exc)
