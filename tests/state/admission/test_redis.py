"""The queue's admission count in Redis: KGQA_QUEUE_SIZE bounds the questions waiting on all replicas together; a
waiting question's place is given back when it starts, or when its lease ends (a replica that died)."""
from __future__ import annotations

import threading
import time

from redis import Redis

from pipeline.state.admission.redis import KEY, RedisQueue
from pipeline.state.link import RETRY_S, RedisLink


def test_the_deployments_queue_is_bounded_and_places_are_given_back(redis_url: str) -> None:
    a, b = (RedisQueue(RedisLink(redis_url, 0.5, RETRY_S), 2, 60) for _ in range(2))
    first, second = a.join(), b.join()
    assert first is not None and second is not None and (first[1], second[1]) == (0, 1)
    assert a.join() is None
    b.leave(first[0])  # started on whichever replica: any replica may give it back
    assert a.join() is not None
    with Redis.from_url(redis_url, decode_responses=True) as r:
        assert r.zcard(KEY) == 2 and 0 < r.pttl(KEY) <= 60_000


def test_a_place_whose_replica_died_is_freed_when_its_lease_ends(redis_url: str) -> None:
    queue = RedisQueue(RedisLink(redis_url, 0.5, RETRY_S), 1, 1)
    assert queue.join() is not None and queue.join() is None
    deadline = time.monotonic() + 10
    while queue.join() is None:  # the lease (1 s) ends; polled, not slept
        assert time.monotonic() < deadline
        threading.Event().wait(0.05)
