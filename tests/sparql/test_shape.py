"""The lenient reader of a query's shape."""
from __future__ import annotations

from pipeline.sparql.shape import LabelFilter, read, stem
from tests.matching.test_forms import T01, T05

T04 = ('SELECT DISTINCT ?metric ?metric_lbl (MAX(?value) AS ?score) WHERE { { SELECT ?metric ?metric_lbl ?value '
       'WHERE { ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. FILTER (str(?dataset_lbl) = "IMDb") '
       '?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval. ?eval orkgp:HAS_VALUE ?value. '
       'OPTIONAL { ?eval orkgp:HAS_METRIC ?metric. ?metric rdfs:label ?metric_lbl. } } ORDER BY DESC(?value) } } '
       'GROUP BY ?metric ?metric_lbl')


def test_projection_filters_triples_and_classes() -> None:
    shape = read(T01.format(d="RACE"))
    assert shape.form == "SELECT" and shape.projection == ["?model", "?model_lbl"]
    assert shape.filters == [LabelFilter("?dataset_lbl", "=", "RACE")]
    assert ("?paper", "orkgp:HAS_MODEL", "?model") in shape.triples  # inside OPTIONAL too
    assert shape.classes() == {"?dataset": "Dataset"}
    assert shape.kind_of_literal("RACE") == "dataset"


def test_subquery_ordering_limit_and_outer_projection() -> None:
    shape = read(T05.format(m="F1", d="RACE"))
    assert shape.projection == ["?model", "?model_lbl"]
    assert shape.order == [("DESC", "?value")] and shape.limits == [1]
    assert [shape.kind_of_literal(x) for x in ("F1", "RACE", "nope")] == ["metric", "dataset", ""]


def test_aggregates_and_grouping() -> None:
    shape = read(T04)
    assert shape.aggregates == [("MAX", "?value", "?score")]
    assert shape.group_by == ["?metric", "?metric_lbl"]
    assert "?score" in shape.projection


def test_regex_and_comparison_filters_and_count_ordering() -> None:
    shape = read('SELECT ?a WHERE { orkgr:R1 orkgp:compareContribution ?c. ?c orkgp:P1 ?d. '
                 'FILTER(REGEX(?d, "cancer", "i")) FILTER(?d > "2019"^^xsd:string) } ORDER BY DESC(COUNT(?a)) LIMIT 1')
    assert [(f.op, f.literal) for f in shape.filters] == [("regex", "cancer"), (">", "2019")]
    assert shape.order == [("DESC", "COUNT ( ?a )")]


def test_malformed_text_reads_as_far_as_it_goes() -> None:
    assert read("SELECT ?x WHERE { ?x a orkgc:Model").classes() == {"?x": "Model"}
    assert read("not a query").form == ""
    assert stem("?research_problems_labels") == "research_problems"


def test_each_end_of_a_range_is_a_comparison() -> None:
    shape = read("SELECT ?m WHERE { ?e orkgp:HAS_VALUE ?v. BIND(xsd:decimal(?v) AS ?s) "
                 "FILTER(?s >= 0.8 && ?s <= 0.85) }")
    assert [(f.var, f.op, f.literal) for f in shape.compared] == [("?s", ">=", "0.8"), ("?s", "<=", "0.85")]
