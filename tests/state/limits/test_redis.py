"""Rate limits in Redis: a person's questions are counted over every replica; Redis down: local counters."""
from __future__ import annotations

import threading

from redis import Redis

from pipeline.state.limits.redis import RedisRateLimiter
from pipeline.state.link import RETRY_S, RedisLink
from standins.redis import RedisServer


def test_a_persons_limit_holds_across_replicas(redis_url: str) -> None:
    a, b = (RedisRateLimiter(RedisLink(redis_url, 0.5, RETRY_S), 3, 60) for _ in range(2))
    assert [a.wait("U1"), b.wait("U1"), a.wait("U1")] == [0.0, 0.0, 0.0]
    assert 59 < b.wait("U1") <= 60 and a.wait("U1") > 0
    assert b.wait("U2") == 0.0  # another person has a window of their own
    with Redis.from_url(redis_url, decode_responses=True) as r:
        assert r.zcard("kgqa:rate:U1") == 3 and 0 < r.pttl("kgqa:rate:U1") <= 60_000


def test_the_window_slides(redis_url: str) -> None:
    limiter = RedisRateLimiter(RedisLink(redis_url, 0.5, RETRY_S), 1, 0.2)
    assert limiter.wait("U1") == 0.0
    wait = limiter.wait("U1")
    assert 0 < wait <= 0.2
    with Redis.from_url(redis_url) as r:  # the window's key expires with the window: poll until Redis dropped it
        while r.exists("kgqa:rate:U1"):
            threading.Event().wait(0.01)  # between polls of the condition above
    assert limiter.wait("U1") == 0.0


def test_with_redis_down_local_counters_hold_this_replicas_share(fresh_redis: RedisServer) -> None:
    limiter = RedisRateLimiter(RedisLink(fresh_redis.url, 0.3, RETRY_S), 3, 60)
    assert limiter.wait("U1") == limiter.wait("U1") == 0.0
    fresh_redis.stop()
    assert limiter.wait("U1") == 0.0  # the third, counted locally
    assert limiter.wait("U1") > 0
