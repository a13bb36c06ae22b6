"""This process's places for work: a bounded worker pool shared by every front end (the Slack bot, the MCP
server)."""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

log = logging.getLogger("kgqa")


class WorkerPool:
    """``workers`` threads and a queue of at most ``queue_size`` jobs behind them.

    ``admit()`` takes a place (or None when full) and says how many jobs are ahead; ``run(job)`` then starts it,
    ``release()`` gives the place back unused.
    """

    def __init__(self, workers: int, queue_size: int) -> None:
        self.workers = max(1, workers)
        self.queue_size = max(0, queue_size)
        self._executor = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="kgqa-worker")
        self._cond = threading.Condition()
        self._pending = 0  # admitted and not finished: running + queued

    def admit(self) -> int | None:
        with self._cond:
            if self._pending >= self.workers + self.queue_size:
                return None
            ahead = max(0, self._pending - self.workers + 1)
            self._pending += 1
            return ahead

    def release(self) -> None:
        with self._cond:
            self._pending -= 1
            self._cond.notify_all()

    def run(self, job: Callable[[], None]) -> None:
        """Start an admitted job; an exception it lets out is logged, never lost."""
        def wrapped() -> None:
            try:
                job()
            except Exception:
                log.exception("a worker job failed")
            finally:
                self.release()

        self._executor.submit(wrapped)

    def submit(self, job: Callable[[], None]) -> bool:
        """Admit and run in one step; False when full."""
        if self.admit() is None:
            return False
        self.run(job)
        return True

    def stats(self) -> dict[str, int]:
        with self._cond:
            pending = self._pending
        return {"workers": self.workers, "running": min(pending, self.workers),
                "queued": max(0, pending - self.workers), "queue_size": self.queue_size}

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Block until no job is admitted or running (for shutdown, tests and the benchmark)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._pending:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
            return True

    def close(self) -> None:
        self._executor.shutdown(wait=True)
