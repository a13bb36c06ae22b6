"""A ranking that found rows gets its leaderboard (one more read-only query) and every answer its summary, as a new
answer: the scored rows are left as they were, and a leaderboard the graph cannot give is left out."""
from __future__ import annotations

from pipeline.deadline import Deadline
from pipeline.errors import KnowledgeGraphError
from pipeline.glance.attach import glance
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.records import Answer, Outcome, Rows
from pipeline.sparql.gate import gate
from standins import orkg_fixture as fx
from standins.fakes import RecordingProxy
from standins.fixture_questions import best, t05


class FailingSecond(RecordingProxy):
    """Answers the first query, fails every later one (the leaderboard's)."""

    def select(self, query: str) -> Rows:
        if self.queries:
            raise KnowledgeGraphError("the endpoint went away")
        return super().select(query)


def ranked(kg: RecordingProxy) -> tuple[Answer, str, str]:
    dataset = fx.DATASETS[0]
    sparql = gate(t05(dataset, fx.ACC), 1000).fixed  # the query as it ran: prefixes declared
    return Answer("q?", sparql=sparql, rows=kg.select(sparql), outcome=Outcome.ANSWERED,
                  timings_ms={"kg": 1.0}), dataset, fx.ACC


def test_a_ranking_gets_its_leaderboard_and_summary_and_the_rows_stay(local_kg: OxigraphKG) -> None:
    kg = RecordingProxy(local_kg)
    answer, dataset, metric = ranked(kg)
    with Deadline(30, 1) as deadline:
        seen = glance(answer, kg, 1000, False, deadline.start())
    model, value = best(dataset, metric)
    assert seen.leaderboard is not None and seen.leaderboard.dataset == dataset and len(kg.queries) == 2
    assert seen.summary == f"{model} has the highest {metric} on {dataset}: {value}."
    assert seen.rows == answer.rows and set(seen.timings_ms) == {"kg", "leaderboard"}
    assert answer.leaderboard is None and answer.summary == "" and answer.timings_ms == {"kg": 1.0}


def test_a_leaderboard_the_graph_cannot_give_is_left_out(local_kg: OxigraphKG) -> None:
    kg = FailingSecond(local_kg)
    answer, dataset, metric = ranked(kg)
    with Deadline(30, 1) as deadline:
        seen = glance(answer, kg, 1000, False, deadline.start())
    assert seen.leaderboard is None and seen.summary.endswith(f"the best one: {best(dataset, metric)[0]}.")
