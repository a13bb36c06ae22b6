"""Where a knowledge graph's labels come from: its own triples by one read-only SPARQL query (paged, cached on disk
with a TTL), or, for the SciQA snapshot, the label literals of its recorded queries and the labels in their answers."""
from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from pipeline.errors import EndpointUnreachable, KgqaError
from pipeline.names.index import CLASSES, THRESHOLD, LabelIndex, kind_of
from pipeline.parts import Backed, KnowledgeGraph, KnowsLabels, native, primary_of
from pipeline.sparql.paging import keyed_pages
from pipeline.sparql.shape import read, stem

LABELS_TTL_S = 7 * 24 * 3600.0  # a graph's labels are fetched again after a week (or with `kgqa kg labels --refresh`)
RETRY_S = 300.0  # after a failed fetch, names go unchecked this long before the graph is asked again
WAIT_S = 5.0  # how long a question waits for a first fetch of the labels before going on unchecked
PAGE = 1000  # rows per page: at most the KGs' default row cap
MAX_PAGES = 1000
# one query a class, paged by key (pipeline.sparql.paging): no page asks the endpoint to sort more than a page
LABELS_QUERY = ("SELECT DISTINCT ?label WHERE {{ ?thing a orkgc:{cls} ; rdfs:label ?l . BIND(STR(?l) AS ?label) "
                "FILTER(?label > {after}) }} ORDER BY ?label LIMIT {limit}")


def query_labels(queries: Iterable[str]) -> Iterator[tuple[str, str]]:
    """(literal, kind) for every ``=`` label filter of these queries whose kind is a known one."""
    for sparql in queries:
        shape = read(sparql)
        for f in shape.filters:
            kind = kind_of(shape.kind_of_literal(f.literal)) if f.op == "=" else ""
            if kind:
                yield f.literal, kind


def answer_labels(answers: Iterable[dict[str, object]]) -> Iterator[tuple[str, str]]:
    """(label, kind) for the literal values of answer variables named for a kind (``?dataset_lbl``, ``?model_lbl``)."""
    for data in answers:
        head = data.get("head") if isinstance(data, dict) else None
        results = data.get("results") if isinstance(data, dict) else None
        if not isinstance(head, dict) or not isinstance(results, dict):
            continue
        kinds = {v: kind_of(stem(v)) for v in head.get("vars", []) if stem(v) != v}
        for row in results.get("bindings", []):
            for var, kind in kinds.items():
                term = row.get(var) if kind else None
                if term and term.get("type") in ("literal", "typed-literal"):
                    yield term["value"], kind


def sparql_labels(kg: KnowledgeGraph, page: int = PAGE) -> Iterator[tuple[str, str]]:
    """(label, kind) of every Dataset, Model, Metric, Problem, ResearchField and Paper in the graph."""
    for _, pairs in label_pages(kg, page):
        yield from pairs


Cursor = tuple[int, str]  # (the class's place in CLASSES, the last label read of it)


def label_pages(kg: KnowledgeGraph, page: int,
                start: Cursor = (0, "")) -> Iterator[tuple[Cursor, list[tuple[str, str]]]]:
    """(where the next page starts, the page's (label, kind) pairs), class by class from ``start`` on, each class's
    labels in order until a short page."""
    classes = list(CLASSES.values())
    for at in range(start[0], len(classes)):
        query = ("PREFIX orkgc: <http://orkg.org/orkg/class/>\nPREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
                 + LABELS_QUERY.replace("{cls}", classes[at]))
        kind = kind_of(classes[at])
        for last, labels, more in keyed_pages(kg, query, "label", page, start[1] if at == start[0] else "", MAX_PAGES):
            yield ((at, last) if more else (at + 1, "")), [(label, kind) for label in labels]


