"""The shared dedup store: one claim per key across processes and restarts, forgotten after its TTL."""
from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.limits import SEEN_EVENTS
from bot.state.dedup.sqlite import SqliteSeen
from pipeline.state.sqlite import BUSY_TIMEOUT_S
from standins.fakes import Clock
from standins.harness import STORY_CLOZE, Harness, is_answer


def test_a_key_is_first_once_until_its_ttl_passes(tmp_path: Path) -> None:
    clock = Clock()
    seen = SqliteSeen(tmp_path / "dedup.sqlite3", 60, BUSY_TIMEOUT_S, SEEN_EVENTS, clock=clock)
    assert seen.first("event:Ev1") and not seen.first("event:Ev1")
    clock.now += 59
    assert not seen.first("event:Ev1")
    clock.now += 2  # 61 s after the claim: Slack stopped retrying long ago, the key may be used afresh
    assert seen.first("event:Ev1") and len(seen) == 1


def test_claims_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "shared" / "dedup.sqlite3"
    first = SqliteSeen(path, 3600.0, BUSY_TIMEOUT_S, SEEN_EVENTS)
    assert first.first("event:Ev1")
    first.close()
    assert not SqliteSeen(path, 3600.0, BUSY_TIMEOUT_S, SEEN_EVENTS).first("event:Ev1")


def test_many_connections_racing_for_the_same_keys_claim_each_once(tmp_path: Path) -> None:
    path = tmp_path / "dedup.sqlite3"
    # one connection each, as separate processes would have
    stores = [SqliteSeen(path, 3600.0, BUSY_TIMEOUT_S, SEEN_EVENTS) for _ in range(6)]
    keys = [f"event:Ev{i}" for i in range(200)]
    wins: Counter[str] = Counter()
    lock = threading.Lock()
    start = threading.Barrier(len(stores))

    def claim(store: SqliteSeen) -> None:
        start.wait()
        mine = [k for k in keys if store.first(k)]
        with lock:
            wins.update(mine)

    threads = [threading.Thread(target=claim, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert set(wins) == set(keys) and set(wins.values()) == {1}


def test_a_failing_database_falls_back_to_this_process_and_says_so(tmp_path: Path,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    seen = SqliteSeen(tmp_path / "dedup.sqlite3", 3600.0, BUSY_TIMEOUT_S, SEEN_EVENTS)
    assert seen.first("event:Ev1")
    seen.close()  # from now on every statement fails
    assert not seen.first("event:Ev1")  # still remembered here
    assert seen.first("event:Ev2") and not seen.first("event:Ev2")
    assert "deduplicating in this process only" in caplog.text


def test_two_bots_sharing_the_file_answer_an_event_once(start_bot: Callable[..., Harness], tmp_path: Path) -> None:
    path = tmp_path / "shared" / "dedup.sqlite3"
    a, b = start_bot(dedup_path=path), start_bot(dedup_path=path)
    ts = a.mention(STORY_CLOZE, event_id="Ev-both")
    b.mention(STORY_CLOZE, ts=ts, event_id="Ev-both")
    a.answers()
    a.pool.wait_idle(10)
    b.pool.wait_idle(10)
    assert sum(is_answer(c) for c in a.slack.calls) == 1  # one Slack stand-in behind both bots
