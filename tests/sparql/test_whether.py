"""A list's query asked as yes or no (``pipeline.sparql.whether``)."""
from __future__ import annotations

from pipeline.sparql.whether import counted, whether


def test_a_plain_list_is_asked_whether_any_exist_and_nothing_else_is() -> None:
    listed = ('SELECT DISTINCT ?paper ?paper_lbl WHERE { ?paper a orkgc:Paper; rdfs:label ?paper_lbl; orkgp:P29 ?y. '
              'FILTER(xsd:integer(?y) < 2016) }')
    assert whether(listed) == ('ASK WHERE { ?paper a orkgc:Paper; rdfs:label ?paper_lbl; orkgp:P29 ?y. '
                               'FILTER(xsd:integer(?y) < 2016) }')
    assert whether(listed + " LIMIT 1") is None  # a cut: the first one, not whether any
    assert whether("SELECT (COUNT(?p) AS ?n) WHERE { ?p a orkgc:Paper }") is None
    assert whether("SELECT ?m WHERE { ?m ?p ?o { SELECT ?o WHERE { ?o ?q ?r } } }") is None


def test_a_plain_list_of_one_kind_of_thing_is_counted_and_nothing_else_is() -> None:
    listed = ('SELECT DISTINCT ?paper ?paper_lbl WHERE { ?paper a orkgc:Paper; rdfs:label ?paper_lbl; orkgp:P29 ?y. '
              'FILTER(xsd:integer(?y) < 2016) }')
    assert counted(listed) == ('SELECT (COUNT(DISTINCT ?paper) AS ?count) WHERE { ?paper a orkgc:Paper; '
                               'rdfs:label ?paper_lbl; orkgp:P29 ?y. FILTER(xsd:integer(?y) < 2016) }')
    assert counted("SELECT ?model_lbl WHERE { ?m rdfs:label ?model_lbl }") is not None  # its labels alone
    assert counted("SELECT ?model_lbl ?value WHERE { ?m rdfs:label ?model_lbl; ?p ?value }") is None  # two things
    assert counted(listed + " LIMIT 3") is None  # the first three: no count of them all
    assert counted("SELECT (COUNT(?p) AS ?n) WHERE { ?p a orkgc:Paper }") is None
