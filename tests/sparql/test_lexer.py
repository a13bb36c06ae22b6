"""The lexer: SPARQL 1.1's terminals, each token with its place in the text."""
from __future__ import annotations

import pytest

from pipeline.sparql.lexer import Token, literal_text, tokenize


def test_blanks_and_comments_are_dropped_and_each_token_keeps_its_place() -> None:
    query = "SELECT ?x WHERE { ?x rdfs:label \"A  B\" . } # note\nLIMIT 5"
    toks = tokenize(query)
    assert [t.text for t in toks] == ["SELECT", "?x", "WHERE", "{", "?x", "rdfs:label", '"A  B"', ".", "}", "LIMIT",
                                      "5"]
    assert all(query[t.start:t.end] == t.text for t in toks)
    assert toks[1] == toks[4] == Token("var", "?x")  # a place is not part of what a token is


@pytest.mark.parametrize(("query", "tokens"), [
    ("_:y :c:d\\? -1", [("bnode", "_:y"), ("pname", ":c:d\\?"), ("number", "-1")]),
    ("?s :p+ ?o", [("var", "?s"), ("pname", ":p"), ("punct", "+"), ("var", "?o")]),
    ("?o 1. ?p 1.5. 1.e3 .5", [("var", "?o"), ("number", "1"), ("punct", "."), ("var", "?p"), ("number", "1.5"),
                              ("punct", "."), ("number", "1.e3"), ("number", ".5")]),
    ('"x"@en-GB "1"^^xsd:int', [("string", '"x"'), ("lang", "@en-GB"), ("string", '"1"'), ("punct", "^^"),
                                ("pname", "xsd:int")]),
    ("orkgr:R1. ex:a%20b", [("pname", "orkgr:R1"), ("punct", "."), ("pname", "ex:a%20b")]),
    ("?a-1 ?b-?c", [("var", "?a"), ("number", "-1"), ("var", "?b"), ("punct", "-"), ("var", "?c")]),
])
def test_tokens_are_the_grammars_terminals(query: str, tokens: list[tuple[str, str]]) -> None:
    assert [(t.kind, t.text) for t in tokenize(query)] == tokens



def test_a_string_literal_s_contents_lose_their_quotes_long_or_short() -> None:
    assert [literal_text(t) for t in ('"a"', "'b'", '"""c "d" e"""', "'''f'''")] == ["a", "b", 'c "d" e', "f"]
