"""Projected variables nothing binds: SPARQL 1.1's scope rules over sub-selects, OPTIONAL, UNION, MINUS, FILTER,
BIND, VALUES and GROUP BY, and never a flag on a query SciQA or the project itself writes."""
from __future__ import annotations

from typing import Any

import pytest

from pipeline.sciqa import SciQA
from pipeline.sparql.scope import (
    filtered_but_unbound,
    required_after_optional,
    selected_but_unbound,
    unbound_projection,
)

DATASET = '?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. FILTER (str(?dataset_lbl) = "ClueWeb09-B")'
BENCH = "?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval."
# AQ0209 of the final phase, as Qwen2.5-Coder-1.5B wrote it: half of a metrics example, ?model never bound
RECORDED = (f"SELECT DISTINCT ?model ?model_lbl WHERE {{ {DATASET} {BENCH} OPTIONAL {{?eval orkgp:HAS_METRIC ?metric. "
            "?metric rdfs:label ?metric_lbl.} }")


@pytest.mark.parametrize("query, unbound", [
    (RECORDED, ["?model", "?model_lbl"]),
    (f"SELECT ?metric_lbl WHERE {{ {DATASET} {BENCH} OPTIONAL {{ ?eval orkgp:HAS_METRIC ?metric. "
     "?metric rdfs:label ?metric_lbl. } }", []),
    ("SELECT ?x ?y WHERE { { ?x a orkgc:Model } UNION { ?y a orkgc:Dataset } }", []),
    ("SELECT ?x WHERE { ?s ?p ?o FILTER(?x = ?o) }", ["?x"]),  # a filter tests, it never binds
    ("SELECT ?x WHERE { ?s ?p ?o FILTER NOT EXISTS { ?s rdfs:label ?x } }", ["?x"]),
    ("SELECT ?x WHERE { ?s ?p ?o MINUS { ?s rdfs:label ?x } }", ["?x"]),
    ("SELECT ?x WHERE { ?s ?p ?o FILTER(REGEX(STR(?o), \"a\")) BIND(STR(?o) AS ?x) }", []),
    ("SELECT ?x ?l WHERE { VALUES ?x { orkgr:R1 orkgr:R2 } ?x rdfs:label ?l }", []),
    ("SELECT ?x ?l WHERE { VALUES (?x ?l) { (orkgr:R1 \"a\") (UNDEF \"b\") } }", []),
    ("SELECT ?x ?l WHERE { ?x rdfs:label ?l } VALUES ?x { orkgr:R1 }", []),  # the outer query's own VALUES
    ("SELECT ?x ?y WHERE { ?x rdfs:label ?l } VALUES ?z { orkgr:R1 }", ["?y"]),
    ("SELECT $x WHERE { ?x rdfs:label ?l }", []),  # $x and ?x are one variable
    ("SELECT ?x WHERE { GRAPH ?x { ?s ?p ?o } }", []),
    ("SELECT ?x WHERE { ?s orkgp:P31 [ rdfs:label ?x ] }", []),
    # a sub-select: what it projects is seen outside, nothing else of it
    ("SELECT ?m ?l WHERE { ?m a orkgc:Model { SELECT ?m (MAX(?v) AS ?best) WHERE { ?m orkgp:HAS_VALUE ?v } "
     "GROUP BY ?m } ?m rdfs:label ?l }", []),
    ("SELECT ?best WHERE { { SELECT (MAX(?v) AS ?best) WHERE { ?m orkgp:HAS_VALUE ?v } } }", []),
    ("SELECT ?v WHERE { { SELECT ?m WHERE { ?m orkgp:HAS_VALUE ?v } } }", ["?v"]),
    ("SELECT ?v WHERE { { SELECT ?v WHERE { ?m orkgp:HAS_VALUE ?w } } }", ["?v"]),
    ("SELECT ?v WHERE { { SELECT * WHERE { ?m orkgp:HAS_VALUE ?v } } }", []),
    ("SELECT ?v WHERE { { SELECT ?v WHERE { ?m orkgp:HAS_VALUE ?w } VALUES ?v { 1 } } }", []),
    # aggregates and GROUP BY aliases
    ("SELECT (COUNT(?m) AS ?n) WHERE { ?m a orkgc:Model }", []),
    ("SELECT ?year (COUNT(?p) AS ?n) WHERE { ?p orkgp:P29 ?d } GROUP BY (YEAR(?d) AS ?year)", []),
    ("SELECT ?year (COUNT(?p) AS ?n) WHERE { ?p orkgp:P29 ?d } GROUP BY (YEAR(?d)) ORDER BY DESC(?n)", ["?year"]),
    ("SELECT DISTINCT (?l AS ?name) WHERE { ?m rdfs:label ?l }", []),
    ("SELECT ?l, COUNT(?l) AS ?n WHERE { ?m rdfs:label ?l } GROUP BY ?l", []),  # Virtuoso's projection
    ("SELECT ?l COUNT(?l) WHERE { ?m rdfs:label ?l }", []),
    # nothing to check: SELECT *, ASK, and what does not read as a query
    ("SELECT * WHERE { ?s ?p ?o }", []),
    ("ASK { ?s ?p ?o FILTER(?x = 1) }", []),
    ("PREFIX orkgc: <http://orkg.org/orkg/class/> SELECT ?m FROM <urn:g> WHERE { ?m a orkgc:Model }", []),
    ("SELECT ?x WHERE { ?s ?p ", []),
    ("SELECT ?x ?y WHERE { ?s ?p ?o FILTER(?o = } ?x ?y ) }", []),  # a brace inside a filter's parentheses
    ("", []),
])
def test_a_projected_variable_is_unbound_only_when_no_pattern_can_bind_it(query: str, unbound: list[str]) -> None:
    assert unbound_projection(query) == unbound


