"""Parts for running given queries through the whole pipeline (gate, names, intent, KG, summary, leaderboard) without
retrieval or a query writer: a generator that writes the query it was handed, and a store with no examples."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pipeline.errors import KgqaError
from pipeline.records import Generation, Retrieved


class GivenQuery:
    """Writes the one query it was given, whatever the question (None: declines)."""

    name = "fixed"

    def __init__(self, sparql: str | None) -> None:
        self.sparql = sparql

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        return Generation(self.name, self.sparql, explanation="" if self.sparql else "I know no question like it.")

    def ping(self, timeout: float | None = None) -> bool:
        return True


class NoExamples:
    """An example store that holds nothing and takes nothing."""

    def search(self, question: str, k: int) -> list[Retrieved]:
        return []

    def add(self, examples: Sequence[Any]) -> int:
        raise KgqaError("read-only")

    def count(self) -> int:
        return 0

    def examples(self, source: str | None = None) -> list[Any]:
        return []
