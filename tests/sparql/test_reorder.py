"""Moving triple patterns ahead of an OPTIONAL only when the result cannot change."""
from __future__ import annotations

import pyoxigraph as ox

from pipeline.sparql.reorder import triples_before_optionals

DATA = """<urn:a> <urn:p> <urn:b> .
<urn:b> <urn:q> <urn:c> .
<urn:x> <urn:r> <urn:b> .
<urn:a> <urn:p> <urn:d> .
<urn:d> <urn:s> <urn:e> .
<urn:a> <urn:t> <urn:f> ."""


def _rows(query: str) -> set[tuple[str, ...]]:
    store = ox.Store()
    store.load(DATA.encode(), ox.RdfFormat.N_TRIPLES)
    result = store.query(query)
    return {tuple(str(s[v]) for v in result.variables) for s in result}  # type: ignore[union-attr]


def test_a_pattern_sharing_no_variable_with_the_optional_moves_in_front_of_it() -> None:
    query = "SELECT * WHERE { ?a <urn:p> ?b OPTIONAL { ?b <urn:q> ?c } ?a <urn:t> ?f . }"
    moved = triples_before_optionals(query)
    assert moved.index("<urn:t>") < moved.index("OPTIONAL")
    assert _rows(moved) == _rows(query) and len(_rows(query)) == 2


def test_a_pattern_sharing_a_variable_with_the_optional_stays() -> None:
    query = "SELECT * WHERE { ?a <urn:p> ?b OPTIONAL { ?b <urn:q> ?c } ?c <urn:s> ?e }"
    assert triples_before_optionals(query) == query


def test_paths_filters_and_blank_node_lists_after_an_optional_stay() -> None:
    for tail in ("FILTER(?b = <urn:b>)", "?x <urn:r>/<urn:q> ?z .", "[] <urn:r> ?b ."):
        query = f"SELECT * WHERE {{ ?a <urn:p> ?b OPTIONAL {{ ?b <urn:q> ?c }} {tail} }}"
        assert triples_before_optionals(query) == query


def test_a_lone_dot_after_the_optional_is_not_doubled() -> None:
    query = "SELECT * WHERE { ?a <urn:p> ?b OPTIONAL { ?b <urn:q> ?c } . ?a <urn:t> ?f }"
    moved = triples_before_optionals(query)
    assert ". ." not in moved and _rows(moved) == _rows(query)
