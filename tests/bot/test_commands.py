"""`/sparql` and `/kgqa`, signed and over HTTP: ack at once, reply through response_url, writes never run."""
from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from pipeline.errors import KnowledgeGraphError
from pipeline.records import Rows
from standins.fakes import RecordingKG
from standins.harness import MAINTAINER, Harness, shown

READ = "SELECT ?model ?model_lbl WHERE { ?model rdfs:label ?model_lbl } LIMIT 5"
WRITES = [
    "INSERT DATA { <http://example.org/a> <http://example.org/b> <http://example.org/c> }",
    "DELETE WHERE { ?s ?p ?o }",
    "DROP ALL",
    "DROP GRAPH <http://orkg.org/orkg/graph>",
    "CLEAR DEFAULT",
    "LOAD <http://evil.example/dump.nt>",
    "PREFIX x: <http://x/> DELETE { ?s ?p ?o } INSERT { ?s x:q ?o } WHERE { ?s ?p ?o }",
    "select * where { ?s ?p ?o } ; dElEtE wHeRe { ?s ?p ?o }",
    "SELECT * WHERE { SERVICE <http://evil.example/sparql> { ?s ?p ?o } }",
    "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }",
]


@pytest.fixture
def kg() -> RecordingKG:
    model = {"model": {"type": "uri", "value": "http://orkg.org/orkg/resource/R117327"},
             "model_lbl": {"type": "literal", "value": "GPT-3 175B (Few-Shot)"}}
    return RecordingKG(rows=Rows(["model", "model_lbl"], [model], source="recording"))


def test_sparql_acks_at_once_and_answers_in_the_channel(start_bot: Callable[..., Harness], kg: RecordingKG) -> None:
    bot = start_bot(kg=kg)
    began = time.monotonic()
    status, body = bot.command("/sparql", READ.replace("<", "&lt;").replace(">", "&gt;"))  # as Slack escapes it
    assert status == 200 and body == "" and time.monotonic() - began < 3

    [reply] = bot.replies("cmd")
    assert reply.params["response_type"] == "in_channel"
    assert "<https://orkg.org/resource/R117327|GPT-3 175B (Few-Shot)>" in shown(reply)
    assert "*raw SPARQL*" in shown(reply) and "KG: recording" in shown(reply)
    [ran] = kg.queries
    assert "rdfs:label ?model_lbl" in ran and ran.startswith("PREFIX rdfs:")


@pytest.mark.parametrize("query", WRITES)
def test_sparql_refuses_anything_but_reading_and_runs_nothing(start_bot: Callable[..., Harness], kg: RecordingKG,
                                                              query: str) -> None:
    bot = start_bot(kg=kg)
    status, _ = bot.command("/sparql", query)
    assert status == 200
    [reply] = bot.replies("cmd")
    assert reply.params["response_type"] == "ephemeral"
    assert "refused" in shown(reply) and "No answer." in shown(reply)
    assert kg.queries == []


def test_sparql_without_a_query_shows_usage_in_the_ack(bot: Harness) -> None:
    status, body = bot.command("/sparql", "   ")
    assert status == 200 and "Usage: `/sparql" in body


def test_sparql_that_the_kg_rejects_is_explained(start_bot: Callable[..., Harness]) -> None:
    kg = RecordingKG(error=KnowledgeGraphError("Virtuoso 37000 Error SR171: Transaction timed out"))
    bot = start_bot(kg=kg)
    bot.command("/sparql", "SELECT ?x WHERE { ?x ?p ?o }")
    [reply] = bot.replies("cmd")
    assert reply.params["response_type"] == "ephemeral" and "SR171" in shown(reply)


def test_sparql_that_does_not_parse_is_refused_with_its_place_before_the_kg(start_bot: Callable[..., Harness],
                                                                            kg: RecordingKG) -> None:
    bot = start_bot(kg=kg)
    bot.command("/sparql", "SELECT ?x WHERE {\n  ?x ?p ?o BIND(1 AS ?o)\n}")
    [reply] = bot.replies("cmd")
    assert reply.params["response_type"] == "ephemeral"
    assert "does not parse (line 3, column 2)" in shown(reply) and "already in scope" in shown(reply)
    assert kg.queries == []  # type: ignore[attr-defined]


