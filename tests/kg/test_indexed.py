"""The index rewrites keep a query's meaning: plain, typed and language-tagged labels alike, unbound variables,
sub-SELECTs, optional parts; and SciQA's gold queries give the same rows rewritten and not (a sample; the full
count is `python scripts/bench_scale.py same-rows`, docs/results/scale.md)."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from pipeline.kg.indexed import for_index, label_values, lateral_optionals
from pipeline.kg.oxigraph import OxigraphKG, _row
from pipeline.sciqa import SciQA
from pipeline.sparql.dialect import normalise
from pipeline.sparql.reorder import triples_before_optionals
from pipeline.sparql.text import add_prefixes

R, L, T = "http://orkg.org/orkg/resource/", "http://www.w3.org/2000/01/rdf-schema#label", \
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
GRAPH = f"""
<{R}d1> <{T}> <{R}Dataset> . <{R}d1> <{L}> "SQuAD1.1" .
<{R}d2> <{T}> <{R}Dataset> . <{R}d2> <{L}> "SQuAD1.1"^^<http://www.w3.org/2001/XMLSchema#string> .
<{R}d3> <{T}> <{R}Dataset> . <{R}d3> <{L}> "SQuAD1.1"@en .
<{R}d4> <{T}> <{R}Dataset> . <{R}d4> <{L}> "SQuAD1.1 v17" .
<{R}d5> <{T}> <{R}Dataset> . <{R}d5> <{L}> "42"^^<http://www.w3.org/2001/XMLSchema#integer> .
<{R}d6> <{T}> <{R}Dataset> .
<{R}d1> <{R}model> <{R}m1> . <{R}m1> <{L}> "BERT" .
"""


def kg(tmp_path: Path) -> OxigraphKG:
    (tmp_path / "g.nt").write_text(GRAPH.replace(" . <", " .\n<"), encoding="utf-8")
    return OxigraphKG(tmp_path / "g.nt", row_cap=100)


def subjects(graph: OxigraphKG, query: str) -> list[str]:
    return sorted(row["d"]["value"].rsplit("/", 1)[-1] for row in graph.select(query).rows if "d" in row)


def plain_rows(graph: OxigraphKG, query: str) -> list[str]:
    """Rows as pyoxigraph gives them for the query as written (no rewrite)."""
    result: Any = graph.store.query(query, use_default_graph_as_union=True)
    if not hasattr(result, "variables"):
        return [str(bool(result))]
    names = [v.value for v in result.variables]
    return sorted(json.dumps(_row(s, names), sort_keys=True) for s in result)


def rewritten_rows(graph: OxigraphKG, query: str) -> list[str]:
    rows = graph.select(query)
    return [str(rows.boolean)] if rows.boolean is not None else \
        sorted(json.dumps(r, sort_keys=True) for r in rows.rows)


def test_str_equality_matches_every_literal_form_the_store_holds(tmp_path: Path) -> None:
    graph = kg(tmp_path)
    query = f'SELECT ?d WHERE {{ ?d <{L}> ?l FILTER(str(?l) = "SQuAD1.1") }}'
    assert "VALUES ?l" in label_values(query, graph.literal_forms)
    assert subjects(graph, query) == ["d1", "d2", "d3"]  # plain, xsd:string and @en; not the look-alike
    assert subjects(graph, f'SELECT ?d WHERE {{ ?d <{L}> ?l FILTER(str(?l) = "42") }}') == ["d5"]
    assert subjects(graph, f'SELECT ?d WHERE {{ ?d <{L}> ?l FILTER(str(?l) = "nothing") }}') == []


def test_plain_equality_matches_the_plain_form_only(tmp_path: Path) -> None:
    graph = kg(tmp_path)
    assert subjects(graph, f'SELECT ?d WHERE {{ ?d <{L}> ?l FILTER(?l = "SQuAD1.1") }}') == ["d1", "d2"]


def test_a_variable_not_bound_by_the_groups_triples_is_left_to_the_filter(tmp_path: Path) -> None:
    graph = kg(tmp_path)
    optional = f'SELECT ?d WHERE {{ ?d <{T}> <{R}Dataset> OPTIONAL {{ ?d <{L}> ?l }} FILTER(str(?l) = "SQuAD1.1") }}'
    assert "VALUES" not in label_values(optional, graph.literal_forms)  # VALUES would bind ?l where it is unbound
    assert subjects(graph, optional) == ["d1", "d2", "d3"]
    sub = f'SELECT ?d WHERE {{ SELECT ?d ?l WHERE {{ ?d <{L}> ?l }} }}'
    assert label_values(sub, graph.literal_forms) == sub
    iri_like = f'SELECT ?d WHERE {{ ?d <{L}> ?l FILTER(str(?l) = "{R}x") }}'
    assert label_values(iri_like, graph.literal_forms) == iri_like  # str(?iri) may equal a text with ':'


def test_optional_parts_of_several_patterns_are_matched_per_solution(tmp_path: Path) -> None:
    graph = kg(tmp_path)
    query = (f'SELECT ?d ?n WHERE {{ ?d <{T}> <{R}Dataset> OPTIONAL {{ ?d <{R}model> ?m . ?m <{L}> ?n }} }}')
    assert "LATERAL { OPTIONAL" in lateral_optionals(query)
    assert lateral_optionals(f'SELECT ?d WHERE {{ ?d ?p ?o OPTIONAL {{ ?d <{L}> ?n }} }}').count("LATERAL") == 0
    assert rewritten_rows(graph, query) == plain_rows(graph, query)
    assert len(graph.select(query).rows) == 6


def test_sciqa_gold_queries_give_the_same_rows_rewritten(sciqa_graph: Any, sciqa: SciQA) -> None:
    records = sorted(sciqa.all(), key=lambda r: r.id)
    sample = random.Random(38).sample(records, 150)
    changed = 0
    for record in sample:
        query = triples_before_optionals(add_prefixes(normalise(record.sparql).query))
        if plain_rows(sciqa_graph, query) != rewritten_rows(sciqa_graph, query):
            changed += 1
    assert changed == 0
    assert sum("VALUES" in for_index(add_prefixes(r.sparql), sciqa_graph.literal_forms) for r in sample) > 100


def test_a_case_insensitive_label_test_gets_the_labels_lowered_alike(tmp_path: Path) -> None:
    graph = kg(tmp_path)
    query = (f'SELECT ?d ?l WHERE {{ VALUES ?key {{ "squad1.1" "bert" }} ?d <{L}> ?l . '
             f'FILTER(LCASE(STR(?l)) = ?key) {{ ?d <{T}> ?k }} UNION {{ ?s <{R}model> ?d }} }}')
    rewritten = for_index(query, graph.literal_forms, graph.lowered)
    assert "VALUES ?l" in rewritten and "LATERAL { {" in rewritten
    assert rewritten_rows(graph, query) == plain_rows(graph, query)
    assert subjects(graph, query) == ["d1", "d2", "d3", "m1"]
    filtered = f'SELECT ?d WHERE {{ ?d <{L}> ?l {{ ?d ?p ?o FILTER(?o != ?l) }} UNION {{ ?d ?p ?o }} }}'
    assert "LATERAL" not in lateral_optionals(filtered)  # a branch's filter over a variable bound outside it
