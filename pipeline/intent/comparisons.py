"""What the graph holds of its comparisons, for reading questions about them: each comparison's label and the
properties its contributions carry, with the properties' labels (the graph's own, else the ORKG vocabulary's); and
the things a question names that are values of those properties. Read once per graph by a few read-only queries."""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from pipeline.errors import KgqaError
from pipeline.parts import Encoder, KnowledgeGraph
from pipeline.records import Term
from pipeline.schema.graph import read_facts, short_name
from pipeline.schema.properties import embedded
from pipeline.sparql.gate import gate
from pipeline.sparql.literal import quoted

_NUMBERED = re.compile(r"orkgp:P\d+")
# the leaderboard's own predicates (the intent composer reads them) and the comparison's link to its contributions: a
# comparison describes its contributions by numbered properties and by the ORKG's few named ones (MATERIAL, METHOD)
_NOT_DESCRIBING = frozenset(f"orkgp:{p}" for p in ("HAS_BENCHMARK", "HAS_DATASET", "HAS_EVALUATION", "HAS_METRIC",
                                                    "HAS_MODEL", "HAS_VALUE", "HAS_SOURCE_CODE", "HAS_RESULTS",
                                                    "compareContribution"))
# properties every comparison's papers and contributions have: asked for by their kind's words, never by label
STRUCTURAL = {"orkgp:P31": "paper", "orkgp:P32": "problem", "orkgp:P30": "field", "orkgp:P29": "year",
              "orkgp:HAS_VENUE": "venue"}
_VALUES = ("SELECT DISTINCT ?key ?v ?label ?p WHERE {{ "
           "{{ VALUES ?key {{ {keys} }} ?v rdfs:label ?label . FILTER(LCASE(STR(?label)) = ?key) "
           "{{ ?cmp orkgp:compareContribution ?cont . ?cont ?p ?v }} UNION "
           "{{ ?cmp orkgp:compareContribution ?cont . ?paper orkgp:P31 ?cont ; ?p ?v }} }} UNION "
           "{{ VALUES ?key {{ {keys} }} ?cmp orkgp:compareContribution ?cont . ?cont ?p ?v . "
           "FILTER(isLiteral(?v) && LCASE(STR(?v)) = ?key) BIND(STR(?v) AS ?label) }} }}")


@dataclass(frozen=True)
class Comparisons:
    """The graph's comparisons (orkgr: IRI -> label, "" when it has none), the properties their contributions carry,
    and the labels of those properties."""

    labels: Mapping[str, str]
    properties: Mapping[str, tuple[str, ...]]
    property_labels: Mapping[str, str]
    # the comparisons a phrase means, best first with their cosines (the encoder over their labels), when one is given
    meant: Callable[[str], list[tuple[float, str]]] | None = field(default=None, compare=False, repr=False)
    # the properties a phrase means, the same way over the properties' labels
    property_meant: Callable[[str], list[tuple[float, str]]] | None = field(default=None, compare=False, repr=False)
    numeric: frozenset[str] | None = None  # the properties some contribution gives a number as (None: not known)

    def carried(self, scope: str = "") -> list[str]:
        """The labelled properties of the contributions of ``scope`` (every comparison's when none): the numbered
        ones a comparison describes its contributions by and the ORKG's named ones (``MATERIAL``, ``METHOD``), not the
        structural ones nor a leaderboard's (``HAS_BENCHMARK``, ``HAS_MODEL``: the intent composer's)."""
        held = self.properties.get(scope, ()) if scope else sorted({p for ps in self.properties.values() for p in ps})
        return [p for p in held if p in self.property_labels and p not in STRUCTURAL and p not in _NOT_DESCRIBING
                and (_NUMBERED.fullmatch(p) or p[len("orkgp:"):].isupper())]


@dataclass(frozen=True)
class Value:
    """A thing of the graph a question names that is the value of a property of a comparison's contributions (or of
    their papers): where it is named, its IRI ("" for a literal), its label and the properties it is a value of."""

    span: tuple[int, int]
    iri: str
    label: str
    properties: frozenset[str]


def read_comparisons(kg: KnowledgeGraph, labels: Mapping[str, str] | Callable[[], Mapping[str, str] | None] | None
                     = None) -> Comparisons | None:
    """The graph's comparisons (``schema.graph.read_facts``); ``labels``: property labels from elsewhere (the ORKG
    vocabulary), the graph's own winning, or what reads them, asked only once the graph has said. None when the graph
    cannot say (the recorded snapshot)."""
    try:
        facts = read_facts(kg, frozenset())
    except KgqaError:
        return None
    parts, found = facts.comparisons, facts.labels
    other = (labels() if callable(labels) else labels) or {}
    props = {p: found.get(p) or other.get(p, "") for ps in parts.values() for p in ps}
    return Comparisons({c: found.get(c, "") for c in parts}, dict(parts), {p: label for p, label in props.items()
                                                                          if label}, numeric=_numeric(kg))


_NUMERIC = ('SELECT DISTINCT ?p WHERE { ?cmp orkgp:compareContribution ?cont . ?cont ?p ?v . '
            'FILTER(isLiteral(?v) && REGEX(STR(?v), "^ *[-+]?[.]?[0-9]")) } LIMIT 5000')


def select_rows(kg: KnowledgeGraph, query: str) -> list[dict[str, Term]] | None:
    """The rows of a read-only ``query`` through the gate (at most 5,000); None when it is refused or fails."""
    check = gate(query, 5000)
    try:
        return kg.select(check.fixed).rows if check.ok else None
    except KgqaError:
        return None