@pytest.mark.parametrize(("typed", "sent"), [
    ("SELECT ?x WHERE { ?x rdfs:label \"a\u200bb\ue000\" }", "\"a\u200bb\ue000\""),  # kept inside a string
    ("SELECT ?x WHERE {\u200b ?x ?p <http://example.org/a> }", "{ ?x ?p <http://example.org/a> }"),  # dropped outside
    ("SELECT ?s WHERE { ?s ?p _:y . ?s ?q -1 . ?s orkgr:c:d\\? ?o }", "_:y . ?s ?q -1 . ?s orkgr:c:d\\? ?o"),
    ("SELECT ?s WHERE { ?s ?p ?o } VALUES ?o { 1 2 }", "} LIMIT 1000 VALUES ?o { 1 2 }"),
])
def test_sparql_typed_in_slack_is_sent_as_typed(start_bot: Callable[..., Harness], kg: RecordingKG, typed: str,
                                                sent: str) -> None:
    bot = start_bot(kg=kg)
    bot.command("/sparql", typed.replace("<", "&lt;").replace(">", "&gt;"))
    bot.replies("cmd")
    [query] = kg.queries  # type: ignore[attr-defined]
    assert sent in query


def test_kgqa_help_explains_the_bot_and_its_setup(bot: Harness) -> None:
    status, _ = bot.command("/kgqa", "help")
    assert status == 200
    text = shown(bot.replies("cmd")[0])
    assert "/sparql" in text and "/kgqa lookup" in text and "snapshot" in text and "80 pairs" in text
    assert f"<@{MAINTAINER}>" in text


def test_kgqa_lookup_lists_similar_stored_pairs_with_scores(bot: Harness) -> None:
    bot.command("/kgqa", "lookup models evaluated on the Story Cloze Test dataset")
    text = shown(bot.replies("cmd")[0])
    assert "Stored pairs closest to" in text and "SciQA `AQ" in text and "SELECT" in text


def test_kgqa_with_an_unknown_subcommand_points_to_help(bot: Harness) -> None:
    bot.command("/kgqa", "dance")
    assert "I do not know `/kgqa dance`" in shown(bot.replies("cmd")[0])


PAIR = ("Which models were evaluated on the Story Cloze Test dataset by the team?",
        'SELECT ?m WHERE { ?m rdfs:label "x" }')


def test_kgqa_teach_by_a_maintainer_adds_a_checked_pair(start_bot: Callable[..., Harness], kg: RecordingKG) -> None:
    bot = start_bot(kg=kg)
    bot.command("/kgqa", f"teach {PAIR[0]} ||| {PAIR[1]}", user=MAINTAINER)
    assert "Added `team-" in shown(bot.replies("cmd")[0])
    bot.command("/kgqa", f"lookup {PAIR[0]}", reply="lookup")
    assert "team `team-" in shown(bot.replies("lookup")[0])


def test_kgqa_teach_refuses_non_maintainers_and_bad_queries(start_bot: Callable[..., Harness],
                                                           kg: RecordingKG) -> None:
    bot = start_bot(kg=kg)
    bot.command("/kgqa", f"teach {PAIR[0]} ||| {PAIR[1]}", user="U1", reply="stranger")
    assert "Only a maintainer" in shown(bot.replies("stranger")[0])
    bot.command("/kgqa", f"teach {PAIR[0]} ||| DROP ALL", user=MAINTAINER, reply="write")
    assert "Not added: refused" in shown(bot.replies("write")[0])
    bot.command("/kgqa", f"teach {PAIR[0]} ||| SELECT ?x WHERE {{ ?x", user=MAINTAINER, reply="parse")
    assert "Not added: refused: the query does not parse (line 1" in shown(bot.replies("parse")[0])
    bot.command("/kgqa", f"teach {PAIR[0]} without a query", user=MAINTAINER, reply="usage")
    assert "Usage: `/kgqa teach" in shown(bot.replies("usage")[0])
    assert bot.pipeline.store.examples("team") == [] and kg.queries == []  # type: ignore[attr-defined]
