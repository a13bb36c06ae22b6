"""Every dedup backend keeps the same contract: ``first(key)`` is true exactly once per key, also when many threads
ask at once, and keys are counted."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest

from bot.limits import SEEN_EVENTS
from bot.state.dedup.base import Dedup
from bot.state.dedup.memory import Seen
from bot.state.dedup.redis import RedisSeen
from bot.state.dedup.sqlite import SqliteSeen
from pipeline.state.link import RETRY_S, RedisLink
from pipeline.state.sqlite import BUSY_TIMEOUT_S


@pytest.fixture(params=["memory", "sqlite", "redis"])
def seen(request: pytest.FixtureRequest, tmp_path: Path) -> Dedup:
    if request.param == "memory":
        return Seen(SEEN_EVENTS)
    if request.param == "sqlite":
        return SqliteSeen(tmp_path / "dedup.sqlite3", 3600.0, BUSY_TIMEOUT_S, SEEN_EVENTS)
    return RedisSeen(RedisLink(request.getfixturevalue("redis_url"), 0.5, RETRY_S), 3600.0, SEEN_EVENTS)


def test_first_is_true_once_per_key_and_keys_are_counted(seen: Dedup) -> None:
    assert len(seen) == 0
    assert seen.first("event:Ev1") and not seen.first("event:Ev1") and not seen.first("event:Ev1")
    assert seen.first("event:Ev2")
    assert len(seen) == 2


def test_of_many_threads_asking_at_once_one_is_first(seen: Dedup) -> None:
    start = threading.Barrier(16)
    results: list[bool] = []

    def hit() -> None:
        start.wait()
        results.append(seen.first("event:Ev3"))

    threads = [threading.Thread(target=hit) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False] * 15 + [True]
