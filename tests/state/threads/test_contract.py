"""Every thread-memory backend keeps the same contract: a thread's turns oldest first, at most ``keep``, threads kept
apart, and a caller never shares a turn with the store."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.state.link import RETRY_S, RedisLink
from pipeline.state.sqlite import BUSY_TIMEOUT_S
from pipeline.state.threads.base import TURN_TTL_S, ThreadMemory
from pipeline.state.threads.memory import MAX_THREADS, ProcessThreadMemory
from pipeline.state.threads.redis import RedisThreadMemory
from pipeline.state.threads.sqlite import SqliteThreadMemory

KEEP = 3
THREAD = "C123:1700000000.000100"


@pytest.fixture(params=["memory", "sqlite", "redis"])
def memory(request: pytest.FixtureRequest, tmp_path: Path) -> ThreadMemory:
    if request.param == "memory":
        return ProcessThreadMemory(KEEP, TURN_TTL_S, MAX_THREADS)
    if request.param == "sqlite":
        return SqliteThreadMemory(tmp_path / "threads.sqlite3", KEEP, TURN_TTL_S, BUSY_TIMEOUT_S)
    return RedisThreadMemory(RedisLink(request.getfixturevalue("redis_url"), 0.5, RETRY_S), KEEP, TURN_TTL_S, None)


def test_a_new_thread_has_no_turns_then_its_last_ones_oldest_first(memory: ThreadMemory) -> None:
    assert memory.turns(THREAD) == []
    for n in range(KEEP + 2):
        memory.remember(THREAD, {"question": f"q{n}", "names": [{"label": "SQuAD"}]})
    assert memory.turns(THREAD) == [{"question": f"q{n}", "names": [{"label": "SQuAD"}]} for n in range(2, KEEP + 2)]


def test_threads_are_kept_apart(memory: ThreadMemory) -> None:
    memory.remember(THREAD, {"question": "mine"})
    memory.remember("C123:other", {"question": "theirs"})
    assert memory.turns(THREAD) == [{"question": "mine"}] and memory.turns("C123:other") == [{"question": "theirs"}]


def test_a_turn_changed_by_its_caller_is_not_changed_in_the_store(memory: ThreadMemory) -> None:
    turn = {"question": "q", "names": ["SQuAD"]}
    memory.remember(THREAD, turn)
    turn["names"].append("written after")
    memory.turns(THREAD)[0]["names"].append("read and changed")
    assert memory.turns(THREAD) == [{"question": "q", "names": ["SQuAD"]}]
