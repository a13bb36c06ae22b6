"""A knowledge graph opened at its first query (so a bot starts without building what it may never need)."""
from __future__ import annotations

import threading
from collections.abc import Callable

from pipeline.parts import KGWrapper, KnowledgeGraph
from pipeline.records import Rows


class LazyKG(KGWrapper):
    """A wrapper whose ``inner`` graph ``open_`` makes once, at the first query; its errors surface there, as the
    graph's own would. Its name, dialect and reachability are known before: asking them opens nothing."""

    def __init__(self, name: str, open_: Callable[[], KnowledgeGraph], virtuoso: bool) -> None:
        """``virtuoso``: the dialect of the graph ``open_`` makes."""
        # no Wrapper.__init__: there is no inner graph to hand it yet (``inner`` makes it)
        self.name = name
        self._virtuoso = virtuoso
        self._open = open_
        self._kg: KnowledgeGraph | None = None
        self._lock = threading.Lock()

    @property
    def inner(self) -> KnowledgeGraph:
        with self._lock:
            if self._kg is None:
                self._kg = self._open()
            return self._kg

    @property
    def virtuoso(self) -> bool:
        return self._virtuoso

    @property
    def remote(self) -> bool:
        """Made from files on this machine."""
        return False

    def select(self, query: str) -> Rows:
        return self.inner.select(query)

    def ping(self, timeout: float = 2.0) -> bool:
        """Ready: the graph is built on the first query, from files on this machine."""
        return True
