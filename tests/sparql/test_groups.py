"""A query read once into its groups: the parts of each group in order, the kinds of its sub-groups, a sub-SELECT's
projection and modifiers, and a count of what does not read by the grammar."""
from __future__ import annotations

from pipeline.sparql.groups import Expression, Group, Groups, Select, Values
from pipeline.sparql.parsed import parse
from pipeline.sparql.triples import Triples


def read(query: str) -> Groups:
    return parse(query).groups


def _texts(found: Groups, at: tuple[int, ...]) -> list[str]:
    return [found.tokens[k].text for k in at]


def test_a_group_holds_its_patterns_filters_binds_values_and_sub_groups_in_order() -> None:
    found = read('SELECT ?x ?u WHERE { ?x rdfs:label ?l . FILTER(?l = "a") BIND(STR(?l) AS ?u) VALUES ?x { orkgr:R1 } '
                 'OPTIONAL { ?x orkgp:P1 ?o } { ?x orkgp:P2 ?a } UNION { ?x orkgp:P3 ?b } MINUS { ?x orkgp:P4 ?m } '
                 'GRAPH ?g { ?x orkgp:P5 ?c } }')
    assert found.select is not None and found.first and found.faults == 0
    parts = found.select.where.parts
    assert [type(p).__name__ for p in parts] == ["Triples", "Expression", "Expression", "Values", "Group", "Group",
                                                 "Group", "Group", "Triples", "Group"]
    assert [p.kind for p in parts if isinstance(p, (Group, Expression))] == \
        ["filter", "bind", "optional", "group", "union", "minus", "graph"]
    triples, filtered, bound, values = parts[0], parts[1], parts[2], parts[3]
    assert isinstance(triples, Triples) and _texts(found, triples.terms) == ["?x", "?l"]  # a predicate is no term
    assert isinstance(filtered, Expression) and _texts(found, filtered.terms) == ["?l", '"a"']
    assert isinstance(bound, Expression) and bound.alias is not None and found.tokens[bound.alias].text == "?u"
    assert isinstance(values, Values) and _texts(found, values.variables) == ["?x"]
    assert _texts(found, values.terms) == ["?x", "orkgr:R1"]


def test_a_sub_select_is_read_with_its_projection_modifiers_and_values() -> None:
    found = read("SELECT ?m ?best WHERE { { SELECT ?m (MAX(?v) AS ?best) WHERE { ?m orkgp:HAS_VALUE ?v } "
                 "GROUP BY ?m HAVING (MAX(?v) > 1) VALUES ?m { orkgr:R1 } } }")
    assert found.select is not None and found.faults == 0
    inner = found.select.where.parts[0]
    assert isinstance(inner, Group) and isinstance(inner.parts[0], Select)
    sub = inner.parts[0]
    assert [found.tokens[p].text if isinstance(p, int) else p.kind for p in sub.projection] == ["?m", "projected"]
    assert sub.values is not None and _texts(found, sub.values.variables) == ["?m"]
    assert [p.kind for p in sub.tail if isinstance(p, Expression)] == ["having"]


def test_a_whole_where_group_that_is_a_select_is_a_sub_select() -> None:
    found = read("SELECT ?x WHERE { SELECT ?x WHERE { ?x ?p ?o } }")
    assert found.select is not None and isinstance(found.select.where.parts[0], Select) and found.faults == 0


def test_projections_of_every_kind_and_group_by_names() -> None:
    found = read("SELECT DISTINCT ?l COUNT(?l) AS ?n (YEAR(?d) AS ?y) * WHERE { ?p rdfs:label ?l } "
                 "GROUP BY (YEAR(?d) AS ?year)")
    assert found.select is not None and found.select.star
    kinds = [found.tokens[p].text if isinstance(p, int) else p.kind for p in found.select.projection]
    assert kinds == ["?l", "call", "named", "projected"]
    assert _texts(found, found.select.grouped) == ["?year"]


def test_exists_patterns_belong_to_their_filter() -> None:
    found = read("SELECT ?x WHERE { ?x ?p ?o FILTER NOT EXISTS { ?x rdfs:label ?l } FILTER(EXISTS { ?x a ?c }) }")
    assert found.select is not None
    filters = [p for p in found.select.where.parts if isinstance(p, Expression)]
    assert [[g.kind for g in f.groups] for f in filters] == [["exists"], ["exists"]]


def test_what_does_not_read_by_the_grammar_is_counted_and_read_as_far_as_it_goes() -> None:
    for broken in ("SELECT ?x WHERE { ?x ?p ", "SELECT ?x WHERE { ?x ?p ?o FILTER }", "SELECT ?x WHERE { BIND ?x }",
                   "SELECT ?x WHERE { VALUES ?x ?y { (1 2) } }", "SELECT ?x WHERE ?x { ?x ?p ?o }",
                   "SELECT ?x WHERE { ?x ?p ?o FILTER(?o = } ?x )",
                   "SELECT ?x WHERE { { SELECT ?x { ?x ?p ?o } { } } }"):
        found = read(broken)
        assert found.faults > 0 and found.select is not None, broken
    found = read("SELECT ?x WHERE { ?x ?p ?o } LIMIT 1 }")  # the outer query's own end is the parser's concern
    assert found.faults == 0
    assert read("ASK { ?s ?p ?o }").ask is not None and read("DESCRIBE <urn:x>").select is None
    assert not read("PREFIX x: <urn:x> BASE <urn:b> SELECT * { ?s ?p ?o }").faults
    assert read("PREFIX x: <urn:x> SELECT * { ?s ?p ?o }").first and not read("x SELECT * { ?s ?p ?o }").first
