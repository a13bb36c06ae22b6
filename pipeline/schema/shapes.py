"""Which predicates (and classes) the graph's nodes carry together — its characteristic sets — and the part of a
query no node can match: ``?benchmark orkgp:HAS_DATASET ?d; orkgp:HAS_MODEL ?m`` asks for one node with both, and
when the graph has none the query finds nothing, whatever the names. A model told only "it found nothing" writes the
same query again; told which predicates never meet, and where the one it misplaced is found, it can move it.

Read from a local store's own index (``parts.KnowsShapes``), once per store; an endpoint gives no sets (a pass over
every triple) and the check stays silent. Lenient: only required patterns count (not an OPTIONAL's), and a subject
whose predicates are not all plain names of the graph (a variable, a path) and a query with UNION (its branches would
read as one subject) are left alone."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

from pipeline.names.vocabulary import prefixed
from pipeline.parts import KnowledgeGraph, KnowsShapes, native
from pipeline.sparql.brackets import closing
from pipeline.sparql.parsed import parse
from pipeline.sparql.shape import read
from pipeline.sparql.text import PREFIXES, RDF_TYPE, declared_prefixes

MAX_AMONG = 4  # predicates named as where a misplaced one is found


@dataclass(frozen=True)
class Shapes:
    """The distinct sets of predicates (and ``a <class>`` for each type) that some node of the graph carries, each
    with how many nodes carry it."""

    sets: dict[frozenset[str], int]

    @classmethod
    def of(cls, carried: Iterable[frozenset[str]]) -> Shapes:
        return cls(dict(Counter(carried)))

    def meet(self, wanted: frozenset[str]) -> bool:
        return any(wanted <= carried for carried in self.sets)

    def among(self, term: str) -> list[str]:
        """The predicates most nodes carrying ``term`` also carry (what it is found with)."""
        with_it: Counter[str] = Counter()
        for carried, nodes in self.sets.items():
            if term in carried:
                with_it.update({p: nodes for p in carried if p != term and not p.startswith("a ")})
        return [p for p, _ in with_it.most_common(MAX_AMONG)]


def graph_shapes(kg: KnowledgeGraph) -> Callable[[], Shapes | None]:
    """The predicate sets of a local store behind ``kg``, read on first use and kept; None for an endpoint."""
    local = native(kg, KnowsShapes)  # type: ignore[type-abstract]  # a Protocol asked for
    return cache(lambda: Shapes.of(local.predicate_sets())) if local is not None else lambda: None


def never_met(query: str, shapes: Shapes) -> str:
    """The defect in words ("no node of the graph has both orkgp:HAS_DATASET and orkgp:HAS_MODEL; orkgp:HAS_MODEL
    is found with orkgp:HAS_BENCHMARK, …"), "" when every subject's predicates meet on some node."""
    if "UNION" in query.upper():
        return ""
    prefixes = {**PREFIXES, **declared_prefixes(query)}
    by_subject: dict[str, set[str]] = {}
    plain: dict[str, bool] = {}
    for s, p, o in read(_required(query)).triples:
        term = _term(p, o, prefixes)
        by_subject.setdefault(s, set()).add(term or "")
        plain[s] = plain.get(s, True) and term is not None
    for subject, terms in by_subject.items():
        if not plain[subject] or len(terms) < 2 or shapes.meet(frozenset(terms)):
            continue
        first, second = _pair(sorted(terms), shapes)
        found = shapes.among(second)
        where = f"; {_named(second)} is found with {', '.join(map(_named, found))}" if found else ""
        return f"no node of the graph has both {_named(first)} and {_named(second)} (as {subject} does){where}"
    return ""


def _required(query: str) -> str:
    """``query`` without its OPTIONAL groups: a part of one that cannot match leaves its variables unbound, it does
    not empty the answer."""
    toks = parse(query).tokens
    kept, i = [], 0
    while i < len(toks):
        if toks[i].kind == "word" and toks[i].text.upper() == "OPTIONAL" and i + 1 < len(toks) and \
                toks[i + 1].text == "{":
            end = closing(toks, i + 1)
            i = len(toks) if end is None else end + 1
            kept.append(".")
            continue
        kept.append(toks[i].text)
        i += 1
    return " ".join(kept)


def _term(p: str, o: str, prefixes: dict[str, str]) -> str | None:
    """A triple's predicate as the sets hold it (``a <class IRI>`` for a type), None when it is not a plain name."""
    predicate = _iri(p, prefixes) if p != "a" else RDF_TYPE
    if predicate == RDF_TYPE:
        cls = _iri(o, prefixes)
        return f"a {cls}" if cls else None
    return predicate


def _iri(term: str, prefixes: dict[str, str]) -> str | None:
    if term.startswith("<") and term.endswith(">"):
        return term[1:-1]
    prefix, colon, local = term.partition(":")
    return prefixes[prefix] + local if colon and prefix in prefixes and not term.startswith("?") else None


def _pair(terms: list[str], shapes: Shapes) -> tuple[str, str]:
    """Two of a subject's predicates no node carries together (its rdf:type first, where it is one of them)."""
    ordered = sorted(terms, key=lambda t: not t.startswith("a "))
    for i, one in enumerate(ordered):
        for other in ordered[i + 1:]:
            if not shapes.meet(frozenset((one, other))):
                return one, other
    return ordered[0], ordered[-1]  # each pair meets somewhere, all of them nowhere


def _named(term: str) -> str:
    if term.startswith("a "):
        return f"rdf:type {_named(term[2:])}"
    short = prefixed(term) or next((f"{name}:{term[len(iri):]}" for name, iri in PREFIXES.items()
                                    if term.startswith(iri)), None)
    return short or f"<{term}>"
