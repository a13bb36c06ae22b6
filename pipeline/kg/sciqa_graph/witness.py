"""The graph being built: nodes found by IRI or label, invented nodes in their own namespace, and the triples."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import pyoxigraph as ox

from pipeline.records import Kind, Term
from pipeline.sparql.text import PREFIXES

ORKGP = PREFIXES["orkgp"]
ORKGC = PREFIXES["orkgc"]
LABEL = PREFIXES["rdfs"] + "label"
TYPE = PREFIXES["rdf"] + "type"
# nodes SciQA never names (benchmarks, evaluations, contributions, ...) get IRIs that cannot pass for ORKG's
INVENTED = "urn:sciqa-witness:"


@dataclass
class Witness:
    """Triples plus an index of the labelled nodes of each kind (Dataset, Model, Metric ...)."""

    triples: set[tuple[str, str, str, bool]] = field(default_factory=set)  # (s, p, o, o is a literal)
    by_label: dict[tuple[str, str], list[str]] = field(default_factory=lambda: defaultdict(list))
    counters: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    conflicts: list[str] = field(default_factory=list)

    def mint(self, kind: str) -> str:
        self.counters[kind] += 1
        return f"{INVENTED}{kind}/{self.counters[kind]}"

    def entity(self, kind: Kind, label: str, iri: str | None = None) -> str:
        """The node of ``kind`` with this label (``iri`` when SciQA gives one; a new node the first time)."""
        known = self.by_label[(kind, label)]
        if iri is None:
            if known:
                return known[0]
            iri = self.mint(kind)
        if iri not in known:
            known.append(iri)
            self.add(iri, TYPE, ORKGC + kind.orkg_class)
            self.literal(iri, LABEL, label)
        return iri

    def from_term(self, kind: Kind, iri: Term | None, label: Term | None) -> str | None:
        """An answer's (IRI, label) pair as a node of ``kind``."""
        if iri is None or iri.get("type") != "uri":
            return None
        return self.entity(kind, label["value"], iri["value"]) if label else iri["value"]

    def known(self, kind: Kind, label: str) -> list[str]:
        return list(self.by_label.get((kind, label), []))

    def add(self, s: str, p: str, o: str) -> None:
        self.triples.add((s, p, o, False))

    def literal(self, s: str, p: str, value: str) -> None:
        self.triples.add((s, p, value, True))

    def conflict(self, text: str) -> None:
        self.conflicts.append(text)

    def quads(self) -> list[ox.Quad]:
        return [quad(t) for t in sorted(self.triples)]


def quad(triple: tuple[str, str, str, bool]) -> ox.Quad:
    s, p, o, lit = triple
    return ox.Quad(ox.NamedNode(s), ox.NamedNode(p), ox.Literal(o) if lit else ox.NamedNode(o))
