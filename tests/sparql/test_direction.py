"""Which way a metric is better, from its label alone."""
from __future__ import annotations

from pipeline.sparql.direction import direction_known, lower_is_better


def test_an_error_a_loss_or_a_time_is_better_lower_and_a_score_higher() -> None:
    assert lower_is_better("Word Error Rate (WER)") and lower_is_better("Test perplexity")
    assert lower_is_better("RMSE") and not lower_is_better("Accuracy") and not lower_is_better("F1")
    assert lower_is_better("Latency (ms)") and lower_is_better("Frequency Deviation (cents)")


def test_a_metric_says_its_direction_by_its_words_outside_parentheses_or_not_at_all() -> None:
    assert lower_is_better("Median RMSD (Å)") and not lower_is_better("Success Rate (RMSD < 2Å)")
    assert lower_is_better("Top-1 Error Rate") and not lower_is_better("Accuracy (%)")
    assert direction_known("Success Rate (RMSD < 2Å)") and direction_known("AUROC") and direction_known("PCK@150mm")
    assert not direction_known("MPJPE (mm)") and not direction_known("Number of params")


def test_a_percentage_error_and_a_false_alarm_rate_are_better_lower() -> None:
    assert lower_is_better("MAPE (%)") and lower_is_better("sMAPE") and lower_is_better("False Alarm Rate")


def test_an_efficiency_a_yield_and_a_performance_are_better_higher() -> None:
    for label in ("Power conversion efficiency (%)", "Yield", " Coefficient of performance COP", "Survival",
                  "Student pass rates %"):
        assert direction_known(label) and not lower_is_better(label), label
    assert not direction_known("Effect size") and not direction_known("Energy saving")


def test_a_brier_score_is_better_lower_though_a_score() -> None:
    assert lower_is_better("Brier Score") and not lower_is_better("F1 score")
