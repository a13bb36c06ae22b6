"""This process's worker pool: runs at once, then queues, then turns away; a failing job frees its place."""
from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from pipeline.state.admission.pool import WorkerPool


@pytest.fixture
def pool() -> Iterator[WorkerPool]:
    pool = WorkerPool(workers=2, queue_size=1)
    yield pool
    pool.close()


def test_pool_runs_at_once_then_queues_then_turns_away(pool: WorkerPool) -> None:
    release = threading.Event()

    def held() -> None:
        release.wait(10)

    assert [pool.admit(), pool.admit(), pool.admit(), pool.admit()] == [0, 0, 1, None]
    for _ in range(3):
        pool.run(held)
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
