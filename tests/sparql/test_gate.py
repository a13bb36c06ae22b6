"""The read-only gate, production class by production class of the SPARQL 1.1 query grammar: what it lets run
(unchanged in meaning: same rows on a small graph), what it refuses and with which reason and place."""
from __future__ import annotations

import pyoxigraph as ox
import pytest

from pipeline.sparql.gate import gate, with_row_cap
from pipeline.sparql.text import PREFIXES
from standins.solutions import solutions

EX = "http://example.org/"
GRAPH = f"""@prefix : <{EX}> . @prefix rdfs: <{PREFIXES['rdfs']}> .
:a :p :b , :c ; :n 1 , -1 , 2.5 ; rdfs:label "a"@en , "A"^^<{EX}dt> , "tab\\there" .
:b :p :c ; :q :a . :c :n 3 . _:x :p :a . :c:d :p :a . :x\\?y :p :a .
"""
HEAD = f"PREFIX : <{EX}>\n"


STORE = ox.Store()
STORE.load(GRAPH.encode(), ox.RdfFormat.TURTLE)


def rows(query: str) -> object:
    return solutions(STORE, query)


VALID = [
    "SELECT ?s WHERE { ?s :p ?o } VALUES ?o { :b :c }",  # a trailing VALUES block: the cap goes before it
    "SELECT ?s WHERE { ?s :p ?o } ORDER BY ?s VALUES (?o) { (:b) (UNDEF) }",
    "SELECT ?s WHERE { ?s :p ?o } OFFSET 1",
    "SELECT ?s WHERE { ?s :p ?o } LIMIT 2 OFFSET 1",
    "SELECT ?s WHERE { { SELECT ?s WHERE { ?s :p ?o } ORDER BY ?s LIMIT 1 } }",  # the subquery's cap is its own
    "SELECT ?s WHERE { ?s :p _:y . _:y :p :c }",  # blank node labels
    "SELECT ?s WHERE { ?s ?p :c:d }",  # a colon in a local name
    "SELECT ?o WHERE { :x\\?y :p ?o }",  # an escape in a local name
    "SELECT ?s WHERE { ?s :n -1 }",  # a negative number
    "SELECT ?s ?n WHERE { ?s :n ?n FILTER(?n > -1.5e0 && ?n-1 < +2) }",
    "SELECT ?s ?o WHERE { ?s :p+ ?o }",  # property paths
    "SELECT ?s ?o WHERE { ?s ^:q/:p* ?o }",
    "SELECT ?s ?o WHERE { ?s !(:q|^:p) ?o }",
    "SELECT ?s ?o WHERE { ?s (:p|:q)? ?o }",
    "SELECT ?s WHERE { ?s rdfs:label \"a\"@en }",  # a language tag
    f"SELECT ?s WHERE {{ ?s rdfs:label \"A\"^^<{EX}dt> }}",  # a datatype
    "SELECT ?s WHERE { ?s rdfs:label \"\"\"tab\there\"\"\" }",  # a long string
    "SELECT ?s WHERE { ?s rdfs:label 'tab\\there' }",
    "SELECT ?s (COUNT(?o) AS ?n) WHERE { ?s :p ?o } GROUP BY ?s HAVING (COUNT(?o) > 1)",
    "SELECT ?s WHERE { ?s :p ?o OPTIONAL { ?o :q ?x } FILTER(!BOUND(?x)) MINUS { ?s :q ?y } }",
    "SELECT ?s WHERE { { ?s :p :b } UNION { ?s :n 3 } }",
    "SELECT ?s ?t WHERE { ?s :p ?o BIND(STR(?o) AS ?t) }",
    "ASK { :a :p :b }",
    "ASK { :a :p :b } LIMIT 1",
    "SELECT * WHERE { [] :p ?o }",
    "SELECT ?s WHERE { ?s :p ?o # a comment { DELETE }\n}",
    "BASE <http://example.org/> SELECT ?s WHERE { ?s <p> <b> }",
]


@pytest.mark.parametrize("query", VALID)
def test_a_valid_query_runs_and_means_what_it_meant(query: str) -> None:
    check = gate(HEAD + query, 1000)
    assert check.ok and check.warnings == ()
    assert rows(check.fixed) == rows(HEAD + query)


