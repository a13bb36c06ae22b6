"""One bracket matcher for tokens and for spans with their places in the text."""
from __future__ import annotations

from pipeline.sparql.brackets import closing
from pipeline.sparql.reorder import spans
from pipeline.sparql.text import tokenize


def test_the_bracket_closing_each_kind_is_found_counting_only_its_kind() -> None:
    toks = tokenize('SELECT ?x WHERE { ?x ?p [ ?q "}" ] FILTER(STR(?x) = ")") { } }')
    texts = [t.text for t in toks]
    opening = texts.index("{")
    assert closing(toks, opening) == len(toks) - 1
    assert texts[closing(toks, texts.index("[")) or 0] == "]"
    paren = texts.index("(")
    assert closing(toks, paren) == texts.index('")"') + 1
    assert closing(spans('{ ( } )'), 0) == 2  # parentheses are not braces


def test_no_bracket_or_one_never_closed_has_no_match() -> None:
    toks = tokenize("SELECT ?x WHERE { ?x ?p ?o")
    assert closing(toks, 0) is None and closing(toks, 3) is None and closing(toks, 99) is None
