"""The question's names linked to the graph before the model writes: each label of the graph the question writes (the
names index, ``pipeline.names``), its kind and the resource it names, so that the model copies a name instead of
guessing one."""
from __future__ import annotations

from dataclasses import dataclass

from pipeline.errors import KgqaError
from pipeline.names.index import LabelIndex
from pipeline.names.written import FORM_WORDS, written_labels
from pipeline.parts import KnowledgeGraph
from pipeline.records import Kind
from pipeline.sparql.literal import quoted
from pipeline.sparql.text import PREFIXES

MAX_LINKS = 6
_IRIS = ("SELECT ?x ?l WHERE {{ VALUES ?l {{ {labels} }} ?x <http://www.w3.org/2000/01/rdf-schema#label> ?l ; "
         "a <{cls}> }} LIMIT 50")


@dataclass(frozen=True)
class Link:
    """A name the question writes, as the graph labels it."""

    typed: str  # as the question writes it
    label: str  # the graph's label
    kind: Kind
    iri: str = ""  # prefixed (orkgr:R...), "" when the graph did not say

    def line(self) -> str:
        where = f" = {self.iri}" if self.iri else ""
        return f'"{self.label}" is a {self.kind.orkg_class} (orkgc:{self.kind.orkg_class}){where}'


def _generic(label: str) -> bool:
    return all(w.lower() in FORM_WORDS for w in label.split())


def linked(question: str, index: LabelIndex, kg: KnowledgeGraph | None = None) -> list[Link]:
    """The graph's labels the question writes, longest first, one per place in the question (a label that only
    spells a class word, 'score', is not a name); with their resources when ``kg`` can say."""
    found: list[tuple[int, int, str, Kind]] = []
    for kind in Kind:
        for label, spans in written_labels(question, kind.value, index).items():
            if not _generic(label):
                found += [(start, end, label, kind) for start, end in spans]
    found.sort(key=lambda f: (-(f[1] - f[0]), f[2] != question[f[0]:f[1]], f[0]))
    taken: list[tuple[int, int]] = []
    links: list[Link] = []
    for start, end, label, kind in found:
        if any(start < e and s < end for s, e in taken) or len(links) >= MAX_LINKS:
            continue
        taken.append((start, end))
        links.append(Link(question[start:end], label, kind))
    return _with_iris(links, kg) if kg is not None else links


def _with_iris(links: list[Link], kg: KnowledgeGraph) -> list[Link]:
    out = []
    for link in links:
        query = _IRIS.format(labels=quoted(link.label), cls=PREFIXES["orkgc"] + link.kind.orkg_class)
        try:
            rows = kg.select(query).rows
        except KgqaError:
            rows = []
        iris = {r.get("x", {}).get("value", "") for r in rows}
        local = [i[len(PREFIXES["orkgr"]):] for i in iris if i.startswith(PREFIXES["orkgr"])]
        out.append(Link(link.typed, link.label, link.kind, f"orkgr:{local[0]}" if len(local) == 1 else ""))
    return out


def render(links: list[Link]) -> str:
    if not links:
        return ""
    return "Names in the question, as the graph writes them:\n" + "\n".join(link.line() for link in links) + "\n"
