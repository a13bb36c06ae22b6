"""What a language model is given of the graph beside its examples, per question: the schema entries the question
needs, the question's names linked to the graph, and the names a grammar lets it write. Each lever is a switch
(``KGQA_LLM_SCHEMA``, ``KGQA_LLM_LINKS``, ``KGQA_LLM_GRAMMAR``); what the graph holds is read once and cached."""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from pipeline.names.index import LabelIndex
from pipeline.parts import KnowledgeGraph
from pipeline.records import Example
from pipeline.schema import links, retrieve
from pipeline.schema.grammar import allowed_names
from pipeline.schema.graph import FactsCache
from pipeline.schema.retrieve import Schema, build_schema
from pipeline.schema.vocabulary import Vocabulary

TTL_S = 7 * 24 * 3600.0


@dataclass(frozen=True)
class Levers:
    """Which of the graph's helps go to the model."""

    schema: bool = False
    links: bool = False
    grammar: bool = False
    budget: int = 300  # prompt tokens the schema may take

    @property
    def any(self) -> bool:
        return self.schema or self.links or self.grammar


@dataclass(frozen=True)
class Context:
    """The graph's part of one question's prompt, and the names the model may write (None: unconstrained)."""

    text: str = ""
    names: tuple[str, ...] | None = None


@runtime_checkable
class Groundable(Protocol):
    """A generator that puts the graph's part in its prompts and may be held to a grammar."""

    grounding: Grounding | None


class Grounding:
    """The graph as the model sees it. ``examples``: the stored pairs (train and the team's); ``vocabulary`` and
    ``labels``: the graph's names and label index, None while they cannot be had (that help is then left out);
    ``orkg``: the ORKG's own vocabulary (KGQA_ORKG_VOCABULARY), None when none is configured."""

    def __init__(self, levers: Levers, kg: KnowledgeGraph, examples: Callable[[], Sequence[Example]],
                 vocabulary: Callable[[], frozenset[str] | None], labels: Callable[[], LabelIndex | None],
                 cache_dir: Path | None = None, orkg: Callable[[], Vocabulary | None] = lambda: None) -> None:
        self.levers, self.kg, self.orkg = levers, kg, orkg
        self._examples, self._vocabulary, self._labels = examples, vocabulary, labels
        self._facts = FactsCache(kg, cache_dir, TTL_S)
        self._schema: Schema | None = None
        self._lock = threading.Lock()

    def schema(self) -> Schema | None:
        with self._lock:
            if self._schema is None:
                names = self._vocabulary()
                facts = self._facts.get(names) if names is not None else None
                if names is None or facts is None:
                    return None
                self._schema = build_schema(self._examples(), names, facts, self.orkg())
            return self._schema

    def context(self, question: str) -> Context:
        """The prompt text and grammar names for ``question``, as the levers say."""
        parts: list[str] = []
        schema = self.schema() if self.levers.schema or self.levers.grammar else None
        if self.levers.schema and schema is not None:
            parts.append(retrieve.render(schema.for_question(question, self.levers.budget)))
        linked: list[links.Link] = []
        index = self._labels() if self.levers.links else None
        if index is not None:
            linked = links.linked(question, index, self.kg)
            parts.append(links.render(linked))
        names = None
        if self.levers.grammar and schema is not None:
            names = tuple(allowed_names((e.name for e in schema.entries), (k.iri for k in linked if k.iri)))
        return Context("".join(parts), names)


class Constraints:
    """The grammar names of the prompts a generator sent lately, so that a follow-up (which goes on from its first
    prompt) is held to the same names. Thread-safe; the oldest are forgotten."""

    def __init__(self, keep: int = 64) -> None:
        self.keep = keep
        self._names: OrderedDict[str, tuple[str, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def remember(self, prompt: str, names: tuple[str, ...] | None) -> None:
        if names is None:
            return
        with self._lock:
            self._names[prompt] = names
            while len(self._names) > self.keep:
                self._names.popitem(last=False)

    def of(self, prompt: str) -> tuple[str, ...] | None:
        """The names of the longest remembered prompt that ``prompt`` starts with (None: unconstrained)."""
        with self._lock:
            found = [p for p in self._names if prompt.startswith(p)]
            return self._names[max(found, key=len)] if found else None
