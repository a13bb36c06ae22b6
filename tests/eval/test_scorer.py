"""The scorer against hand-made cases and the reference system's recorded answers."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.eval.plot import REFERENCE_F1
from pipeline.eval.scorer import group_ids, is_templated, score, score_question, scorer_lines
from pipeline.sciqa import SciQA


def test_partial_overlap() -> None:
    q = score_question(["a", "b", "c"], ["b", "c", "d"])
    assert (q.tp, q.fp, q.fn) == (2, 1, 1)
    assert q.precision == pytest.approx(2 / 3) and q.recall == pytest.approx(2 / 3) and q.f1 == pytest.approx(2 / 3)
    assert not q.exact


def test_duplicates_count_once() -> None:
    q = score_question(["a", "a", "b"], ["a", "a", "a"])
    assert (q.tp, q.fp, q.fn) == (1, 0, 1)
    assert q.precision == 1.0 and q.recall == 0.5
    assert score_question(["a", "b"], ["b", "a", "b"]).exact


def test_empty_gold_and_empty_system_is_perfect() -> None:
    q = score_question([], [])
    assert (q.tp, q.fp, q.fn, q.f1, q.exact) == (0, 0, 0, 1.0, True)


def test_one_empty_side_scores_zero() -> None:
    assert score_question([], ["x"]).f1 == 0.0 and score_question([], ["x"]).fp == 1
    assert score_question(["x"], []).f1 == 0.0 and score_question(["x"], []).fn == 1


def test_exact_string_comparison() -> None:
    assert score_question(["Accuracy"], ["accuracy"]).tp == 0
    assert score_question(["1.0"], ["1.0 "]).tp == 0


def test_pooled_micro_macro_and_accuracy() -> None:
    gold: dict[str, list[str]] = {"q1": ["a", "b", "c", "d"], "q2": ["e"], "q3": [], "q4": ["f"]}
    # q4 missing -> empty
    system: dict[str, list[str]] = {"q1": ["a", "b", "c", "d"], "q2": ["x"], "q3": [], "extra": ["z"]}
    s = score(gold, system)
    assert (s.n, s.tp, s.fp, s.fn) == (4, 4, 1, 2)
    assert s.micro_precision == pytest.approx(4 / 5)
    assert s.micro_recall == pytest.approx(4 / 6)
    assert s.micro_f1 == pytest.approx(2 * 0.8 * (4 / 6) / (0.8 + 4 / 6))
    assert s.macro_f1 == pytest.approx((1 + 0 + 1 + 0) / 4)
    assert s.exact_question_accuracy == pytest.approx(2 / 4)


def test_nothing_answered_gives_zero_not_an_error() -> None:
    s = score({"q1": ["a"]}, {})
    assert (s.micro_precision, s.micro_recall, s.micro_f1, s.macro_f1) == (0.0, 0.0, 0.0, 0.0)
    assert score({}, {}).n == 0


def test_templated_and_handcrafted_split() -> None:
    assert is_templated("AQ0001", "T04") and not is_templated("HQ0001", "HQ")
    assert is_templated("AQ0001") and not is_templated("HQ0001")
    assert not is_templated("AQ0001", "HQ")  # the template map wins over the id
    gold = {"AQ1": ["a"], "HQ1": ["b"], "AQ2": ["c"]}
    groups = group_ids(gold, {"AQ1": "T01", "HQ1": "HQ"})
    assert groups == {"overall": ["AQ1", "HQ1", "AQ2"], "templated": ["AQ1", "AQ2"], "handcrafted": ["HQ1"]}
    system = {"AQ1": ["a"], "AQ2": ["c"]}
    assert score(gold, system, groups["templated"]).micro_f1 == 1.0
    assert score(gold, system, groups["handcrafted"]).n == 1


def test_scorer_lines_format() -> None:
    s = score({"q": ["a", "b", "c"]}, {"q": ["a", "x"]})
    lines = scorer_lines(s, n_system=1)
    assert lines[:3] == ["gold answers: loaded 1 questions!", "system answers: loaded 1 questions!", "Results:"]
    assert lines[3:6] == ["\tPrecision: 0.50000", "\tRecall: 0.33333", "\tF1: 0.40000"]


SEED_RUNS = [  # (phase, answers file, precision, recall, F1) as the challenge scorer printed them
    ("final", "test/one_shot/answer_predictions.json", 0.99171, 0.93069, 0.96023),
    ("final", "test/three_shot/answer.json", 0.99219, 0.98868, 0.99044),
    ("final", "test/few_shot/answer.json", 0.98938, 0.98868, 0.98903),
    ("dev", "dev/one_shot/dev_test_1_shot_answer_predictions.json", 0.99597, 0.82060, 0.89982),
    ("dev", "dev/three_shot/answer_predictions.json", 0.98972, 0.95930, 0.97427),
    ("dev", "dev/few_shot/dev_200_questions_answer_prediction.json", 0.99394, 0.95349, 0.97329),
]


@pytest.mark.parametrize(("phase", "path", "precision", "recall", "f1"), SEED_RUNS)
def test_reproduces_the_reference_figures(sciqa: SciQA, seed_dir: Path, phase: str, path: str,
                                          precision: float, recall: float, f1: float) -> None:
    system = {a["id"]: a["answer"] for a in json.loads((seed_dir / path).read_text(encoding="utf-8"))}
    s = score(sciqa.challenge_gold(phase), system)
    assert s.n == 200
    assert scorer_lines(s)[2:5] == [f"\tPrecision: {precision:.5f}", f"\tRecall: {recall:.5f}", f"\tF1: {f1:.5f}"]


def test_plot_reference_constants_are_the_recorded_figures() -> None:
    recorded = {(p, s): f for p, s, f in [(r[0], n, r[4]) for r, n in zip(SEED_RUNS, (1, 3, 5, 1, 3, 5))]}
    assert {(p, s): f for p, f1 in REFERENCE_F1.items() for s, f in f1.items()} == recorded
