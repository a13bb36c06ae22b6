"""The glance added to a finished answer: for a ranking that found rows, its leaderboard (one more read-only query),
then the one-sentence summary. The scored rows are never touched, and a leaderboard the KG cannot give is left out:
the answer stands alone."""
from __future__ import annotations

from dataclasses import replace

from pipeline.deadline import Clock, timed
from pipeline.errors import KgqaError
from pipeline.glance import leaderboard
from pipeline.glance.summary import summarize
from pipeline.parts import KnowledgeGraph
from pipeline.records import Answer, Leaderboard
from pipeline.sparql.gate import gate


def _board(answer: Answer, kg: KnowledgeGraph, row_cap: int, virtuoso: bool, clock: Clock,
           timings: dict[str, float]) -> Leaderboard | None:
    """The leaderboard behind a ranking's rows, or None (not a ranking, no rows, or the KG could not give it)."""
    comp = leaderboard.companion(answer.sparql) if answer.sparql and answer.rows and answer.rows.rows else None
    check = gate(comp.query, row_cap, virtuoso=virtuoso) if comp else None
    if not (comp and check and check.ok):
        return None
    try:
        with timed(timings, "leaderboard"):
            result = clock.within("leaderboard", lambda: kg.select(check.fixed))
    except KgqaError:
        return None
    board = leaderboard.build(comp, result, answer.rows)
    return board if board.entries else None


def glance(answer: Answer, kg: KnowledgeGraph, row_cap: int, virtuoso: bool, clock: Clock) -> Answer:
    """``answer`` with its leaderboard (and its time) and summary."""
    timings = dict(answer.timings_ms)
    board = _board(answer, kg, row_cap, virtuoso, clock, timings)
    return replace(answer, leaderboard=board, summary=summarize(answer, board), timings_ms=timings)
