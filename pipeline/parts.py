"""The swappable parts, one small Protocol each; implementations live in their own modules.

What only some parts can do is a small Protocol of its own, asked with ``isinstance`` (never ``getattr`` with a
name), and a part that wraps another hands on what the inner one can do (``Wrapper``)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

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


class Part(Protocol):
    """What a generator and a knowledge graph both have: a name, and a probe of what they need."""

    name: str

    def ping(self, timeout: float = 2.0) -> bool:
        """Whether what it needs (a model server, an endpoint) answers within ``timeout`` s; a local part is always
        ready."""
        ...


class Generator(Part, Protocol):
    """Writes a SPARQL query for a question, given the most similar known examples."""

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation: ...


@runtime_checkable
class Reaskable(Protocol):
    """A language model that can be asked again in the same conversation (the check loop asks it again); its prompt
    format is its own business."""

    def complete(self, prompt: str) -> str: ...

    def follow_up(self, first: Generation, ask: str) -> str:
        """The prompt that goes on from ``first`` (its prompt and the model's reply) with the user's ``ask``."""
        ...


@runtime_checkable
class Structured(Protocol):
    """A language model whose reply can be held to a JSON schema (the model as a reader, ``pipeline.intent.reader``)."""

    def structured(self, prompt: str, schema: dict[str, Any], max_tokens: int = ...) -> str: ...


class KnowledgeGraph(Part, Protocol):
    """Runs read-only SPARQL queries (SELECT/ASK); the query arrives already gated and prefixed."""

    # Speaks ORKG's Virtuoso dialect (or answers as ORKG did): such a query is sent as written, bif:contains too;
    # anywhere else it is sent as the SPARQL 1.1 it means (pipeline.sparql.dialect). Read-only: a wrapper hands on
    # what it wraps says.
    @property
    def virtuoso(self) -> bool: ...

    def select(self, query: str) -> Rows: ...


class IntentReview(Protocol):
    """Checks a generated query against what the question asks (pipeline.intent.step.IntentStep)."""

    def review(self, question: str, generation: Generation, examples: Sequence[Retrieved],
               kg: KnowledgeGraph) -> Review: ...


# -- what only some parts can do ---------------------------------------------------------------------------------

@runtime_checkable
class Remote(Protocol):
    """A part that says whether a server stands behind it (health reports it); a part that does not say is local."""

    @property
    def remote(self) -> bool: ...


def is_remote(part: object) -> bool:
    return isinstance(part, Remote) and bool(part.remote)


@runtime_checkable
class ReadsAhead(Protocol):
    """A part that can read now what its first question on ``kg`` would otherwise wait for (the warm-up)."""

    def read_ahead(self, kg: KnowledgeGraph) -> None: ...


@runtime_checkable
class Slotted(Protocol):
    """A model server that says how many requests it serves at once (None: it does not say)."""

    @property
    def slots(self) -> int | None: ...


def slots_of(part: object) -> int | None:
    return part.slots if isinstance(part, Slotted) else None


@runtime_checkable
class Timed(Protocol):
    """A model client with a request timeout (s) of its own."""

    @property
    def timeout(self) -> float: ...


@runtime_checkable
class KnowsLabels(Protocol):
    """A graph that knows its labels without a query (the snapshot): (label, kind) pairs."""

    def label_pairs(self) -> Iterable[tuple[str, str]]: ...


@runtime_checkable
class KnowsTerms(Protocol):
    """A graph that lists the IRIs it uses as predicates and classes without a paged query (a local store)."""

    def terms(self) -> Iterable[str]: ...


@runtime_checkable
class KnowsShapes(Protocol):
    """A graph that lists, per node, the predicates it carries (and ``a <class>`` for its types) from its own index
    (a local store): what ``schema.shapes`` reads which predicates meet on one node from."""

    def predicate_sets(self) -> Iterable[frozenset[str]]: ...


@runtime_checkable
class LowersLabels(Protocol):
    """A graph that answers a case-insensitive label test from its own index (a local store), where an endpoint
    scans every label: the label literals whose lowercase is one of ``keys``."""

    def lowered(self, keys: list[str]) -> list[str]: ...


@runtime_checkable
class Recorded(Protocol):
    """A graph of recorded queries (the snapshot): what its recorded queries use is its vocabulary."""

    @property
    def recorded_queries(self) -> Sequence[str]: ...


@runtime_checkable
class Backed(Protocol):
    """A graph answered by ``primary``, and by the offline ``fallback`` when the primary cannot be reached."""

    @property
    def primary(self) -> KnowledgeGraph: ...

    @property
    def fallback(self) -> KnowledgeGraph: ...


def primary_of(kg: KnowledgeGraph) -> KnowledgeGraph:
    """The graph asked first: the primary of a graph with a fallback, else the graph itself."""
    return kg.primary if isinstance(kg, Backed) else kg


@runtime_checkable
class Versioned(Protocol):
    """A store that can name its state: knowledge saved for one state is valid for exactly that state."""

    def version(self) -> str: ...


@runtime_checkable
class Embedded(Protocol):
    """A store that hands out its questions' ids and embeddings (a matrix, one row per id)."""

    def embeddings(self) -> tuple[list[str], Any]: ...


@runtime_checkable
class NamesChecked(Protocol):
    """A pipeline with a names step (``pipeline.core.Pipeline``), whose label index a conversation reads."""

    @property
    def names(self) -> Callable[[str, str], object] | None: ...


@runtime_checkable
class Generating(Protocol):
    """A pipeline that says which generator writes its queries (``pipeline.core.Pipeline``)."""

    @property
    def generator(self) -> Generator: ...


@runtime_checkable
class LooksUp(Protocol):
    """A pipeline that hands out the stored pairs nearest a question, without asking it (``pipeline.core.Pipeline``)."""

    def lookup(self, text: str, k: int) -> list[Retrieved]: ...


# -- wrappers ------------------------------------------------------------------------------------------------------

P = TypeVar("P", bound=Part)
A = TypeVar("A")


class Wrapper(Generic[P]):
    """A part in front of ``inner``: its name (unless given), reachability and server are the inner part's."""

    def __init__(self, inner: P, name: str = "") -> None:
        self._inner = inner
        self.name = name or inner.name

    @property
    def inner(self) -> P:
        """The wrapped part (a wrapper that makes it later, ``LazyKG``, makes it here)."""
        return self._inner

    def ping(self, timeout: float = 2.0) -> bool:
        """The inner part's reachability."""
        return self.inner.ping(timeout)

    @property
    def remote(self) -> bool:
        return is_remote(self.inner)


class KGWrapper(Wrapper[KnowledgeGraph]):
    """A graph in front of another: the inner graph's dialect too."""

    @property
    def virtuoso(self) -> bool:
        return self.inner.virtuoso


def native(kg: KnowledgeGraph, able: type[A]) -> A | None:
    """The graph behind ``kg``'s wrappers (and the primary of a graph with a fallback) that can do ``able`` itself
    (a local store lists its labels and terms from its indexes, the snapshot from its records), else None (an
    endpoint: read by paged SPARQL)."""
    seen: object = kg
    while True:
        seen = seen.primary if isinstance(seen, Backed) else seen
        if isinstance(seen, able):
            return seen
        if not isinstance(seen, Wrapper):
            return None
        seen = seen.inner
