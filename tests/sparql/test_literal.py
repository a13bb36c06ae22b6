"""One quoting function: any text, as a SPARQL literal, reads back as exactly that text (a real SPARQL engine says)."""
from __future__ import annotations

import pyoxigraph
import pytest

from pipeline.sparql.literal import quoted
from pipeline.sparql.shape import replace_literals

TEXTS = ["plain", 'say "hi"', "back\\slash", "C:\\new\\table", "two\nlines", "cr\rhere", "tab\there", "it's",
         "üñíçødé 漢字", "", "\\\"", 'end with \\']


@pytest.mark.parametrize("text", TEXTS)
def test_a_quoted_text_reads_back_as_itself(text: str) -> None:
    (solution,) = pyoxigraph.Store().query(f"SELECT ?v WHERE {{ BIND({quoted(text)} AS ?v) }}")
    assert solution["v"].value == text
    assert "\n" not in quoted(text) and "\r" not in quoted(text)


def test_replacing_a_literal_quotes_the_new_text_once_and_leaves_the_rest() -> None:
    query = 'SELECT ?p WHERE { ?p rdfs:label "A" ; rdfs:comment "B" }'
    assert replace_literals(query, {"A": 'a "b"\nc\\'}) == \
        'SELECT ?p WHERE { ?p rdfs:label "a \\"b\\"\\nc\\\\" ; rdfs:comment "B" }'
