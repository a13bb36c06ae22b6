"""A list's query asked as yes or no (``pipeline.sparql.whether``)."""
from __future__ import annotations

from pathlib import Path

from pipeline.kg.oxigraph import OxigraphKG
from pipeline.sparql.explain import explain
from pipeline.sparql.text import add_prefixes
from pipeline.sparql.whether import counted, whether

ORKG = "http://orkg.org/orkg/"
TYPE, LABEL = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type", "http://www.w3.org/2000/01/rdf-schema#label"


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


def test_things_held_to_a_bound_on_their_own_count_are_counted_by_their_rows(tmp_path: Path) -> None:
    """'how many papers have more than 1 contribution': the papers kept by the HAVING, counted as rows, on a graph."""
    held = ("SELECT ?paper_lbl (COUNT(DISTINCT ?cont) AS ?contributions) WHERE { ?paper a orkgc:Paper; "
            "rdfs:label ?paper_lbl; orkgp:P31 ?cont. } GROUP BY ?paper ?paper_lbl HAVING(COUNT(DISTINCT ?cont) > 1)")
    query = counted(held)
    assert query is not None and query.startswith("SELECT (COUNT(*) AS ?count) WHERE {")
    assert counted(held + " ORDER BY ?paper_lbl") is None and counted(held + " LIMIT 2") is None  # ranked, cut
    papers = {"A": 2, "B": 1, "C": 3}  # contributions each
    lines = [f"<{ORKG}resource/{p}> <{TYPE}> <{ORKG}class/Paper> .\n<{ORKG}resource/{p}> <{LABEL}> \"{p}\" .\n" +
             "".join(f"<{ORKG}resource/{p}> <{ORKG}predicate/P31> <{ORKG}resource/{p}{i}> .\n" for i in range(n))
             for p, n in papers.items()]
    (tmp_path / "g.nt").write_text("".join(lines), encoding="utf-8")
    kg = OxigraphKG(tmp_path / "g.nt", row_cap=100)
    assert kg.select(add_prefixes(query)).rows[0]["count"]["value"] == "2"
    assert explain(query).startswith("It asks for how many there are of papers")
