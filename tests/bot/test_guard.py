"""Dedup, the per-user rate limit and the bounded worker pool, on their own."""
from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from bot.guard import Limits, RateLimiter, Seen, WorkerPool
from pipeline.settings import Settings


def test_seen_says_first_exactly_once_even_under_a_race() -> None:
    seen = Seen(maxsize=100)
    results: list[bool] = []
    start = threading.Barrier(16)

    def hit() -> None:
        start.wait()
        results.append(seen.first("event:Ev1"))

    threads = [threading.Thread(target=hit) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(True) == 1 and len(results) == 16


def test_seen_is_bounded_and_forgets_the_oldest() -> None:
    seen = Seen(maxsize=3)
    assert all(seen.first(k) for k in "abcd")
    assert len(seen) == 3 and seen.first("a") and not seen.first("d")


def test_rate_limiter_counts_per_user_in_a_sliding_window() -> None:
    now = [100.0]
    limiter = RateLimiter(2, 60, clock=lambda: now[0])
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
    assert pool.stats()["running"] == 0 and "a bot job failed" in caplog.text


def test_pool_release_gives_back_an_unused_place(pool: WorkerPool) -> None:
    assert pool.admit() == 0
    pool.release()
    assert pool.wait_idle(1)


def test_limits_take_what_settings_offer(settings: Settings) -> None:
    assert Limits.from_settings(settings) == Limits()
