"""One typed reading of a question (``Reading``): what it asks for, the names it links to the graph, the one operator
it applies, its conditions, and the words of the question each part came from. Built once per question by a writer
(the rules, a language model, a taught pair), compiled to SPARQL in one place (``pipeline.intent.compile``), and
shown beside the answer (``ask --json``'s ``reading_record``). A reading with words it could not place is *partial*
and is never answered as if whole."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Span = tuple[int, int]


@dataclass(frozen=True)
class Linked:
    """A thing of the graph the question names: where (``span``), what kind of thing, its IRI and its label there."""

    span: Span
    kind: str  # comparison, property, value, paper, problem, field, dataset, model, metric
    iri: str  # prefixed (orkgr:R12, orkgp:P5049)
    label: str

    def to_json(self) -> dict[str, Any]:
        return {"span": list(self.span), "kind": self.kind, "iri": self.iri, "label": self.label}


@dataclass(frozen=True)
class Condition:
    """A restriction the question states: ``on`` (a property's IRI, or ``year``) ``op`` (=, <, <=, >, >=; != none of
    the thing's values is it, other: a value that is not it; in: one of several, their IRIs in ``iri``; absent,
    present) ``value``
    (a linked thing's label or a number), from the words at ``span``."""

    span: Span
    on: str
    op: str
    value: str
    iri: str = ""  # the value's IRI when it is a thing of the graph

    def to_json(self) -> dict[str, Any]:
        return {"span": list(self.span), "on": self.on, "op": self.op, "value": self.value, "iri": self.iri}


@dataclass(frozen=True)
class Reading:
    """A question read whole (``unplaced`` empty) or partially: ``asked`` is what the answer lists (a kind, or a
    property's IRI), ``by`` the property an operator ranks or aggregates (its IRI, or ``year``), ``scope`` the
    comparison it is asked of (none: every contribution carrying what it asks about)."""

    question: str
    asked: str
    operator: str  # an entry of pipeline.intent.operators.TABLE
    names: tuple[Linked, ...] = ()
    conditions: tuple[Condition, ...] = ()
    scope: Linked | None = None
    by: str = ""
    k: int = 1  # how many a top-k keeps
    per: str = ""  # what a count or an aggregate is given for, one row each ('per country'): a property's IRI
    also: tuple[str, ...] = ()  # more asked beside it ('the paper and its year')
    unplaced: tuple[str, ...] = ()
    writer: str = "rules"
    said: str = ""  # what its compiled query asks, in one sentence (set by the compiler's caller)

    @property
    def whole(self) -> bool:
        """Every word placed and what is asked known: only then is it compiled and answered."""
        return not self.unplaced and bool(self.asked)

    def label_of(self, iri: str) -> str:
        """The label the question's linked things give ``iri`` (its local name when none does)."""
        return next((n.label for n in self.names if n.iri == iri), iri.split(":", 1)[-1])

    def to_json(self) -> dict[str, Any]:
        return {"asked": self.asked, "also": list(self.also), "operator": self.operator, "by": self.by, "k": self.k,
                "per": self.per, "scope": self.scope.to_json() if self.scope else None,
                "names": [n.to_json() for n in self.names], "conditions": [c.to_json() for c in self.conditions],
                "unplaced": list(self.unplaced), "whole": self.whole, "writer": self.writer, "said": self.said}