class LabelSource:
    """A KG's label index, built once per process and (for graphs read by SPARQL) cached on disk for ``ttl`` s."""

    def __init__(self, kg: KnowledgeGraph, cache_dir: Path | None, ttl: float, page: int) -> None:
        self.kg = kg
        self.cache_dir = cache_dir
        self.ttl = ttl
        self.page = page
        self._index: LabelIndex | None = None
        self._failed_at = float("-inf")
        self._lock = threading.Lock()
        self._loading: threading.Thread | None = None
        self._since = 0.0  # when the running fetch started

    @property
    def path(self) -> Path | None:
        if self.cache_dir is None:
            return None
        digest = hashlib.sha256(self.kg.name.encode("utf-8")).hexdigest()[:16]
        return self.cache_dir / f"labels-{digest}.json"

    def index(self, refresh: bool = False) -> LabelIndex:
        """The index; ``refresh`` reads the labels again and updates the index in place when labels were only added
        (a graph grows), rebuilding it only when some are gone."""
        if self._index is None:
            self._index = LabelIndex(self.pairs(refresh), THRESHOLD)
        elif refresh:
            fresh = set(self.pairs(refresh=True))
            if self._index.pairs() - fresh:
                self._index = LabelIndex(fresh, THRESHOLD)
            else:
                self._index.add(fresh)
        return self._index

    def available(self, wait: float = WAIT_S) -> LabelIndex | None:
        """The index, or None when the graph cannot list its labels within ``wait`` s of the fetch's start (names then
        go unchecked, as before; a long fetch goes on in the background for later questions). The wait counts from
        the start, so the steps of one question that ask for the index (intent, names) and the questions asked during
        a long fetch wait once in all, not each. After a failure the graph is asked again only once RETRY_S passed."""
        with self._lock:
            if self._index is not None:
                return self._index
            if self._loading is None or not self._loading.is_alive():
                if time.monotonic() - self._failed_at < RETRY_S:
                    return None
                self._loading = threading.Thread(target=self._load, daemon=True, name="kgqa-labels")
                self._since = time.monotonic()
                self._loading.start()
            loading, since = self._loading, self._since
        loading.join(max(0.0, since + wait - time.monotonic()))
        return self._index

    def _load(self) -> None:
        try:
            self.index()
        except KgqaError:
            self._failed_at = time.monotonic()

    def pairs(self, refresh: bool = False) -> list[tuple[str, str]]:
        listing = native(self.kg, KnowsLabels)  # type: ignore[type-abstract]  # a Protocol asked for
        if listing is not None:
            return list(listing.label_pairs())
        cached = None if refresh else self._cached()
        if cached is not None:
            return cached
        pairs = self._fetch()
        self._store(pairs)
        return pairs

    def _fetch(self) -> list[tuple[str, str]]:
        try:
            return self._paged(primary_of(self.kg))
        except EndpointUnreachable:
            if not isinstance(self.kg, Backed):
                raise
            fallback = self.kg.fallback  # the offline graph the answers then come from
            return list(fallback.label_pairs()) if isinstance(fallback, KnowsLabels) else \
                list(sparql_labels(fallback, self.page))

    def _paged(self, kg: KnowledgeGraph) -> list[tuple[str, str]]:
        """Every page of labels, resumable: each page read is appended to a partial file beside the cache, and a
        fetch that failed halfway (endpoint down, process stopped) goes on from the page after the last one kept."""
        partial = self.path.with_suffix(".partial.jsonl") if self.path is not None else None
        pairs: list[tuple[str, str]] = []
        kept: list[str] = []
        start: Cursor = (0, "")
        if partial is not None and partial.is_file():
            for line in partial.read_text(encoding="utf-8").splitlines():
                try:
                    record = json.loads(line)
                    page = [(str(label), str(kind)) for label, kind in record["pairs"]]
                    start = (int(record["next"][0]), str(record["next"][1]))
                except (ValueError, KeyError, TypeError, IndexError):
                    break  # a line cut short by a stop (or of another format): the pages before it are kept
                pairs += page
                kept.append(line + "\n")
        if partial is not None:
            partial.parent.mkdir(parents=True, exist_ok=True)
            partial.write_text("".join(kept), encoding="utf-8")  # without the broken line the next pages would follow
        with (partial.open("a", encoding="utf-8") if partial is not None else open(os.devnull, "w")) as out:
            for after, page in label_pages(kg, self.page, start):
                pairs += page
                out.write(json.dumps({"next": list(after), "pairs": page}, ensure_ascii=False) + "\n")
                out.flush()
        return pairs

    def _cached(self) -> list[tuple[str, str]] | None:
        path = self.path
        try:
            if path is None or time.time() - path.stat().st_mtime > self.ttl:
                return None
            data = json.loads(path.read_text(encoding="utf-8"))
            return [(str(label), str(kind)) for kind, labels in data["labels"].items() for label in labels]
        except (OSError, ValueError, KeyError, AttributeError):
            return None  # no cache or a damaged one: fetched again

    def _store(self, pairs: list[tuple[str, str]]) -> None:
        path = self.path
        if path is None:
            return
        by_kind: dict[str, list[str]] = {}
        for label, kind in pairs:
            by_kind.setdefault(kind, []).append(label)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"kg": self.kg.name, "fetched": time.time(), "labels": by_kind}), encoding="utf-8")
        os.replace(tmp, path)
        path.with_suffix(".partial.jsonl").unlink(missing_ok=True)  # complete: the next fetch starts afresh


