"""Event dedup that survives restarts and is shared by replicas: one small SQLite table on a shared path.

Each key is claimed by one atomic statement (insert, or take over an entry older than the TTL), so of several
processes receiving the same event exactly one is told it came first. WAL lets readers and the one writer at a time
proceed together. SQLite's locking needs one host (or a volume whose locks work, not NFS); replicas on several hosts
need a shared database server instead.
"""
from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from bot.state.dedup.memory import Seen
from pipeline.state.sqlite import open_db

log = logging.getLogger("kgqa.bot")
SCHEMA = "CREATE TABLE IF NOT EXISTS seen (key TEXT PRIMARY KEY, at REAL NOT NULL)"
CLAIM = ("INSERT INTO seen (key, at) VALUES (?, ?) "
         "ON CONFLICT (key) DO UPDATE SET at = excluded.at WHERE seen.at < ?")
PURGE_EVERY = 500  # claims between sweeps of expired keys


class SqliteSeen:
    """``first(key)`` is true for exactly one caller across every process using ``path``, until ``ttl`` s pass.

    If the database fails (disk full, locked past the timeout) it falls back to an in-process ``Seen`` and logs:
    a rare duplicate answer is better than a question left unanswered."""

    def __init__(self, path: Path, ttl: float, busy_timeout: float, maxsize: int,
                 clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.ttl = ttl
        self.clock = clock
        self._db = open_db(path, busy_timeout)  # WAL + NORMAL: a claim survives a process crash
        self._db.execute(SCHEMA)
        self._lock = threading.Lock()
        self._claims = 0
        self._local = Seen(maxsize)

    def first(self, key: str) -> bool:
        now = self.clock()
        try:
            with self._lock:
                claimed = self._db.execute(CLAIM, (key, now, now - self.ttl)).rowcount == 1
                self._claims += 1
                if self._claims % PURGE_EVERY == 0:
                    self._db.execute("DELETE FROM seen WHERE at < ?", (now - self.ttl,))
        except sqlite3.Error as exc:
            log.error("the shared dedup store %s failed (%s); deduplicating in this process only", self.path, exc)
            return self._local.first(key)
        self._local.first(key)  # so a later fallback still knows what this process saw
        return claimed

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM seen WHERE at >= ?",
                                        (self.clock() - self.ttl,)).fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