def test_the_row_cap_goes_where_the_grammar_puts_it() -> None:
    assert gate("SELECT ?s WHERE { ?s ?p ?o } VALUES ?o { 1 2 }", 9).fixed == \
        "SELECT ?s WHERE { ?s ?p ?o } LIMIT 9 VALUES ?o { 1 2 }"
    assert gate("SELECT ?s WHERE { ?s ?p ?o } LIMIT 5", 9).fixed.endswith("LIMIT 5")
    assert gate("SELECT ?s WHERE { ?s ?p ?o } OFFSET 2", 9).fixed.endswith("OFFSET 2 LIMIT 9")
    assert gate("SELECT ?x WHERE { { SELECT ?x WHERE { ?x ?p ?o } LIMIT 1 } }", 9).fixed.endswith("} } LIMIT 9")
    assert "LIMIT" not in gate("ASK { ?s ?p ?o }", 9).fixed
    assert with_row_cap('SELECT ?s WHERE { ?s ?p "LIMIT" }', 3).endswith("LIMIT 3")


def test_only_the_orkg_prefixes_a_query_uses_and_does_not_declare_are_added() -> None:
    check = gate("SELECT ?p WHERE { ?p a orkgc:Paper ; rdfs:label ?l }")
    assert check.fixed.startswith(f"PREFIX orkgc: <{PREFIXES['orkgc']}>\nPREFIX rdfs: <{PREFIXES['rdfs']}>\n")
    own = "PREFIX rdfs: <http://example.org/mine#> SELECT ?p WHERE { ?p rdfs:label ?l }"
    assert gate(own).fixed == own


INVALID = [  # (query, what the reason says)
    ("SELECT ?x WHERE { ?x ?p }", "does not parse"),
    ("SELECT ?x WHERE { ?x ?p ?o ", "does not parse"),
    ("SELEC ?x WHERE { ?x ?p ?o }", "does not parse"),
    ("SELECT ?s WHERE { ?s ?p ?o BIND(1 AS ?o) }", "already in scope"),
    ("SELECT * WHERE { BIND(1 AS ?x) BIND(2 AS ?x) }", "already in scope"),
    ("SELECT * WHERE { ?s ?p ?o } GROUP BY ?s", "SELECT * is not authorized with GROUP BY"),
    ("SELECT ?o (COUNT(?s) AS ?c) WHERE { ?s ?p ?o } GROUP BY ?s", "unbound"),
    ("SELECT ?s WHERE { ?s ?p ?o } GROUP BY ?o", "unbound"),
    ("SELECT ?s ?s WHERE { ?s ?p ?o }", "duplicated variable"),
    ("SELECT (1 AS ?s) WHERE { ?s ?p ?o }", "overrides an existing variable"),
    ("SELECT ?s WHERE { VALUES (?a ?b) { (1) } }", "expected UNDEF"),
    ("SELECT ?s WHERE { ?s ?p ?o } VALUES (?s ?o) { (1 2 3) }", "same number of values"),
    ('SELECT ?s WHERE { ?s ?p "\\q" }', "escape"),
    ('SELECT ?s WHERE { ?s ?p "\\U0011FFFF" }', "does not parse"),
    ('SELECT ?s WHERE { ?s ?p "a\nb" }', "does not parse"),  # a newline in a short string
    ("SELECT ?s WHERE { ?s ?p <a b> }", "does not parse"),
    ("SELECT ?s WHERE { ?s foaf:name ?o }", "the prefix foaf: is not declared"),
    ("SELECT ?s WHERE { ?s ?p ?o } LIMIT 1 LIMIT 2", "does not parse"),
    ("SELECT ?s WHERE { ?s ?p ?o FILTER(COUNT(?s) > 1) }", "does not parse"),
    ("(SELECT ?s WHERE { ?s ?p ?o })", "does not parse"),
]


@pytest.mark.parametrize(("query", "reason"), INVALID)
def test_an_invalid_query_is_refused_with_the_reason_and_place(query: str, reason: str) -> None:
    check = gate(query, 1000)
    assert not check.ok and len(check.errors) == 1
    assert check.errors[0].startswith("refused: ") and reason.lower() in check.errors[0].lower()
    assert "line " in check.errors[0] and "column " in check.errors[0]
    assert "only SELECT and ASK" not in check.errors[0]


def test_the_place_is_the_line_and_column_as_typed() -> None:
    error = gate("SELECT ?s\nWHERE {\n  ?s ?p \"\\q\" }").errors[0]
    assert "(line 3, column 11)" in error


@pytest.mark.parametrize("query", [
    "INSERT DATA { <http://a> <http://b> <http://c> }",
    "DELETE WHERE { ?s ?p ?o }",
    "delete { ?s ?p ?o } where { ?s ?p ?o }",
    "DROP ALL", "CLEAR GRAPH <http://g>", "LOAD <http://example.org/x.ttl>",
    "CREATE GRAPH <http://g>", "ADD <http://a> TO <http://b>", "MOVE DEFAULT TO <http://g>",
    "COPY <http://a> TO <http://b>",
    "WITH <http://g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
    "SELECT * WHERE { ?s ?p ?o } ; # hidden\nDeLeTe WHERE { ?s ?p ?o }",
    "INSERT { ?s ?p ?o } WHERE { ?s ?p",  # an update, and broken
])
def test_updates_are_refused_as_updates(query: str) -> None:
    for virtuoso in (False, True):
        check = gate(query, 100, virtuoso=virtuoso)
        assert not check.ok and check.errors[0].startswith("refused: only read-only queries may run")