def _numeric(kg: KnowledgeGraph) -> frozenset[str] | None:
    """The properties some contribution of a comparison gives a number as ('164', '1.8 mg/L'): the only ones a
    highest, a lowest or an average is taken of. None when the graph cannot say."""
    rows = select_rows(kg, _NUMERIC)
    return None if rows is None else frozenset(short_name(r.get("p", {}).get("value", "")) for r in rows)


def values_named(kg: KnowledgeGraph, text: str, spans: Sequence[tuple[int, int]]) -> list[Value]:
    """The values of comparison properties the question names (a label equal to a span, any case), longest first,
    none overlapping."""
    keys: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for a, b in spans:
        key = " ".join(text[a:b].lower().split())
        if key.replace(".", "").replace(",", "").isdigit():
            continue  # a number is a bound or a year, read as such
        keys[key].append((a, b))
        if key.endswith("s") and not key.endswith("ss") and len(key) > 4:  # 'infrared heaters': 'Infrared heater'
            keys[key[:-1]].append((a, b))
    if not keys:
        return []
    rows = select_rows(kg, _VALUES.format(keys=" ".join(map(quoted, sorted(keys))))) or []
    by_key: dict[str, tuple[str, str, set[str]]] = {}
    for row in rows:
        key, p = row.get("key", {}).get("value", ""), short_name(row.get("p", {}).get("value", ""))
        v = row.get("v", {})
        iri = short_name(v.get("value", "")) if v.get("type") == "uri" else ""
        if key and p.startswith("orkgp:"):
            by_key.setdefault(key, (iri, row.get("label", {}).get("value", key), set()))[2].add(p)
    out: list[Value] = []
    for key in sorted(by_key, key=lambda k: -len(k)):
        iri, label, props = by_key[key]
        for a, b in keys[key]:
            if not any(v.span[0] < b and a < v.span[1] for v in out):
                out.append(Value((a, b), iri, label, frozenset(props)))
    return sorted(out, key=lambda v: v.span)


_SCOPED = ("SELECT DISTINCT ?v ?label ?p WHERE {{ {scope} orkgp:compareContribution ?cont . ?cont ?p ?v . "
           "?v rdfs:label ?label . }} LIMIT 5000")


def values_of(kg: KnowledgeGraph, scope: str) -> list[Value]:
    """Every labelled value of the properties of ``scope``'s contributions (spans left empty): for names typed with
    a slip, matched word by word by the reader."""
    rows = select_rows(kg, _SCOPED.format(scope=scope)) or []
    found: dict[tuple[str, str], set[str]] = defaultdict(set)
    for row in rows:
        p = short_name(row.get("p", {}).get("value", ""))
        if p.startswith("orkgp:"):
            found[(short_name(row.get("v", {}).get("value", "")), row.get("label", {}).get("value", ""))].add(p)
    return [Value((0, 0), iri, label, frozenset(props)) for (iri, label), props in sorted(found.items())]


_HOLDERS = ("SELECT DISTINCT ?cmp WHERE {{ ?v rdfs:label ?label . FILTER(LCASE(STR(?label)) = {key}) "
            "?cmp orkgp:compareContribution ?cont . ?cont ?p ?v . }} LIMIT 100")


def holders(kg: KnowledgeGraph, label: str) -> list[str]:
    """The comparisons whose contributions carry a value labelled ``label`` (any case)."""
    rows = select_rows(kg, _HOLDERS.format(key=quoted(label.lower()))) or []
    return [short_name(r.get("cmp", {}).get("value", "")) for r in rows]


class ComparisonFacts:
    """``read_comparisons`` once per graph (None while the graph cannot say, asked again next time), the vocabulary's
    labels read once, at the first graph that says (a vocabulary may hold hundreds of thousands)."""

    def __init__(self, labels: Callable[[], Mapping[str, str] | None] | None = None,
                 encoder: Encoder | None = None) -> None:
        """``labels``: property labels from the ORKG's vocabulary; ``encoder``: to find a comparison named in other
        words than its label's (the example store's sentence encoder)."""
        self.labels, self.encoder = labels, encoder
        self._read: dict[str, Comparisons | None] = {}
        self._labels: Mapping[str, str] | None = None
        self._labels_read = False

    def _vocabulary_labels(self) -> Mapping[str, str] | None:
        if not self._labels_read:
            self._labels, self._labels_read = self.labels() if self.labels else None, True
        return self._labels

    def get(self, kg: KnowledgeGraph) -> Comparisons | None:
        if kg.name not in self._read:
            facts = read_comparisons(kg, self._vocabulary_labels)
            if facts is None:
                return None
            named = [(iri, label) for iri, label in facts.labels.items() if label]
            labelled = [(p, facts.property_labels[p]) for p in facts.carried()]
            if self.encoder is not None and named:
                facts = replace(facts, meant=_meaning(self.encoder, named),
                                property_meant=_meaning(self.encoder, labelled) if labelled else None)
            self._read[kg.name] = facts
        return self._read[kg.name]


def _meaning(encoder: Encoder, named: Sequence[tuple[str, str]]) -> Callable[[str], list[tuple[float, str]]]:
    """The things (comparisons, properties) a phrase means by the cosine of its embedding to each label's (embedded
    once, here)."""
    vectors = embedded([label for _, label in named], encoder, None)

    def meant(phrase: str) -> list[tuple[float, str]]:
        scores = vectors @ embedded([phrase], encoder, None)[0]
        return sorted(((float(score), iri) for score, (iri, _) in zip(scores, named)), reverse=True)

    return meant
