"""What the graph itself holds for a schema: its comparisons (the subjects of ``orkgp:compareContribution``), the
predicates their contributions carry, and the labels of its classes and predicates where it has them. Read by a few
read-only SPARQL queries once, cached on disk beside the labels for ``ttl`` s."""
from __future__ import annotations

import hashlib
import json
import os
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import KgqaError
from pipeline.names.vocabulary import prefixed
from pipeline.parts import KnowledgeGraph
from pipeline.schema.vocabulary import Vocabulary
from pipeline.sparql.text import PREFIXES

_COMPARE = f"<{PREFIXES['orkgp']}compareContribution>"
COMPARISONS = f"SELECT DISTINCT ?c ?p WHERE {{ ?c {_COMPARE} ?x . ?x ?p ?o }} LIMIT 20000"
LABELS = ("SELECT ?t ?l WHERE {{ VALUES ?t {{ {terms} }} ?t <http://www.w3.org/2000/01/rdf-schema#label> ?l }}")


@dataclass(frozen=True)
class GraphFacts:
    """The comparisons the graph holds with their contributions' predicates, and the labels it gives its names."""

    comparisons: dict[str, tuple[str, ...]]  # orkgr:R... -> orkgp: predicates of its contributions
    labels: dict[str, str]  # prefixed name -> rdfs:label

    def labelled(self, vocabulary: Vocabulary | None) -> GraphFacts:
        """These facts with the ORKG vocabulary's labels of the predicates and classes the graph leaves unlabelled
        (the graph's own label wins); the same facts without a vocabulary."""
        if vocabulary is None:
            return self
        merged = vocabulary.merged(self.labels)
        said = {n: t.label for n, t in (*merged.predicates.items(), *merged.classes.items())}
        return GraphFacts(self.comparisons, {**said, **self.labels})


def _resource(iri: str) -> str | None:
    return f"orkgr:{iri[len(PREFIXES['orkgr']):]}" if iri.startswith(PREFIXES["orkgr"]) else None


def short_name(iri: str) -> str:
    """An ORKG IRI as a prefixed name (orkgr:R12, orkgp:P5049, orkgc:Paper); "" for any other."""
    return prefixed(iri) or _resource(iri) or ""


def read_facts(kg: KnowledgeGraph, names: frozenset[str]) -> GraphFacts:
    """The graph's comparisons and the labels of ``names`` (its vocabulary), of its comparisons and of the predicates
    their contributions carry."""
    parts: defaultdict[str, set[str]] = defaultdict(set)
    for row in kg.select(COMPARISONS).rows:
        c = _resource(row.get("c", {}).get("value", ""))
        p = prefixed(row.get("p", {}).get("value", ""))
        if c:
            parts[c].update([p] if p and p.startswith("orkgp:") else [])
    wanted = sorted(names | set(parts) | {p for ps in parts.values() for p in ps})
    labels: dict[str, str] = {}
    for start in range(0, len(wanted), 200):
        iris = " ".join(f"<{_full(n)}>" for n in wanted[start:start + 200])
        for row in kg.select(LABELS.format(terms=iris)).rows:
            iri, label = row.get("t", {}).get("value", ""), row.get("l", {}).get("value", "")
            name = short_name(iri)
            if name and label and name not in labels:
                labels[name] = label
    return GraphFacts({c: tuple(sorted(p)) for c, p in sorted(parts.items())}, labels)


def _full(name: str) -> str:
    prefix, _, local = name.partition(":")
    return PREFIXES[prefix] + local


class FactsCache:
    """``read_facts`` once per graph and process, kept on disk in ``folder`` for ``ttl`` s; None while the graph
    cannot say (the schema is then left out of the prompt, never made up)."""

    def __init__(self, kg: KnowledgeGraph, folder: Path | None, ttl: float) -> None:
        self.kg, self.folder, self.ttl = kg, folder, ttl
        self._facts: GraphFacts | None = None

    @property
    def path(self) -> Path | None:
        digest = hashlib.sha256(self.kg.name.encode()).hexdigest()[:16]
        return self.folder / f"schema-{digest}.json" if self.folder is not None else None

    def get(self, names: frozenset[str]) -> GraphFacts | None:
        if self._facts is None:
            self._facts = self._cached()
        if self._facts is None:
            try:
                self._facts = read_facts(self.kg, names)
            except KgqaError:
                return None
            self._store(self._facts)
        return self._facts

    def _cached(self) -> GraphFacts | None:
        path = self.path
        try:
            if path is None or time.time() - path.stat().st_mtime > self.ttl:
                return None
            data = json.loads(path.read_text(encoding="utf-8"))
            return GraphFacts({c: tuple(p) for c, p in data["comparisons"].items()}, dict(data["labels"]))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def _store(self, facts: GraphFacts) -> None:
        path = self.path
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"kg": self.kg.name, "comparisons": facts.comparisons, "labels": facts.labels}),
                       encoding="utf-8")
        os.replace(tmp, path)
