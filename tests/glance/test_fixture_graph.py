"""Every T01, T04 and T05 question on the ORKG-shaped fixture graph, on pyoxigraph and on Virtuoso: a summary for
each, a leaderboard sorted by number for the rankings (string scores that sort wrongly as text included), a chart
for each with two or more numeric scores, and the scored rows exactly those of the pipeline's own query."""
from __future__ import annotations

import pytest

from pipeline.core import Bounds, Parts, Pipeline
from pipeline.glance.chart import chart_png
from pipeline.parts import KnowledgeGraph
from standins import orkg_fixture as fx
from standins.fakes import RecordingProxy
from standins.fixture_questions import (
    FixedGenerator,
    NoStore,
    as_number,
    best,
    cases,
    metrics_on,
    scores,
    t05,
)

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(params=["local_kg", "virtuoso"])
def kg(request: pytest.FixtureRequest) -> KnowledgeGraph:
    if request.param == "virtuoso":
        from pipeline.kg.endpoint import EndpointKG

        return EndpointKG(request.getfixturevalue("virtuoso").endpoint, timeout=30.0, row_cap=1000, agent="kgqa-bot",
                          retries=2)
    return request.getfixturevalue("local_kg")


def ask(kg: KnowledgeGraph, sparql: str) -> tuple[Pipeline, RecordingProxy]:
    proxy = RecordingProxy(kg)
    return Pipeline(Parts(NoStore(), FixedGenerator(sparql), proxy),
                    Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4)), proxy


@pytest.mark.parametrize(("template", "label", "sparql"), cases(), ids=[f"{t}-{n}" for t, n, _ in cases()])
def test_every_t01_t04_t05_question_gets_a_summary_and_rankings_a_leaderboard(
        kg: KnowledgeGraph, template: str, label: str, sparql: str) -> None:
    pipe, proxy = ask(kg, sparql)
    answer = pipe.ask("a question")
    dataset, _, metric = label.partition(" / ")
    on_dataset = scores(dataset, metric or None)

    assert answer.summary and answer.summary.endswith(".")
    assert proxy.queries[0] == answer.sparql and len(proxy.queries) <= 2  # at most one companion round trip
    assert answer.rows is not None
    if not answer.rows.rows:
        assert answer.summary.startswith("Nothing found for ") and dataset in answer.summary
        assert answer.leaderboard is None
        return
    board = answer.leaderboard
    assert board is not None and board.dataset == dataset
    assert sorted((e.model, e.metric, e.value) for e in board.entries) == sorted(on_dataset)
    for each in metrics_on(dataset):  # each metric's scores by number, best first, text values after them
        mine = [e for e in board.entries if e.metric == each]
        numbers = [as_number(e.value) for e in mine if as_number(e.value) is not None]
        assert numbers == sorted(numbers, reverse=True)
        assert [as_number(e.value) is None for e in mine] == sorted(as_number(e.value) is None for e in mine)
    if template == "T05":
        model, value = best(dataset, metric)
        assert answer.summary == f"{model} has the highest {metric} on {dataset}: {value}."
    elif template == "T04":
        for each in metrics_on(dataset):
            assert best(dataset, each)[1] in answer.summary and dataset in answer.summary
    else:
        assert dataset in answer.summary and answer.rows.rows[0]["model_lbl"]["value"] in answer.summary
    png = chart_png(board)
    numeric = [e for e in board.entries if e.metric == board.metric and as_number(e.value) is not None]
    assert (png is not None and png.startswith(PNG)) == (len(numeric) >= 2)


def test_string_scores_are_ranked_by_number_and_the_graphs_text_order_is_called_out(kg: KnowledgeGraph) -> None:
    pipe, _ = ask(kg, t05(fx.NOISY, fx.ACC))
    answer = pipe.ask("Which model has the highest Accuracy on the Mixed Notation Bench?")
    board = answer.leaderboard
    assert board is not None
    assert [e.value for e in board.entries[:4]] == ["71.46%", "10.2", "9.5", "3"]  # "9.5" < "71.46%" < "3" as text
    assert [e.number for e in board.ranked()] == [71.46, 10.2, 9.5, 3.0]
    assert {e.value for e in board.entries[4:]} == {"N/A", "—", "12 M"} and board.metric == fx.ACC
    assert any("as text" in note for note in board.notes)  # "9.5" sorts above "71.46%" as a string
    assert answer.summary == "Big-71 has the highest Accuracy on Mixed Notation Bench: 71.46%."
    # the scored answer is the graph's own: its text ordering picks another model, and the reply says so
    assert answer.rows is not None and [r["model_lbl"]["value"] for r in answer.rows.rows] != ["Big-71"]
    assert any("does not name" in note for note in board.notes)


def test_a_leaderboard_of_one_value_gets_no_chart(kg: KnowledgeGraph) -> None:
    pipe, _ = ask(kg, t05(fx.LONE, fx.ACC))
    answer = pipe.ask("Which model is best on the Lone Score Set?")
    assert answer.leaderboard is not None and len(answer.leaderboard.entries) == 1
    assert chart_png(answer.leaderboard) is None
    assert answer.summary == "TableReader has the highest Accuracy on Lone Score Set: 55.0."



def test_a_refused_or_failed_query_says_why_in_its_summary(local_kg: KnowledgeGraph) -> None:
    refused, _ = ask(local_kg, "DELETE WHERE { ?s ?p ?o }")
    summary = refused.ask("delete everything").summary
    assert summary.startswith("No answer: refused: only read-only queries may run") and "DELETE" in summary
    declined, _ = ask(local_kg, "")
    assert declined.ask("What's the weather in Hannover?").summary == \
        "I could not answer “What's the weather in Hannover?”."
