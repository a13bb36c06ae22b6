"""A knowledge graph opened at its first query (so a bot starts without building what it may never need)."""
from __future__ import annotations

import threading
from collections.abc import Callable

from pipeline.parts import KnowledgeGraph
from pipeline.records import Rows


class LazyKG:
    """``open_`` runs once, at the first ``select``; its errors surface there, as the KG's own would."""

    def __init__(self, name: str, open_: Callable[[], KnowledgeGraph], virtuoso: bool = False) -> None:
        """``virtuoso``: the dialect of the graph ``open_`` makes, known before it is made."""
        self.name = name
        self.virtuoso = virtuoso
        self._open = open_
        self._kg: KnowledgeGraph | None = None
        self._lock = threading.Lock()

    def select(self, query: str) -> Rows:
        with self._lock:
            if self._kg is None:
                self._kg = self._open()
        return self._kg.select(query)

    def ping(self, timeout: float = 2.0) -> bool:
        """Ready: the graph is built on the first query, from files on this machine."""
        return True
