"""A handcrafted query read backwards from its answer: the triples written make the query give exactly that answer."""
from __future__ import annotations

from typing import Any

import pyoxigraph as ox

from pipeline.kg.sciqa_graph.backward import READINGS, answer, instances
from pipeline.kg.sciqa_graph.build import handcrafted
from pipeline.kg.sciqa_graph.facts import Fact
from pipeline.kg.sciqa_graph.witness import Witness, quad


def _lit(value: str) -> dict[str, Any]:
    return {"type": "literal", "value": value}


def _iri(value: str) -> dict[str, Any]:
    return {"type": "uri", "value": value}


def _fact(fid: str, sparql: str, rows: list[dict[str, Any]], boolean: bool | None = None) -> Fact:
    return Fact(fid, "HQ", sparql, {}, rows, boolean)


def _answer_after(f: Fact, reading: int = 0, seed: bool = False) -> set[str] | None:
    triples = instances(f, READINGS[reading], seed)
    assert triples is not None
    store = ox.Store()
    store.extend([quad(t) for t in triples])
    return answer(store, f.sparql)


def test_a_count_of_n_is_n_copies_of_the_pattern_under_its_filter() -> None:
    f = _fact("X1", """SELECT COUNT(?l) AS ?n WHERE { orkgr:R1 orkgp:compareContribution ?c. ?c orkgp:P9 ?a.
      ?a rdfs:label ?l. FILTER(REGEX(?l, "Chlor(ide|ine)")) }""", [{"n": _lit("4")}])
    assert _answer_after(f) == {"4"}


def test_a_bound_yes_or_no_a_cast_total_and_a_number_filter_are_carried_back() -> None:
    uses = _fact("X2", """SELECT ?uses WHERE { ?paper orkgp:P5025 ?f; rdfs:label ?t. FILTER(REGEX(?t, "ZoomRDF"))
      BIND(IF(?f = "T"^^xsd:string, "Yes", "No") AS ?uses) }""", [{"uses": _lit("No")}])
    assert _answer_after(uses) == {"No"}
    total = _fact("X3", """SELECT (SUM(?n) AS ?total) WHERE { orkgr:R5 orkgp:compareContribution ?c.
      ?c orkgp:P31024 ?s. BIND(xsd:integer(?s) AS ?n) }""", [{"total": _lit("3267")}])
    assert _answer_after(total) == {"3267"}
    later = _fact("X4", """SELECT ?c WHERE { orkgr:R6 orkgp:compareContribution ?c. ?c orkgp:P9040 ?date.
      FILTER(?date > "2019") ?c rdfs:label ?x }""", [{"c": _iri("http://orkg.org/orkg/resource/R7")}])
    assert _answer_after(later) == {"http://orkg.org/orkg/resource/R7"}


def test_an_optional_group_is_written_only_for_rows_that_bind_its_answer() -> None:
    f = _fact("X5", """SELECT ?repo ?scenario WHERE { ?m orkgp:P4077 ?repo. OPTIONAL { ?m orkgp:P43146 ?scenario } }""",
              [{"repo": _lit("r1"), "scenario": _iri("http://orkg.org/orkg/resource/R8")},
               {"repo": _lit("r2")}])
    assert _answer_after(f) == {"r1", "r2", "http://orkg.org/orkg/resource/R8"}


def test_a_false_ask_over_a_count_gets_one_copy_that_makes_it_false() -> None:
    f = _fact("X6", """ASK { { SELECT (COUNT(?o) AS ?k) WHERE { orkgr:R9 orkgp:compareContribution ?c.
      ?c orkgp:P41379 ?o. FILTER(?o = "F") } } FILTER(?k = 0) }""", [], boolean=False)
    assert _answer_after(f) == {"true"}  # on nothing it is true
    assert _answer_after(f, seed=True) == {"false"}


def test_the_builder_keeps_what_reproduces_and_lists_what_a_later_question_breaks() -> None:
    every = _fact("X7", "SELECT DISTINCT ?v WHERE { ?_ orkgp:P37571 ?v }", [{"v": _lit("banana")}])
    other = _fact("X8", """SELECT ?v WHERE { orkgr:R2 orkgp:compareContribution ?c. ?c orkgp:P37571 ?v }""",
                  [{"v": _lit("lupin")}])
    w = Witness()
    handcrafted(w, [every, other])
    store = ox.Store()
    store.extend(w.quads())
    assert answer(store, other.sparql) == {"lupin"}
    assert w.conflicts == ["HQ X7: its recorded answer no longer holds once later questions' facts were added"]
