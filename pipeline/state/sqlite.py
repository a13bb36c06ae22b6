"""The one way a SQLite file of kept state is opened, by every SQLite backend."""
from __future__ import annotations

import sqlite3
from pathlib import Path

BUSY_TIMEOUT_S = 10.0  # how long a write waits for another process's, before it counts as a database failure


def open_db(path: Path, busy_timeout: float) -> sqlite3.Connection:
    """A SQLite file shared by threads and processes: autocommit, WAL (readers and one writer together), and
    synchronous=NORMAL (with WAL, a committed write survives a process crash)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(str(path), timeout=busy_timeout, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    return db