def test_the_defect_is_said_in_words() -> None:
    assert selected_but_unbound(RECORDED) == "?model and ?model_lbl are selected but never bound in WHERE"
    assert selected_but_unbound("SELECT ?a ?b ?c WHERE { ?a ?p ?o }") == \
        "?b and ?c are selected but never bound in WHERE"
    assert selected_but_unbound("SELECT ?x WHERE { ?s ?p ?o FILTER(?x = ?o) }") == \
        "?x is selected but never bound in WHERE"
    assert selected_but_unbound("SELECT ?s WHERE { ?s ?p ?o }") == ""


# the 1.5B's query for "List all the models on the UrbanSound8k dataset?" (a probe of follow-up wordings): where an
# evaluation has no model, ?model rdfs:label ?model_label matched every labelled thing of the graph
LATE = ('SELECT DISTINCT ?model_label WHERE { ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. '
        'FILTER (str(?dataset_lbl) = "UrbanSound8k") ?benchmark orkgp:HAS_DATASET ?dataset; '
        'orkgp:HAS_EVALUATION ?eval. '
        'OPTIONAL {?eval orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl.} . ?model rdfs:label ?model_label. }')


@pytest.mark.parametrize(("query", "said"), [
    (LATE, "?model is bound only inside an OPTIONAL and required after it"),
    ("SELECT * WHERE { ?a <p> ?b OPTIONAL { ?b <q> ?c. ?c <r> ?d } ?c <s> ?e. ?d <t> ?f }",
     "?c and ?d are bound only inside an OPTIONAL and required after it"),
    ("SELECT ?x WHERE { { SELECT ?x WHERE { ?x <p> ?y OPTIONAL { ?y <q> ?z } ?z <r> ?x } } }",
     "?z is bound only inside an OPTIONAL and required after it"),
    # bound before the OPTIONAL, used only inside it or only in a FILTER after it, or in a later OPTIONAL: fine
    ("SELECT * WHERE { ?a <p> ?b OPTIONAL { ?b <q> ?c } ?b <r> ?d }", ""),
    ("SELECT * WHERE { ?a <p> ?b OPTIONAL { ?b <q> ?c } FILTER(!BOUND(?c)) }", ""),
    ("SELECT * WHERE { ?a <p> ?b OPTIONAL { ?b <q> ?c } OPTIONAL { ?c <r> ?d } }", ""),
    ("SELECT * WHERE { ?a <p> ?b OPTIONAL { ?b <q> ?c } MINUS { ?c <r> ?d } }", ""),
    ("SELECT * WHERE { ?a <p ?b", ""),  # not read by the grammar: never flagged
])
def test_a_variable_only_an_optional_binds_is_flagged_when_a_later_pattern_requires_it(query: str, said: str) -> None:
    assert required_after_optional(query) == said


