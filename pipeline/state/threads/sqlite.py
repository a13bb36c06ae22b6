"""Thread memory in a SQLite file (the bot's default: beside the dedup state, or under $KGQA_HOME), so a restart or
another replica on the same host or volume still knows a thread's earlier turns. Bounded: each thread keeps its last
``keep`` turns, and turns older than ``ttl`` seconds are swept away."""
from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pipeline.state.sqlite import BUSY_TIMEOUT_S, open_db
from pipeline.state.threads.base import KEEP_TURNS, TURN_TTL_S

log = logging.getLogger("kgqa.conversation")
SCHEMA = ("CREATE TABLE IF NOT EXISTS thread_turns (thread TEXT NOT NULL, at REAL NOT NULL, turn TEXT NOT NULL); "
          "CREATE INDEX IF NOT EXISTS thread_turns_by_thread ON thread_turns (thread, at)")
SWEEP_EVERY = 200  # turns remembered between sweeps of expired ones


class SqliteThreadMemory:
    """``ThreadMemory`` in one table; a database failure loses memory (the question is answered as it stands), never
    the answer."""

    def __init__(self, path: Path, keep: int, ttl: float, busy_timeout: float,
                 clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.keep = keep
        self.ttl = ttl
        self.clock = clock
        self._db = open_db(path, busy_timeout)
        self._db.executescript(SCHEMA)
        self._lock = threading.Lock()
        self._written = 0

    def turns(self, thread: str) -> list[dict[str, Any]]:
        try:
            with self._lock:
                rows = self._db.execute(
                    "SELECT turn FROM thread_turns WHERE thread = ? AND at >= ? ORDER BY at DESC, rowid DESC LIMIT ?",
                    (thread, self.clock() - self.ttl, self.keep)).fetchall()
        except sqlite3.Error as exc:
            log.error("thread memory %s could not be read (%s); answering as a fresh question", self.path, exc)
            return []
        out = []
        for (text,) in reversed(rows):
            try:
                out.append(dict(json.loads(text)))
            except (ValueError, TypeError):
                log.warning("an unreadable turn in thread %s was skipped", thread)
        return out

    def remember(self, thread: str, turn: dict[str, Any]) -> None:
        now = self.clock()
        try:
            with self._lock, self._db:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("INSERT INTO thread_turns (thread, at, turn) VALUES (?, ?, ?)",
                                 (thread, now, json.dumps(turn, ensure_ascii=False)))
                self._db.execute("DELETE FROM thread_turns WHERE thread = ? AND rowid NOT IN (SELECT rowid FROM "
                                 "thread_turns WHERE thread = ? ORDER BY at DESC, rowid DESC LIMIT ?)",
                                 (thread, thread, self.keep))
                self._written += 1
                if self._written % SWEEP_EVERY == 0:
                    self._db.execute("DELETE FROM thread_turns WHERE at < ?", (now - self.ttl,))
        except sqlite3.Error as exc:
            log.error("thread memory %s could not be written (%s); this turn is not remembered", self.path, exc)

    def close(self) -> None:
        with self._lock:
            self._db.close()


def sqlite_memory(path: Path) -> SqliteThreadMemory:
    """Thread memory in the SQLite file at ``path`` with the project's bounds (the bot, alone or beside replicas)."""
    return SqliteThreadMemory(path, KEEP_TURNS, TURN_TTL_S, BUSY_TIMEOUT_S)
