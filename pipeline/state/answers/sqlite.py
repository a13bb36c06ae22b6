"""The answer cache in a SQLite file in ``$KGQA_HOME`` (one host)."""
from __future__ import annotations

import threading
import time
from pathlib import Path

from pipeline.records import Rows
from pipeline.state.answers.base import dump_rows, load_rows
from pipeline.state.sqlite import BUSY_TIMEOUT_S, open_db

SCHEMA = """CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY, endpoint TEXT, rows TEXT, stored REAL, used REAL)"""


class SqliteAnswers:
    """At most ``max_entries`` in a SQLite file, least recently used evicted first. The file may be shared by several
    processes on one host (or a volume with working file locks)."""

    def __init__(self, path: Path, max_entries: int) -> None:
        self.max_entries = max_entries
        self._db = open_db(path, BUSY_TIMEOUT_S)
        self._db.execute(SCHEMA)
        self._lock = threading.Lock()

    def get(self, endpoint: str, key: str) -> tuple[Rows, float] | None:
        with self._lock:
            row = self._db.execute("SELECT rows, stored FROM answers WHERE key = ? AND endpoint = ?",
                                   (key, endpoint)).fetchone()
            if row is None:
                return None
            self._db.execute("UPDATE answers SET used = ? WHERE key = ? AND endpoint = ?", (time.time(), key, endpoint))
        return load_rows(row[0]), row[1]

    def put(self, endpoint: str, key: str, rows: Rows) -> None:
        now = time.time()
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?)",
                             (key, endpoint, dump_rows(rows), now, now))
            self._db.execute("DELETE FROM answers WHERE key IN (SELECT key FROM answers ORDER BY used DESC "
                             "LIMIT -1 OFFSET ?)", (self.max_entries,))
