"""A list's query asked as yes or no (``pipeline.sparql.whether``)."""
from __future__ import annotations

from pipeline.sparql.whether import whether


def test_a_plain_list_is_asked_whether_any_exist_and_nothing_else_is() -> None:
    listed = ('SELECT DISTINCT ?paper ?paper_lbl WHERE { ?paper a orkgc:Paper; rdfs:label ?paper_lbl; orkgp:P29 ?y. '
              'FILTER(xsd:integer(?y) < 2016) }')
    assert whether(listed) == ('ASK WHERE { ?paper a orkgc:Paper; rdfs:label ?paper_lbl; orkgp:P29 ?y. '
                               'FILTER(xsd:integer(?y) < 2016) }')
    assert whether(listed + " LIMIT 1") is None  # a cut: the first one, not whether any
    assert whether("SELECT (COUNT(?p) AS ?n) WHERE { ?p a orkgc:Paper }") is None
    assert whether("SELECT ?m WHERE { ?m ?p ?o { SELECT ?o WHERE { ?o ?q ?r } } }") is None
