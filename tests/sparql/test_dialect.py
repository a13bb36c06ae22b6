"""Virtuoso's dialect made SPARQL 1.1: each relaxation case by case, run on a small graph for what it means."""
from __future__ import annotations

import pyoxigraph as ox
import pytest

from pipeline.sciqa import SciQA
from pipeline.sparql.dialect import (
    IMPLIED_GROUP_BY,
    PROJECTION_COMMAS,
    RELAXATIONS,
    UNPARENTHESISED,
    Dialect,
    normalise,
)
from pipeline.sparql.grammar import syntax_problem
from pipeline.sparql.text import PREFIXES

EX = "http://example.org/"
GRAPH = f"""
<{EX}c1> <{EX}compound> <{EX}water> . <{EX}c2> <{EX}compound> <{EX}water> . <{EX}c3> <{EX}compound> <{EX}salt> .
<{EX}water> <{EX}label> "water" . <{EX}salt> <{EX}label> "salt" .
<{EX}c1> <{EX}mass> "2.5" . <{EX}c2> <{EX}mass> "4" . <{EX}c3> <{EX}mass> "1" .
"""
HEAD = f"PREFIX : <{EX}>\n"


def rows(query: str) -> list[tuple[str, ...]]:
    store = ox.Store()
    store.load(GRAPH.encode(), ox.RdfFormat.TURTLE)
    result = store.query(HEAD + query, prefixes=PREFIXES)
    assert isinstance(result, ox.QuerySolutions)
    names = [v.value for v in result.variables]
    return sorted(tuple(str(s[n].value) if s[n] is not None else "" for n in names) for s in result)


def test_a_valid_query_is_never_touched() -> None:
    query = "SELECT ?x (COUNT(?c) AS ?n) WHERE { ?c :compound ?x } GROUP BY ?x"
    assert normalise(HEAD + query) == Dialect(HEAD + query, ())


def test_projection_commas_are_blanks() -> None:
    out = normalise(HEAD + "SELECT DISTINCT ?x, ?l WHERE { ?c :compound ?x . ?x :label ?l }")
    assert out.applied == (PROJECTION_COMMAS,)
    assert rows(out.query[len(HEAD):]) == [(f"{EX}salt", "salt"), (f"{EX}water", "water")]


def test_an_unnamed_aggregate_is_named_and_grouped_as_virtuoso_groups_it() -> None:
    out = normalise(HEAD + "SELECT ?x COUNT(?x) WHERE { ?c :compound ?x }")
    assert out.applied == (UNPARENTHESISED, IMPLIED_GROUP_BY)
    assert "(COUNT(?x) AS ?count_x)" in out.query and "GROUP BY ?x" in out.query
    assert rows(out.query[len(HEAD):]) == [(f"{EX}salt", "1"), (f"{EX}water", "2")]


def test_an_aggregate_named_without_parentheses() -> None:
    out = normalise(HEAD + "SELECT COUNT(?c) AS ?n WHERE { ?c :compound :water }")
    assert out.applied == (UNPARENTHESISED,)
    assert rows(out.query[len(HEAD):]) == [("2",)]


def test_a_lone_aggregate_needs_no_grouping() -> None:
    out = normalise(HEAD + "SELECT MAX(?m) WHERE { ?c :mass ?v BIND(xsd:float(?v) AS ?m) }")
    assert out.applied == (UNPARENTHESISED,)
    assert rows(out.query[len(HEAD):]) == [("4",)]


def test_a_renamed_variable_without_parentheses() -> None:
    out = normalise(HEAD + "SELECT ?x AS ?what { ?c :compound ?x } ")
    assert out.applied == (UNPARENTHESISED,)
    assert "(?x AS ?what)" in out.query


def test_ordering_by_an_aggregate_groups_by_the_projection() -> None:
    out = normalise(HEAD + "SELECT ?x WHERE { ?c :compound ?x } ORDER BY DESC(COUNT(?x)) LIMIT 1")
    assert out.applied == (IMPLIED_GROUP_BY,)
    assert rows(out.query[len(HEAD):]) == [(f"{EX}water",)]


def test_an_aggregate_beside_a_plain_variable_is_grouped() -> None:
    out = normalise(HEAD + "SELECT ?l (MAX(?m) AS ?top) WHERE { ?c :compound ?x ; :mass ?m . ?x :label ?l }")
    assert out.applied == (IMPLIED_GROUP_BY,)
    assert rows(out.query[len(HEAD):]) == [("salt", "1"), ("water", "4")]


def test_the_relaxations_apply_inside_a_subquery_and_a_comma_in_a_string_is_kept() -> None:
    query = (HEAD + 'SELECT ?x ?n WHERE { { SELECT ?x, COUNT(?c) AS ?n WHERE { ?c :compound ?x } } '
             '?x :label ?l FILTER(?l != "a, b") }')
    out = normalise(query)
    assert out.applied == (PROJECTION_COMMAS, UNPARENTHESISED, IMPLIED_GROUP_BY)
    assert '"a, b"' in out.query
    assert rows(out.query[len(HEAD):]) == [(f"{EX}salt", "1"), (f"{EX}water", "2")]


def test_a_comment_and_a_name_clash_do_not_confuse_it() -> None:
    out = normalise(HEAD + "SELECT ?x COUNT(?x) # how many\nWHERE { ?c :compound ?x BIND(1 AS ?count_x) }")
    assert "(COUNT(?x) AS ?count_x2)" in out.query and "# how many" in out.query


@pytest.mark.parametrize("query", [
    "SELECT ?x, WHERE { ?c :compound ?x }",  # a stray comma and nothing after it
    "SELECT ?x (AVG(?m AS ?a)) WHERE { ?c :mass ?m }",  # AS inside the aggregate: Virtuoso refuses it too
    "SELECT ?x WHERE { ?c :compound ?x ",  # broken beyond the dialect
    "SELECT ?x COUNT ?x WHERE { ?c :compound ?x }",
    "SELECT * WHERE { ?c :compound ?x } GROUP BY ?x",
])
def test_what_no_relaxation_makes_valid_is_left_as_it_came(query: str) -> None:
    assert normalise(HEAD + query) == Dialect(HEAD + query, ())


def test_every_sciqa_gold_query_is_sparql_1_1_or_named_so(sciqa: SciQA) -> None:
    """Valid gold queries stay as they are; of the rest, every one the relaxations make parse says which."""
    left = []
    for record in sciqa.all():
        out = normalise(record.sparql)
        if syntax_problem(record.sparql, PREFIXES) is None:
            assert out.query == record.sparql and out.applied == ()
        elif out.applied:
            assert syntax_problem(out.query, PREFIXES) is None and set(out.applied) <= set(RELAXATIONS)
        else:
            left.append(record.id)
    assert len(left) <= 1, left  # HQ0056 writes AS inside AVG(...): an error on Virtuoso too
