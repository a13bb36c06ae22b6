"""An answer cache for a live endpoint: repeated queries are instant and survive an outage.

Where entries live is one small part (``Answers``): a SQLite file in ``$KGQA_HOME`` (one host), or Redis shared by
replicas on several hosts (``pipeline.shared.answers``)."""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from pipeline.errors import EndpointUnreachable
from pipeline.parts import KGWrapper, KnowledgeGraph
from pipeline.records import Rows
from pipeline.sparql.text import canonical, variables

SCHEMA = """CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY, endpoint TEXT, rows TEXT, stored REAL, used REAL)"""


class Answers(Protocol):
    """Cached results by endpoint and canonical query, with when each was stored; a backend may forget any entry."""

    def get(self, endpoint: str, key: str) -> tuple[Rows, float] | None: ...

    def put(self, endpoint: str, key: str, rows: Rows) -> None: ...


def dump_rows(rows: Rows) -> str:
    return json.dumps({"vars": rows.vars, "rows": rows.rows, "boolean": rows.boolean, "source": rows.source,
                       "caveat": rows.caveat})


def load_rows(blob: str) -> Rows:
    data = json.loads(blob)
    return Rows(data["vars"], data["rows"], data["boolean"], data["source"], data.get("caveat", ""))


class SqliteAnswers:
    """At most ``max_entries`` in a SQLite file, least recently used evicted first. The file may be shared by several
    processes on one host (or a volume with working file locks)."""

    def __init__(self, path: Path, max_entries: int) -> None:
        self.max_entries = max_entries
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), timeout=10, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
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


def _when(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M UTC")


class CachedKG(KGWrapper):
    """Wraps a live KG. Fresh entries (younger than ``ttl`` s) answer at once; when the endpoint is unreachable an
    entry of any age answers, saying from when."""

    def __init__(self, inner: KnowledgeGraph, answers: Answers, ttl: float) -> None:
        super().__init__(inner)
        self.answers = answers
        self.ttl = ttl

    def select(self, query: str) -> Rows:
        """Queries that differ only in blanks, case, prefixes or variable names share an entry, stored under the
        canonical variable names and handed back under the asking query's own."""
        key = f"{self.name}\n{canonical(query)}"  # the endpoint in the key itself: one SQLite row per endpoint
        names = variables(query)
        hit = self.answers.get(self.name, key)
        if hit is not None:
            hit = (renamed(hit[0], {f"v{i}": name for i, name in enumerate(names)}), hit[1])
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
        self.answers.put(self.name, key, renamed(rows, {name: f"v{i}" for i, name in enumerate(names)}))
        return rows


def renamed(rows: Rows, names: dict[str, str]) -> Rows:
    """``rows`` with its variables renamed by ``names`` (others kept)."""
    return replace(rows, vars=[names.get(v, v) for v in rows.vars],
                   rows=[{names.get(v, v): term for v, term in row.items()} for row in rows.rows])


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)
