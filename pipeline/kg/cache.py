"""An on-disk answer cache for a live endpoint: repeated queries are instant and survive an outage."""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

from pipeline.errors import EndpointUnreachable
from pipeline.parts import KnowledgeGraph
from pipeline.records import Rows
from pipeline.sparql.text import canonical

SCHEMA = """CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY, endpoint TEXT, rows TEXT, stored REAL, used REAL)"""


def _when(ts: float) -> str:
    return datetime.fromtimestamp(ts, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


class CachedKG:
    """Wraps a live KG. Fresh entries (younger than ``ttl`` s) answer at once; when the endpoint is unreachable an
    entry of any age answers, saying from when. At most ``max_entries``, least recently used evicted first. The
    SQLite file may be shared by several processes (bot replicas on one host or a shared volume)."""

    def __init__(self, inner: KnowledgeGraph, path: Path, ttl: float = 86400.0, max_entries: int = 5000) -> None:
        self.inner = inner
        self.name = inner.name
        self.ttl = ttl
        self.max_entries = max_entries
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), timeout=10, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(SCHEMA)
        self._lock = threading.Lock()

    def _get(self, key: str) -> tuple[Rows, float] | None:
        with self._lock:
            row = self._db.execute("SELECT rows, stored FROM answers WHERE key = ? AND endpoint = ?",
                                   (key, self.name)).fetchone()
            if row is None:
                return None
            self._db.execute("UPDATE answers SET used = ? WHERE key = ? AND endpoint = ?", (time.time(), key, self.name))
        data = json.loads(row[0])
        return Rows(data["vars"], data["rows"], data["boolean"], data["source"], data.get("caveat", "")), row[1]

    def _put(self, key: str, rows: Rows) -> None:
        now = time.time()
        blob = json.dumps({"vars": rows.vars, "rows": rows.rows, "boolean": rows.boolean, "source": rows.source,
                           "caveat": rows.caveat})
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?)", (key, self.name, blob, now, now))
            self._db.execute("DELETE FROM answers WHERE key IN (SELECT key FROM answers ORDER BY used DESC "
                             "LIMIT -1 OFFSET ?)", (self.max_entries,))

    def select(self, query: str) -> Rows:
        key = canonical(query)
        hit = self._get(key)
        if hit and time.time() - hit[1] < self.ttl:
            rows, stored = hit
            return replace(rows, caveat=_join(rows.caveat, f"cached result from {_when(stored)}"))
        try:
            rows = self.inner.select(query)
        except EndpointUnreachable as exc:
            if hit is None:
                raise
            rows, stored = hit
            return replace(rows, caveat=_join(rows.caveat, f"{exc}; showing the cached result from {_when(stored)}"))
        self._put(key, rows)
        return rows

    def ping(self, timeout: float | None = None) -> bool:
        probe = getattr(self.inner, "ping", None)
        return bool(probe(timeout)) if probe else True


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)
