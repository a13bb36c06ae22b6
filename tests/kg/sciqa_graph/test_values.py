"""Invented scores keep the recorded ranking under text order, as ORKG's string literals sort."""
from __future__ import annotations

import pytest

from pipeline.kg.sciqa_graph.values import below, invented


@pytest.mark.parametrize("top", ["83.64", "403", "100", "0", "71.46%", "1", "0.0", "abc", "-5", "9.5"])
def test_scores_below_a_top_sort_before_it_as_text_and_are_distinct(top: str) -> None:
    lower = below(top, 6)
    assert len(lower) == 6 and len(set(lower)) == 6
    assert all(v < top for v in lower)


def test_a_score_keeps_the_shape_of_its_top_where_it_can() -> None:
    assert below("71.46%", 2) == ["70.75%", "70.03%"]
    assert below("403", 1) == ["399"]


def test_invented_scores_rank_best_first_as_text_and_as_numbers() -> None:
    scores = invented(300)
    assert scores == sorted(scores, reverse=True) and len(set(scores)) == 300
    assert [float(s) for s in scores] == sorted((float(s) for s in scores), reverse=True)
