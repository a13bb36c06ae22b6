"""One bracket matcher for a query's tokens: the bracket closing one, the group holding a token, the braces that do
not pair."""
from __future__ import annotations

from pipeline.sparql.brackets import closing, enclosing, unmatched
from pipeline.sparql.lexer import tokenize


def test_the_bracket_closing_each_kind_is_found_counting_only_its_kind() -> None:
    toks = tokenize('SELECT ?x WHERE { ?x ?p [ ?q "}" ] FILTER(STR(?x) = ")") { } }')
    texts = [t.text for t in toks]
    opening = texts.index("{")
    assert closing(toks, opening) == len(toks) - 1
    assert texts[closing(toks, texts.index("[")) or 0] == "]"
    paren = texts.index("(")
    assert closing(toks, paren) == texts.index('")"') + 1
    assert closing(tokenize('{ ( } )'), 0) == 2  # parentheses are not braces


def test_no_bracket_or_one_never_closed_has_no_match() -> None:
    toks = tokenize("SELECT ?x WHERE { ?x ?p ?o")
    assert closing(toks, 0) is None and closing(toks, 3) is None and closing(toks, 99) is None


def test_the_innermost_group_still_open_at_a_token_is_found() -> None:
    toks = tokenize("SELECT ?x { ?x ?p ?o { ?a ?b ?c } FILTER(?x) { ?d ?e ?f } }")
    texts = [t.text for t in toks]
    assert enclosing(toks, texts.index("FILTER")) == texts.index("{")  # the closed group before it is skipped
    assert enclosing(toks, texts.index("?a")) == texts.index("{", texts.index("{") + 1)
    assert enclosing(toks, 1) is None and enclosing(toks, texts.index("(") + 1, "(") == texts.index("(")


def test_closing_braces_that_close_nothing_and_braces_left_open_are_counted() -> None:
    toks = tokenize("} SELECT ?x { ?x ?p ?o } } { { ?s ?p ?o }")
    texts = [t.text for t in toks]
    stray, left_open = unmatched(toks)
    assert [texts[k] for k in stray] == ["}", "}"] and stray[0] == 0 and left_open == 1
    assert unmatched(tokenize("{ }")) == ([], 0)
