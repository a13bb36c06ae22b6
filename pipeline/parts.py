"""The swappable parts, one small Protocol each; implementations live in their own modules."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from pipeline.records import Example, Generation, Retrieved, Review, Rows


class Encoder(Protocol):
    """Turns sentences into unit-length vectors."""

    name: str

    def encode(self, texts: Sequence[str]) -> list[list[float]]: ...


class ExampleStore(Protocol):
    """Known question->SPARQL pairs, searchable by question similarity."""

    def search(self, question: str, k: int) -> list[Retrieved]: ...

    def add(self, examples: Sequence[Example]) -> int: ...

    def count(self) -> int: ...

    def examples(self, source: str | None = None) -> list[Example]: ...


class Generator(Protocol):
    """Writes a SPARQL query for a question, given the most similar known examples."""

    name: str

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation: ...

    def ping(self, timeout: float = 2.0) -> bool:
        """Whether what it needs (a model server) answers within ``timeout`` s; a local part is always ready."""
        ...


@runtime_checkable
class Reaskable(Protocol):
    """A language model that can be asked again in the same conversation (the repair step's second try); its prompt
    format is its own business."""

    def complete(self, prompt: str) -> str: ...

    def follow_up(self, first: Generation, ask: str) -> str:
        """The prompt that goes on from ``first`` (its prompt and the model's reply) with the user's ``ask``."""
        ...


class KnowledgeGraph(Protocol):
    """Runs read-only SPARQL queries (SELECT/ASK); the query arrives already gated and prefixed."""

    name: str
    # Speaks ORKG's Virtuoso dialect (or answers as ORKG did): such a query is sent as written, bif:contains too;
    # anywhere else it is sent as the SPARQL 1.1 it means (pipeline.sparql.dialect). Read-only: a wrapper hands on
    # what it wraps says.
    @property
    def virtuoso(self) -> bool: ...

    def select(self, query: str) -> Rows: ...

    def ping(self, timeout: float = 2.0) -> bool:
        """Whether the graph answers within ``timeout`` s; a local graph is always ready."""
        ...


class IntentReview(Protocol):
    """Checks a generated query against what the question asks (pipeline.intent.step.IntentStep)."""

    def review(self, question: str, generation: Generation, examples: Sequence[Retrieved],
               kg: KnowledgeGraph) -> Review: ...
