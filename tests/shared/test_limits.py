"""The shared load limits on their own: the per-caller rate limit and the bounded worker pool."""
from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from pipeline.shared.limits import RateLimiter, WorkerPool


def test_rate_limiter_counts_per_user_in_a_sliding_window() -> None:
    now = [100.0]
    limiter = RateLimiter(2, 60, clock=lambda: now[0], max_keys=10_000)
    assert limiter.wait("U1") == 0 and limiter.wait("U1") == 0
    assert limiter.wait("U1") == pytest.approx(60) and limiter.wait("U2") == 0
    now[0] += 30
    assert limiter.wait("U1") == pytest.approx(30)
    now[0] += 30.5
    assert limiter.wait("U1") == 0


def test_rate_limiter_remembers_a_bounded_number_of_users() -> None:
    limiter = RateLimiter(1, 60, max_keys=10)
    for n in range(100):
        limiter.wait(f"U{n}")
    assert len(limiter._hits) == 10


@pytest.fixture
def pool() -> Iterator[WorkerPool]:
    pool = WorkerPool(workers=2, queue_size=1)
    yield pool
    pool.close()


def test_pool_runs_at_once_then_queues_then_turns_away(pool: WorkerPool) -> None:
    release = threading.Event()
    assert [pool.admit(), pool.admit(), pool.admit(), pool.admit()] == [0, 0, 1, None]
    for _ in range(3):
        pool.run(lambda: None if release.wait(10) else None)
    assert pool.stats() == {"workers": 2, "running": 2, "queued": 1, "queue_size": 1}
    release.set()
    assert pool.wait_idle(10) and pool.stats()["running"] == 0 and pool.submit(lambda: None)


def test_pool_frees_the_place_of_a_failing_job(pool: WorkerPool, caplog: pytest.LogCaptureFixture) -> None:
    def boom() -> None:
        raise RuntimeError("boom")

    assert pool.submit(boom) and pool.wait_idle(10)
    assert pool.stats()["running"] == 0 and "a worker job failed" in caplog.text


def test_pool_release_gives_back_an_unused_place(pool: WorkerPool) -> None:
    assert pool.admit() == 0
    pool.release()
    assert pool.wait_idle(1)
