"""A model's reply read as it is written: fenced or not, after a chat preamble, before chatter; several different
queries or none are declined with the reason."""
from __future__ import annotations

import pytest

from pipeline.generators.reply import interpret

Q = 'SELECT ?m WHERE { ?d rdfs:label "SQuAD" }'


@pytest.mark.parametrize("reply", [
    f"```sparql\n{Q}\n```",
    f"Sure! Here is the SPARQL query you asked for:\n\n```\n{Q}\n```\n\nIt lists the models evaluated on SQuAD.",
    f"Sparql: {Q} I hope this helps.",
    f"{Q}\n\nThe same query again, fenced:\n```sparql\n{Q}\n```",
    "SELECT ?m WHERE {\n  {\n    SELECT ?m WHERE { ?d ?p ?m }\n  }\n}",
    f"PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n{Q}",
], ids=["fenced", "preamble-and-chatter", "sparql-colon", "repeated", "subquery", "prefixed"])
def test_one_query_is_read_whatever_surrounds_it(reply: str) -> None:
    g = interpret(reply, "local", "p")
    assert g.sparql is not None and g.sparql.startswith(("SELECT", "PREFIX")) and not g.explanation


@pytest.mark.parametrize("reply", [
    f"```sparql\n{Q}\n```\nOr, if you meant SQuAD2.0:\n```sparql\n{Q.replace('SQuAD', 'SQuAD2.0')}\n```",
    f"{Q}\nASK {{ ?d rdfs:label \"SQuAD\" }}",
])
def test_several_different_queries_are_declined_with_the_reason(reply: str) -> None:
    g = interpret(reply, "local", "p")
    assert g.sparql is None and g.explanation.endswith("it wrote 2 different queries and did not say which one answers")


def test_prose_is_the_reason() -> None:
    g = interpret("I cannot write a query: the graph has no data on robot vacuums.", "local", "p")
    assert g.sparql is None and "robot vacuums" in g.explanation
