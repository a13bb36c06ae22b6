"""The deployment's waiting questions keep their contract in every backend: at most ``capacity`` places, each
saying how many wait ahead, and a place given back is free again. (Redis is the one backend: without it the
worker pool's own count is the queue, ``test_pool.py``.)"""
from __future__ import annotations

import pytest

from pipeline.state.admission.base import WaitingQueue
from pipeline.state.admission.redis import RedisQueue
from pipeline.state.link import RETRY_S, RedisLink


@pytest.fixture(params=["redis"])
def queue(request: pytest.FixtureRequest) -> WaitingQueue:
    return RedisQueue(RedisLink(request.getfixturevalue("redis_url"), 0.5, RETRY_S), 2, 60.0)


def test_places_up_to_capacity_each_counting_those_ahead(queue: WaitingQueue) -> None:
    first, second = queue.join(), queue.join()
    assert first is not None and second is not None and first[0] != second[0]
    assert (first[1], second[1]) == (0, 1) and queue.capacity == 2
    assert queue.join() is None


def test_a_place_given_back_is_free_again_and_leaving_twice_is_harmless(queue: WaitingQueue) -> None:
    first, _ = queue.join(), queue.join()
    assert first is not None and queue.join() is None
    queue.leave(first[0])
    queue.leave(first[0])
    again = queue.join()
    assert again is not None and again[1] == 1 and queue.join() is None
