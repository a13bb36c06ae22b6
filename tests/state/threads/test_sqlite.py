"""Thread memory in a SQLite file: survives a restart, shared by two processes' handles, bounded, with a TTL."""
from __future__ import annotations

import sqlite3
from pathlib import Path

from pipeline.state.sqlite import BUSY_TIMEOUT_S
from pipeline.state.threads.base import KEEP_TURNS
from pipeline.state.threads.sqlite import SqliteThreadMemory, sqlite_memory


def test_turns_survive_a_restart_and_are_seen_by_another_handle(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    first = sqlite_memory(path)
    first.remember("C1:1.0", {"question": "Which models were evaluated on MAZEA?", "names": []})
    first.close()
    other = sqlite_memory(path)
    assert other.turns("C1:1.0") == [{"question": "Which models were evaluated on MAZEA?", "names": []}]
    assert other.turns("C1:2.0") == []


def test_each_thread_keeps_its_last_turns_and_old_ones_expire(tmp_path: Path) -> None:
    now = [1000.0]
    memory = SqliteThreadMemory(tmp_path / "t.sqlite3", KEEP_TURNS, 60, BUSY_TIMEOUT_S, clock=lambda: now[0])
    for n in range(KEEP_TURNS + 2):
        now[0] += 1
        memory.remember("a", {"n": n})
    memory.remember("b", {"n": 0})
    assert [t["n"] for t in memory.turns("a")] == list(range(2, KEEP_TURNS + 2))
    rows = sqlite3.connect(tmp_path / "t.sqlite3").execute("SELECT COUNT(*) FROM thread_turns").fetchone()[0]
    assert rows == KEEP_TURNS + 1  # bounded on disk too, not only when read
    now[0] += 61
    assert memory.turns("a") == [] and memory.turns("b") == []


def test_a_broken_database_loses_memory_not_the_question(tmp_path: Path) -> None:
    memory = sqlite_memory(tmp_path / "t.sqlite3")
    memory.close()
    memory.remember("a", {"n": 1})  # logged, not raised
    assert memory.turns("a") == []
