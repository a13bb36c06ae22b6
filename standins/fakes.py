"""Small stand-ins for parts that cannot be cheap in every test: a hashed bag-of-words encoder, a recording KG."""
from __future__ import annotations

import hashlib
import math
import re
import threading
from collections.abc import Sequence

from pipeline.errors import KnowledgeGraphError
from pipeline.parts import KGWrapper, KnowledgeGraph
from pipeline.records import Rows


class HashEncoder:
    """Deterministic 128-d bag-of-words vectors: similar wording, similar vectors; no model to load."""

    def __init__(self, name: str = "hash-bow-128") -> None:
        self.name = name

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for text in texts:
            vec = [0.0] * 128
            for word in re.findall(r"\w+", text.lower()):
                vec[int(hashlib.md5(word.encode()).hexdigest(), 16) % 128] += 1.0
            norm = math.sqrt(sum(v * v for v in vec)) or 1.0
            out.append([v / norm for v in vec])
        return out


class RecordingKG:
    """Answers every query with fixed rows (or an error) and remembers what it was asked."""

    def __init__(self, rows: Rows | None = None, error: Exception | None = None, name: str = "recording",
                 virtuoso: bool = False) -> None:
        self.virtuoso = virtuoso
        self.rows = rows or Rows(["x"], [{"x": {"type": "literal", "value": "42"}}], source=name)
        self.error = error
        self.name = name
        self.queries: list[str] = []

    def select(self, query: str) -> Rows:
        self.queries.append(query)
        if self.error:
            raise self.error
        return self.rows

    def ping(self, timeout: float = 2.0) -> bool:
        return True


def failing_kg(message: str = "the endpoint rejected the query") -> RecordingKG:
    return RecordingKG(error=KnowledgeGraphError(message))


class RecordingProxy(KGWrapper):
    """Passes every query on to ``inner`` and remembers it: what the KG behind it actually received."""

    def __init__(self, inner: KnowledgeGraph) -> None:
        super().__init__(inner)
        self.queries: list[str] = []
        self._lock = threading.Lock()

    def select(self, query: str) -> Rows:
        with self._lock:
            self.queries.append(query)
        return self.inner.select(query)


class Clock:
    """A clock that moves only when a test sets ``now``."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now
