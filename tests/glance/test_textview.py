"""The terminal view: the summary first, the SPARQL one clause a line, declines that read as declines."""
from __future__ import annotations

from pipeline.glance import textview
from pipeline.glance.about import CAN_ANSWER, EXAMPLES
from pipeline.records import Answer, Example, Generation, Retrieved, Rows

NEAR = Retrieved(Example("AQ9", "Can you list the models evaluated on the SentEval dataset?", "SELECT 1", "T01"), 0.41)


def test_an_answer_starts_with_its_summary_and_shows_the_query_laid_out() -> None:
    rows = Rows(["x"], [{"x": {"type": "literal", "value": "1"}}])
    shown = textview.answer(Answer("q?", sparql="SELECT ?x WHERE { ?x a ?y. } LIMIT 5", rows=rows, summary="X: 1.",
                                   generation=Generation("adapter", "S"), examples=[NEAR]))
    lines = shown.splitlines()
    assert lines[0] == "X: 1." and "  SELECT ?x WHERE {" in lines and "    ?x a ?y." in lines and "  LIMIT 5" in lines
    assert "Examples used:" in shown


def test_a_decline_lists_the_closest_questions_and_an_off_topic_one_what_can_be_asked() -> None:
    declined = Answer("q?", generation=Generation("adapter", None, explanation="No."), examples=[NEAR])
    assert "Questions I know that come closest:" in textview.answer(declined)
    off = Answer("weather?", generation=Generation("adapter", None, explanation="No.", off_topic=True), examples=[NEAR])
    shown = textview.answer(off)
    assert CAN_ANSWER in shown and all(q in shown for q in EXAMPLES[:3]) and NEAR.example.question not in shown
