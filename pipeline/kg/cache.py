"""An answer cache for a live endpoint: repeated queries are instant and survive an outage.

Where entries live is one small part (``pipeline.state.answers``): a SQLite file in ``$KGQA_HOME`` (one host), or
Redis shared by replicas on several hosts."""
from __future__ import annotations

import time
from dataclasses import replace
from datetime import UTC, datetime

from pipeline.errors import EndpointUnreachable
from pipeline.parts import KGWrapper, KnowledgeGraph
from pipeline.records import Rows
from pipeline.sparql.text import canonical, variables
from pipeline.state.answers.base import Answers


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
