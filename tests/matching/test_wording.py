"""How people type: mentions, greetings and thanks peel off; typos and word endings are forgiven."""
from __future__ import annotations

import pytest

from pipeline.matching.wording import norm_word, stem, tidy, word_sim

Q = "Which model has achieved the highest Accuracy score on the Story Cloze Test benchmark dataset?"


@pytest.mark.parametrize("typed", [
    f"<@U0KGQABOT> {Q}",
    f"<@U0KGQABOT|kgqa>   {Q}",
    f"@kgqa {Q}",
    f"hey, quick one: {Q} thanks!",
    f"<@U0KGQABOT> hey, quick one: {Q} thx",
    f"quick question: {Q}",
    f"hi! {Q}",
    f"Hello team, {Q} Thank you.",
    f"  {Q.replace(' ', '  ')}  ",
    f"{Q} please",
    f"ok so {Q} cheers",
])
def test_wrappers_and_blanks_peel_off(typed: str) -> None:
    assert tidy(typed) == Q


def test_a_question_that_is_only_a_greeting_stays_as_it_is() -> None:
    assert tidy("hello") == "hello"
    assert tidy("  thanks! ") == "thanks!"


def test_words_inside_the_question_stay() -> None:
    q = "What is the top benchmark result (metric and value) over the dataset Q: hey thanks?"
    assert tidy(q).startswith("What is the top benchmark result (metric and value) over the dataset")


@pytest.mark.parametrize(("a", "b", "low"), [
    ("evaluated", "evaluated", 1.0), ("model", "models", 0.85), ("benchmarked", "benchmarking", 0.85),
    ("evaluated", "evaluted", 0.8), ("dataset", "datsaet", 0.7), ("the", "teh", 0.6),
])
def test_typos_and_endings_are_forgiven(a: str, b: str, low: float) -> None:
    assert word_sim(a, b) >= low


@pytest.mark.parametrize(("a", "b"), [("on", "of"), ("model", "metric"), ("dataset", "database"), ("", "x")])
def test_different_words_do_not_match(a: str, b: str) -> None:
    assert word_sim(a, b) == 0.0


def test_normalised_words_drop_case_and_punctuation() -> None:
    assert norm_word("Dataset?") == "dataset"
    assert norm_word('"(metric') == "metric"
    assert stem("benchmarks") == stem("benchmarked") == "benchmark"
