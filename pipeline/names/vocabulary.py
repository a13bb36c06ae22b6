"""A knowledge graph's own vocabulary — the ORKG predicates and classes it holds — so that an LLM's query can be
checked against it before it runs: read once by two paged read-only SPARQL queries (``DISTINCT ?p``, ``DISTINCT
?class``), cached on disk like the labels; for the SciQA snapshot, the names its recorded queries use."""
from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from rapidfuzz import fuzz, process

from pipeline.errors import EndpointUnreachable, KgqaError
from pipeline.parts import Backed, KnowledgeGraph, KnowsTerms, Recorded, native, primary_of
from pipeline.sparql.paging import keyed_pages
from pipeline.sparql.parsed import parse
from pipeline.sparql.text import PREFIXES

CHECKED = ("orkgp", "orkgc")  # resources (orkgr:) are too many to list, and a wrong one shows as an empty answer
TTL_S = 7 * 24 * 3600.0
RETRY_S = 300.0
PAGE = 1000
MAX_PAGES = 100
QUERIES = ("SELECT DISTINCT ?term WHERE {{ ?s ?term ?o FILTER(STR(?term) > {after}) }} ORDER BY ?term LIMIT {limit}",
           "SELECT DISTINCT ?term WHERE {{ ?s a ?term FILTER(STR(?term) > {after}) }} ORDER BY ?term LIMIT {limit}")


def prefixed(iri: str) -> str | None:
    """``http://orkg.org/orkg/predicate/P31`` -> ``orkgp:P31`` for the checked namespaces, else None."""
    for prefix in CHECKED:
        if iri.startswith(PREFIXES[prefix]):
            return f"{prefix}:{iri[len(PREFIXES[prefix]):]}"
    return None


def used_names(query: str) -> list[str]:
    """The checked prefixed names a query uses, in order, once each; prefix declarations are not uses."""
    names = (t.text for t in parse(query).named if t.kind == "pname")
    return list(dict.fromkeys(n for n in names if n.split(":", 1)[0] in CHECKED and n.split(":", 1)[1]))


def nearest(name: str, vocabulary: Iterable[str], n: int = 3) -> list[str]:
    """The ``n`` names of the same namespace closest to ``name``: rapidfuzz's token-set ratio over the local part's
    words (``HAS_CODE`` is nearest ``HAS_SOURCE_CODE``, not ``HAS_MODEL``)."""
    prefix, _, local = name.partition(":")
    same = {v.partition(":")[2]: v for v in sorted(vocabulary) if v.startswith(prefix + ":")}
    found = process.extract(local, list(same), scorer=fuzz.token_set_ratio, processor=_words, limit=n)
    return [same[m] for m, _, _ in found]


def _words(name: str) -> str:
    return name.replace("_", " ").lower()


# the terms RDF and RDF Schema define: any other rdf: or rdfs: name is no term at all ('rdfs:repository'), and a
# FILTER NOT EXISTS over one holds for everything
_RDF = """type Property Statement subject predicate object value first rest nil List Bag Seq Alt langString
XMLLiteral HTML JSON"""
_RDFS = """label comment subClassOf subPropertyOf domain range Class Resource Literal Datatype seeAlso isDefinedBy
member Container ContainerMembershipProperty"""
_W3C = {"rdf": frozenset(_RDF.split()), "rdfs": frozenset(_RDFS.split())}


def unknown(query: str, vocabulary: frozenset[str]) -> list[str]:
    """One reason per name the graph does not have, with the nearest ones it has; and per rdf: or rdfs: name that
    RDF does not define."""
    out = []
    for name in used_names(query):
        if name not in vocabulary:
            close = nearest(name, vocabulary)
            out.append(f"the graph has no {name}" + (f" (nearest: {', '.join(close)})" if close else ""))
    for name in dict.fromkeys(t.text for t in parse(query).named if t.kind == "pname"):
        prefix, _, local = name.partition(":")
        if prefix in _W3C and local and local not in _W3C[prefix]:
            out.append(f"RDF defines no {name}")
    return out


def sparql_terms(kg: KnowledgeGraph, page: int = PAGE) -> Iterator[str]:
    """The checked names the graph uses as predicates and classes, paged by key (``pipeline.sparql.paging``)."""
    for query in QUERIES:
        for _, terms, _ in keyed_pages(kg, query, "term", page, max_pages=MAX_PAGES):
            yield from (name for name in map(prefixed, terms) if name)


class GraphVocabulary:
    """The KG's checked names, read once per process (in the background; None until then or when the graph cannot
    list them, and the check is skipped), cached in ``cache_dir`` for ``ttl`` s."""

    def __init__(self, kg: KnowledgeGraph, cache_dir: Path | None, ttl: float, page: int) -> None:
        self.kg, self.cache_dir, self.ttl, self.page = kg, cache_dir, ttl, page
        self._names: frozenset[str] | None = None
        self._failed_at = float("-inf")
        self._lock = threading.Lock()

    def available(self) -> frozenset[str] | None:
        with self._lock:
            if self._names is None and time.monotonic() - self._failed_at >= RETRY_S:
                try:
                    self._names = self._read()
                except KgqaError:
                    self._failed_at = time.monotonic()
            return self._names

    def _read(self) -> frozenset[str] | None:
        if isinstance(self.kg, Recorded):  # the snapshot: what its recorded queries use
            return frozenset(n for q in self.kg.recorded_queries for n in used_names(q))
        listing = native(self.kg, KnowsTerms)  # type: ignore[type-abstract]  # a Protocol asked for
        if listing is not None:  # a local store: one unordered DISTINCT each, no paging (no sort of every triple)
            return frozenset(n for n in map(prefixed, listing.terms()) if n) or None
        cached = self._cached()
        if cached is not None:
            return cached
        try:
            names = frozenset(sparql_terms(primary_of(self.kg), self.page))
        except EndpointUnreachable:
            if not isinstance(self.kg, Backed):
                raise
            names = frozenset(sparql_terms(self.kg.fallback, self.page))
        if not names:
            return None  # a graph without ORKG names is not one to check ORKG queries against
        self._store(names)
        return names

    @property
    def path(self) -> Path | None:
        if self.cache_dir is None:
            return None
        return self.cache_dir / f"vocabulary-{hashlib.sha256(self.kg.name.encode()).hexdigest()[:16]}.json"

    def _cached(self) -> frozenset[str] | None:
        path = self.path
        try:
            if path is None or time.time() - path.stat().st_mtime > self.ttl:
                return None
            return frozenset(json.loads(path.read_text(encoding="utf-8"))["names"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _store(self, names: frozenset[str]) -> None:
        path = self.path
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"kg": self.kg.name, "names": sorted(names)}), encoding="utf-8")
        os.replace(tmp, path)
