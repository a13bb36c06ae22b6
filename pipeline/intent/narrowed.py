"""A list's query narrowed by a condition no pair of its kind holds: 'which NLP models are from papers after 2019' is
the field's models ('IP-field-…') held to the papers' years, 'neurips papers on band gap prediction' a problem's
papers held to the venue. One clause per condition, joined to the query's papers (or to its contributions through
their papers), compiled here alone; the composer tries it only where no pair holds every name the question gives."""
from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.intent.named import Name
from pipeline.intent.reading import YEAR
from pipeline.records import Kind
from pipeline.sparql.literal import quoted
from pipeline.sparql.shape import read

# a condition's kind: the predicate from a paper (or, for a problem, from a contribution) and the meanings its words
# carry in the question ('papers after 2019': a paper's year, compared)
_FROM_PAPER: dict[str, str] = {YEAR: "orkgp:P29", Kind.RESEARCHFIELD: "orkgp:P30", Kind.VENUE: "orkgp:HAS_VENUE"}
_FROM_CONTRIBUTION: dict[str, str] = {Kind.PROBLEM: "orkgp:P32"}
_SAYS: dict[str, frozenset[str]] = {
    YEAR: frozenset({"compare", "paper"}), Kind.RESEARCHFIELD: frozenset({"field", "paper"}),
    Kind.VENUE: frozenset({"venue", "paper"}),
    Kind.PROBLEM: frozenset({"problem", "paper"})}
_OF_CONTRIBUTIONS = ("orkgp:HAS_MODEL", "orkgp:HAS_BENCHMARK", "orkgp:P32", "orkgp:HAS_SOURCE_CODE")


@dataclass(frozen=True)
class Narrowing:
    """A name of the question held as a condition on a pair's papers; ``op``: how a year compares ('>', '<=', or
    '=' for a year said alone); ``negated``: said after a negation, the papers held to have none of it ('battery
    papers that arent about SOH estimation')."""

    name: Name
    kind: str
    op: str = "="
    negated: bool = False

    @property
    def says(self) -> frozenset[str]:
        """The meanings the condition's words carry, said by the narrowed query."""
        return _SAYS[self.kind] | ({"not"} if self.negated else frozenset())

    def applied(self, sparql: str) -> str | None:
        """``sparql`` with the condition joined to its papers; None when it reaches no paper nor contribution, or
        already holds a condition of this kind (a pair of its own would have taken the name)."""
        shape = read(sparql)
        own = _FROM_PAPER.get(self.kind) or _FROM_CONTRIBUTION[self.kind]
        if "}" not in sparql or re.search(r"\{\s*SELECT\b", sparql, re.I):
            return None  # (a query within the query, a tie's bound: the condition would not reach it)
        if own in {p for _, p, _ in shape.triples}:
            # the query lists things of this kind: one said after a negation is left out of them ('where did X
            # papers appear, other than CVPR'); any other condition of the kind is a pair's own
            labels = [lbl for s_, p, o in shape.triples if p == own for s2, p2, lbl in shape.triples
                      if s2 == o and p2 == "rdfs:label" and lbl.startswith("?")]
            if not self.negated or not labels or (self.kind, own) == (YEAR, "orkgp:P29"):
                return None
            return _before_end(sparql, f"FILTER(str({labels[0]}) != {quoted(self.name.label)}) ")
        # what a query leaves out ('FILTER NOT EXISTS') is no place to hold a condition
        held = [t for t in shape.triples if t not in shape.lacking]
        # a paper: what has a contribution, a year, a field or a venue, or is typed so ('?paper a orkgc:Paper')
        papers = [s for s, p, o in held if s.startswith("?") and (
            p in ("orkgp:P31", "orkgp:P29", "orkgp:P30", "orkgp:HAS_VENUE") or (p in ("a", "rdf:type")
                                                                                and o == "orkgc:Paper"))]
        contributions = [o for _, p, o in held if p == "orkgp:P31" and o.startswith("?")] + \
            [s for s, p, _ in held if p in _OF_CONTRIBUTIONS and s.startswith("?")]
        benchmarks = [s for s, p, _ in held if p in ("orkgp:HAS_DATASET", "orkgp:HAS_EVALUATION") and s.startswith("?")]
        if not papers and not contributions and benchmarks:  # a leaderboard's own: through the contributions on it
            contributions = ["?n_cont"]
            sparql = _before_end(sparql, f"?n_cont orkgp:HAS_BENCHMARK {benchmarks[0]}. ")
        if self.kind in _FROM_CONTRIBUTION:
            if contributions:
                joined = f"{contributions[0]} {own} ?n_thing. "
            elif papers:
                joined = f"{papers[0]} orkgp:P31 ?n_cont. ?n_cont {own} ?n_thing. "
            else:
                return None
        elif papers:
            joined = f"{papers[0]} {own} ?n_thing. "
        elif contributions:
            joined = f"?n_paper orkgp:P31 {contributions[0]}; {own} ?n_thing. "
        else:
            return None
        if self.kind == YEAR:  # named so where the query has no ?year: the reply reads 'with year above 2019'
            var = "?year" if not re.search(r"\?year\b", sparql) else "?n_thing"
            clause = joined.replace("?n_thing", var) + f"FILTER(xsd:integer({var}) {self.op} {self.name.label}) "
        else:
            label = quoted(self.name.label)
            clause = joined + f"?n_thing rdfs:label ?n_thing_lbl. FILTER(str(?n_thing_lbl) = {label}) "
        if self.negated:
            clause = f"FILTER NOT EXISTS {{ {clause}}} "
        return _before_end(sparql, clause)


def _before_end(sparql: str, clause: str) -> str:
    """``clause`` added at the end of the query's pattern (before its last '}': its ORDER, GROUP or LIMIT after)."""
    end = sparql.rindex("}")
    return sparql[:end].rstrip() + " " + clause + sparql[end:]


def narrowings(names: list[Name], stated: dict[str, str], negated_at: int | None = None) -> list[Narrowing]:
    """The question's names a pair's papers may be held to: a year (compared as ``stated`` says, else equal), a
    research field, a venue, a research problem; those said after a negation (at ``negated_at``: 'papers that arent
    about X') held to have none of it, a year so not at all."""
    out = []
    for name in names:
        negated = negated_at is not None and name.start > negated_at
        if negated and YEAR in name.kinds:
            continue
        if YEAR in name.kinds:
            out.append(Narrowing(name, YEAR, stated.get(name.label, "=")))
        for kind in (Kind.RESEARCHFIELD, Kind.VENUE, Kind.PROBLEM):
            if kind in name.kinds and len(name.kinds) == 1:
                out.append(Narrowing(name, kind, negated=negated))
    return out
