"""The contract of the answer cache's entries, and how rows are written down for any backend."""
from __future__ import annotations

import json
from typing import Protocol

from pipeline.records import Rows


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
