"""Suggested questions: what the team taught first, then one question of each of the most common forms."""
from __future__ import annotations

from pipeline.glance.about import EXAMPLES, suggested_questions
from pipeline.records import Example


def sciqa(n: int, template: str, question: str) -> Example:
    return Example(f"AQ{n}", question, "SELECT 1", template, "sciqa")


def test_team_pairs_lead_then_one_question_per_most_common_form_the_shortest() -> None:
    examples = [sciqa(1, "T01", "What models are evaluated on the long named CoQA dataset?"),
                sciqa(2, "T01", "What models are evaluated on CoQA?"),
                sciqa(3, "T01", "What models are evaluated on SQuAD?"),
                sciqa(4, "T02", "Which is best on X?"), sciqa(5, "T02", "Which is best on Y?"),
                sciqa(6, "T03", "Where is the code of Z?"),
                Example("team-1", "Old taught question?", "SELECT 2", "", "team"),
                Example("team-2", "New taught question?", "SELECT 3", "", "team"),
                Example("team-3", "Newest taught question?", "SELECT 4", "", "team")]
    assert suggested_questions(examples, 4) == ["Newest taught question?", "New taught question?",
                                                "What models are evaluated on CoQA?", "Which is best on X?"]


def test_an_empty_store_still_offers_the_fixed_examples() -> None:
    assert suggested_questions([], 4) == list(EXAMPLES[:4])