def test_no_gold_query_of_sciqa_is_flagged(sciqa: SciQA) -> None:
    """Every split (train, valid, test: SCIQA_DIR), templated and handcrafted; each query read to its end."""
    records = sciqa.all()
    assert len(records) == 2565
    assert [(r.id, unbound_projection(r.sparql)) for r in records if unbound_projection(r.sparql)] == []
    assert [r.id for r in records if required_after_optional(r.sparql)] == []
    assert [r.id for r in records if filtered_but_unbound(r.sparql)] == []
    # the check is not vacuous: the same queries with one variable more in their projection are each flagged
    widened = [r.sparql.replace("SELECT", "SELECT ?nowhere", 1) for r in records
               if r.sparql.lstrip().upper().startswith("SELECT") and "*" not in r.sparql.split("{")[0]]
    assert len(widened) > 2500 and all(unbound_projection(q)[-1:] == ["?nowhere"] for q in widened)


def test_no_query_the_project_writes_itself_is_flagged(train_store: Any, sciqa: SciQA) -> None:
    """The adapter's queries for every valid and test question, the leaderboards fetched beside them, the intent
    composer's pairs, the vocabulary's reads."""
    from pipeline.generators.adapter import AdapterGenerator
    from pipeline.glance.leaderboard import companion
    from pipeline.intent.pairs import intent_pairs
    from pipeline.names.sources import LABELS_QUERY
    from pipeline.names.vocabulary import QUERIES
    from pipeline.store.retrieval import FormAwareStore

    store = FormAwareStore(train_store, train_store.encoder, recheck=1.0)
    adapter = AdapterGenerator(store.min_score, store.knowledge)
    questions = [r.question for split in ("valid", "test") for r in sciqa.split(split)]
    written = [g.sparql for q in questions if (g := adapter.generate(q, store.search(q, 3))).sparql]
    assert len(written) > 0.9 * len(questions)
    rankings = [c.query for q in written if (c := companion(q)) is not None]
    assert rankings
    written += rankings + [p.sparql for p in intent_pairs()] + [q.format(limit=10, after='"a"') for q in QUERIES] \
        + [LABELS_QUERY.replace("{cls}", "Dataset").format(after='"a"', limit=10)]
    assert [q for q in written if unbound_projection(q) or required_after_optional(q) or filtered_but_unbound(q)] == []


@pytest.mark.parametrize("query, said", [
    # HO-11 of the fresh held-out set, as the 1.5B wrote it: the metric's label filtered, never read
    ("SELECT ?model WHERE { ?eval orkgp:HAS_METRIC ?metric. ?cont orkgp:HAS_MODEL ?model. "
     'FILTER (str(?metric_lbl) = "Recall@10") }', "?metric_lbl is filtered on but never bound"),
    ('SELECT ?m WHERE { ?m rdfs:label ?l. FILTER(?a > 1 && ?b < 2) }', "?a and ?b are filtered on but never bound"),
    ('SELECT ?m WHERE { ?m rdfs:label ?l. BIND(STR(?l) AS ?s) FILTER(?s = "x") }', ""),
    ("SELECT ?m WHERE { ?m rdfs:label ?l. FILTER NOT EXISTS { ?m orkgp:P1 ?o. FILTER(?o > 3) } }", ""),
    ("SELECT ?m WHERE { { SELECT ?m (COUNT(?x) AS ?n) WHERE { ?m orkgp:P1 ?x } GROUP BY ?m } FILTER(?n > 2) }", ""),
    ("SELECT ?m WHERE { VALUES ?y { 1 2 } ?m orkgp:P1 ?x. FILTER(?x = ?y) }", ""),
])
def test_a_filter_on_a_variable_nothing_binds_is_flagged(query: str, said: str) -> None:
    assert filtered_but_unbound(query) == said
