"""Dedup in Redis: of replicas racing for one event exactly one wins; with Redis down each replica decides alone and
logs the event id; when Redis returns, what was claimed meanwhile is shared."""
from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor

import pytest
from redis import Redis

from bot.limits import SEEN_EVENTS
from bot.state.dedup.redis import RedisSeen
from pipeline.state.link import RETRY_S, RedisLink
from standins.redis import RedisServer


def test_of_many_replicas_racing_for_each_key_exactly_one_wins(redis_url: str) -> None:
    replicas = [RedisSeen(RedisLink(redis_url, 0.5, RETRY_S), 3600.0, SEEN_EVENTS) for _ in range(4)]
    keys = [f"event:Ev{n}" for n in range(200)]
    with ThreadPoolExecutor(max_workers=16) as pool:
        wins = list(pool.map(lambda job: job[0].first(job[1]), [(r, k) for k in keys for r in replicas]))
    assert sum(wins) == len(keys)
    assert [sum(wins[i * 4:(i + 1) * 4]) for i in range(len(keys))] == [1] * len(keys)
    with Redis.from_url(redis_url, decode_responses=True) as r:
        assert all(0 < r.ttl(k) <= 3600 for k in r.keys("kgqa:seen:*"))


def test_redis_down_then_back(fresh_redis: RedisServer, caplog: pytest.LogCaptureFixture) -> None:
    a, b = RedisSeen(RedisLink(fresh_redis.url, timeout=0.3, retry_s=0), 3600.0, SEEN_EVENTS), \
        RedisSeen(RedisLink(fresh_redis.url, timeout=0.3, retry_s=0), 3600.0, SEEN_EVENTS)
    assert a.first("event:Ev0") and not b.first("event:Ev0")
    fresh_redis.stop()
    with caplog.at_level(logging.WARNING, logger="kgqa.bot"):
        assert a.first("event:Ev1") and not a.first("event:Ev1")  # this process still knows what it saw
        assert a.first("event:Ev2") and b.first("event:Ev2")  # both answer: the duplicate is logged by both
    assert caplog.text.count("possible duplicate: event:Ev2") == 2 and "possible duplicate: event:Ev1" in caplog.text
    fresh_redis.start()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="kgqa.bot"):
        assert a.first("event:Ev3")  # the first call after the outage writes a's claims to Redis first
        assert not b.first("event:Ev1")  # a's claim during the outage is known to b now
        assert not b.first("event:Ev3")
        assert b.link.ping()  # b's recovery writes its claims: Ev2 was a's too
    assert "event:Ev2 was also claimed by another replica" in caplog.text
