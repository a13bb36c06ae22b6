"""Thread memory in Redis: any replica reads a thread's turns oldest first, at most KEEP_TURNS, forgotten after
TURN_TTL_S; with Redis down the fallback (or nothing) serves."""
from __future__ import annotations

from typing import Any

from redis import Redis

from pipeline.state.link import RETRY_S, RedisLink
from pipeline.state.threads.base import KEEP_TURNS, TURN_TTL_S, ThreadMemory
from pipeline.state.threads.redis import RedisThreadMemory
from standins.redis import RedisServer

THREAD = "C123:1700000000.000100"


class DictMemory:
    def __init__(self) -> None:
        self.threads: dict[str, list[dict[str, Any]]] = {}

    def turns(self, thread: str) -> list[dict[str, Any]]:
        return list(self.threads.get(thread, []))

    def remember(self, thread: str, turn: dict[str, Any]) -> None:
        self.threads.setdefault(thread, []).append(turn)


def test_turns_written_on_one_replica_are_read_on_another_oldest_first_and_bounded(redis_url: str) -> None:
    writer: ThreadMemory = RedisThreadMemory(RedisLink(redis_url, 0.5, RETRY_S), KEEP_TURNS, TURN_TTL_S, None)
    reader: ThreadMemory = RedisThreadMemory(RedisLink(redis_url, 0.5, RETRY_S), KEEP_TURNS, TURN_TTL_S, None)
    for n in range(KEEP_TURNS + 3):
        writer.remember(THREAD, {"question": f"q{n}", "sparql": f"SELECT {n}"})
    turns = reader.turns(THREAD)
    assert [t["question"] for t in turns] == [f"q{n}" for n in range(3, KEEP_TURNS + 3)]
    assert reader.turns("C123:other") == []
    with Redis.from_url(redis_url, decode_responses=True) as r:
        key = "kgqa:thread:" + THREAD
        assert r.llen(key) == KEEP_TURNS and TURN_TTL_S - 5 < r.ttl(key) <= TURN_TTL_S


def test_a_thread_untouched_for_its_ttl_is_forgotten(redis_url: str) -> None:
    memory = RedisThreadMemory(RedisLink(redis_url, 0.5, RETRY_S), KEEP_TURNS, 1, None)
    memory.remember(THREAD, {"question": "q"})
    with Redis.from_url(redis_url, decode_responses=True) as r:
        assert 0 < r.pttl("kgqa:thread:" + THREAD) <= 1000  # Redis deletes it when that runs out


def test_with_redis_down_the_fallback_serves(fresh_redis: RedisServer) -> None:
    local = DictMemory()
    memory = RedisThreadMemory(RedisLink(fresh_redis.url, 0.3, RETRY_S), KEEP_TURNS, TURN_TTL_S, local)
    memory.remember(THREAD, {"question": "before"})
    fresh_redis.stop()
    memory.remember(THREAD, {"question": "during"})
    assert memory.turns(THREAD) == [{"question": "during"}]
    assert RedisThreadMemory(RedisLink(fresh_redis.url, 0.3, RETRY_S), KEEP_TURNS, TURN_TTL_S, None).turns(THREAD) == []