@pytest.mark.parametrize("query", [
    "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }",
    "SELECT * WHERE { SERVICE SILENT <http://example.org/sparql> { ?s ?p ?o } }",
    "SELECT * WHERE { ?s ?p ?o SERVICE ?where { ?s ?p ?o } }",
])
def test_service_is_refused_as_service(query: str) -> None:
    for virtuoso in (False, True):
        assert gate(query, 100, virtuoso=virtuoso).errors == (
            "refused: SERVICE (a call to another endpoint) is not allowed; only this graph is asked",)


def test_keywords_inside_strings_iris_or_comments_are_no_keywords() -> None:
    query = 'SELECT ?x WHERE { ?x rdfs:label "DELETE me" ; <http://x/SERVICE> ?y } # DROP ALL'
    assert gate(query, 10).ok


def test_construct_and_describe_are_refused_for_what_they_are() -> None:
    assert gate("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }").errors == (
        "refused: only SELECT and ASK queries may run, not CONSTRUCT",)
    assert gate("DESCRIBE <http://example.org/a>").errors == (
        "refused: only SELECT and ASK queries may run, not DESCRIBE",)


def test_what_cannot_be_sent_is_refused_and_the_rest_of_a_string_is_kept() -> None:
    assert "unpaired surrogate (U+D800, line 1, column 27)" in gate('SELECT ?x WHERE { ?x ?p "a\ud800" }').errors[0]
    kept = 'SELECT ?x WHERE { ?x ?p "a\u0007\ue000\u200b" }'
    assert gate(kept).ok and '"a\u0007\ue000\u200b"' in gate(kept).fixed


def test_the_empty_query_is_refused() -> None:
    assert gate("  \n ", 10).errors == ("the query is empty",)


VIRTUOSO = [
    "SELECT ?a, ?b WHERE { ?a rdfs:label ?b }",
    "SELECT ?b COUNT(?b) WHERE { ?a rdfs:label ?b }",
    "SELECT ?b WHERE { ?a rdfs:label ?b } ORDER BY DESC(COUNT(?b)) LIMIT 1",
]


@pytest.mark.parametrize("query", VIRTUOSO)
def test_virtuosos_dialect_goes_to_virtuoso_as_written_and_elsewhere_as_sparql_1_1(query: str) -> None:
    on_orkg = gate(query, 50, virtuoso=True)
    assert on_orkg.ok and on_orkg.fixed.startswith("PREFIX rdfs:") and query in on_orkg.fixed
    local = gate(query, 50)
    assert local.ok and query not in local.fixed and "Virtuoso's dialect" in local.warnings[0]
    assert rows(local.fixed) == rows(local.fixed)  # (it parses as SPARQL 1.1)


def test_bif_contains_runs_on_virtuoso_only_and_no_other_procedure_anywhere() -> None:
    query = "SELECT ?a WHERE { ?a rdfs:label ?l . ?l bif:contains \"'graph'\" }"
    assert gate(query, 10, virtuoso=True).ok
    local = gate(query, 10)
    assert not local.ok and "bif:contains is Virtuoso's full-text search" in local.errors[0]
    for bad in ("SELECT (bif:exec('DELETE FROM DB.DBA.RDF_QUAD') AS ?x) WHERE {}",
                "SELECT ?x WHERE { ?x <bif:contains> ?y . FILTER(<sql:exec>('x')) }"):
        for virtuoso in (False, True):
            assert "engine's own procedures are not allowed" in gate(bad, 10, virtuoso=virtuoso).errors[0]


def test_virtuoso_knows_prefixes_we_do_not_and_is_left_to_resolve_them() -> None:
    assert gate("SELECT ?s WHERE { ?s foaf:name ?n }", 10, virtuoso=True).ok


def test_an_invalid_query_is_refused_on_virtuoso_too() -> None:
    check = gate("SELECT ?s WHERE { ?s ?p ?o BIND(1 AS ?o) }", 10, virtuoso=True)
    assert not check.ok and "already in scope" in check.errors[0]


def test_the_verdict_is_cached_by_text_and_cap() -> None:
    first = gate("SELECT ?x WHERE { ?x ?p ?o }", 10)
    assert gate("SELECT ?x WHERE { ?x ?p ?o }", 10) is first
    assert gate("SELECT ?x WHERE { ?x ?p ?o }", 20).fixed.endswith("LIMIT 20")
