"""How people type: typos and word endings are forgiven."""
from __future__ import annotations

import pytest

from pipeline.matching.wording import norm_word, stem, word_sim

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
