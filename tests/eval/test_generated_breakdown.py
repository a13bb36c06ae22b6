"""A run's verdicts by how the names look (parentheses, non-ASCII, punctuation, plain) and how they were typed."""
from __future__ import annotations

import pytest

from pipeline.eval.generated.breakdown import breakdown, breakdown_lines, looks, spelling
from pipeline.eval.generated.build import STYLES
from standins import orkg_fixture as fx


@pytest.mark.parametrize(("name", "look"), [
    (fx.WIKI_EN, "parentheses"), (fx.QUOTED_MODEL, "parentheses"), (fx.CAFE, "non-ASCII"), (fx.SENOR, "non-ASCII"),
    (fx.QA_PAIRS, "punctuation"), (fx.MRR, "punctuation"), (fx.STORY_CLOZE, "plain"), ("StoryLM-large", "plain"),
    ("SQuAD1.1", "plain")])
def test_a_names_look(name: str, look: str) -> None:
    assert looks(name) == look


@pytest.mark.parametrize("style", STYLES, ids=[s.__name__ for s in STYLES])
def test_the_spelling_is_read_back_from_the_names_as_typed(style: object) -> None:
    typed = style(fx.WIKI_EN)  # type: ignore[operator]
    q = {"names": {"dataset": fx.WIKI_EN, "k": "2"}, "typed": {"dataset": typed, "k": "2"}}
    assert spelling(q) == style.__name__  # type: ignore[attr-defined]


def test_each_question_counts_once_under_its_most_unusual_name() -> None:
    questions = [
        {"id": "a", "names": {"dataset": fx.STORY_CLOZE, "model": fx.DENSE},
         "typed": {"dataset": fx.STORY_CLOZE, "model": fx.DENSE.lower()}},
        {"id": "b", "names": {"dataset": fx.STORY_CLOZE}, "typed": {"dataset": fx.STORY_CLOZE}},
        {"id": "c", "names": {"dataset": fx.CAFE}, "typed": {"dataset": fx.CAFE}},
        {"id": "unrun", "names": {"dataset": fx.CAFE}, "typed": {"dataset": fx.CAFE}}]
    table = breakdown(questions, {"a": "declined", "b": "right", "c": "wrong"})
    assert table["names"]["parentheses"] == {"declined": 1} and table["names"]["plain"] == {"right": 1}
    assert table["names"]["non-ASCII"] == {"wrong": 1} and not table["names"]["punctuation"]
    assert table["typed"]["lower"] == {"declined": 1} and table["typed"]["as_is"] == {"right": 1, "wrong": 1}
    assert "| parentheses | 1 | 0 | 1 | 0 | 0 |" in breakdown_lines(table)
