"""Several runs' headline figures side by side in one table."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pipeline.eval.plot import plot_f1
from pipeline.eval.report import fmt, load_report

Getter = Callable[[Mapping[str, Any]], Any]


def _config(key: str) -> Getter:
    return lambda r: r.get("config", {}).get(key)


def _top(key: str, group: str | None = None) -> Getter:
    return lambda r: (r.get(group, {}) if group else r).get(key)


def _latency(q: str) -> Getter:
    return lambda r: r.get("timings_ms", {}).get("wall", {}).get(q)


ROWS: list[tuple[str, Getter]] = [
    ("questions", _config("questions")), ("generator", _config("generator")), ("shots", _config("shots")),
    ("kg", _config("kg")), ("n", _top("n")),
    ("micro precision", _top("micro_precision")), ("micro recall", _top("micro_recall")),
    ("micro F1", _top("micro_f1")), ("macro F1", _top("macro_f1")),
    ("exact-question accuracy", _top("exact_question_accuracy")),
    ("template hit@1", _top("template_hit_at_1")), ("template hit@3", _top("template_hit_at_3")),
    ("reference overlap@5", _top("reference_overlap_at_5")),
    ("templated micro F1", _top("micro_f1", "templated")), ("handcrafted micro F1", _top("micro_f1", "handcrafted")),
    ("empty answers", _top("empty_answers")), ("not in snapshot", _top("not_in_snapshot")),
    ("syntax errors", _top("syntax_errors")), ("errors", _top("errors")),
    ("latency p50 (ms)", _latency("p50")), ("latency p95 (ms)", _latency("p95")),
]


def _names(dirs: Sequence[Path]) -> list[str]:
    """Each run's folder name, or its whole path where two names clash."""
    names = [Path(d).name or str(d) for d in dirs]
    return [n if names.count(n) == 1 else str(d) for n, d in zip(names, dirs)]


def _cell(value: Any) -> str:
    if isinstance(value, float) and value > 10:  # latencies: a decimal is enough
        return f"{value:.1f}"
    return fmt(value)


def table(reports: Sequence[Mapping[str, Any]], names: Sequence[str]) -> str:
    """A markdown table: one row per figure, one column per run."""
    lines = ["| | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    lines += [f"| {label} | " + " | ".join(_cell(get(r)) for r in reports) + " |" for label, get in ROWS]
    return "\n".join(lines)


def compare(dirs: Sequence[Path], plot: Path | None = None) -> str:
    """The runs in ``dirs`` (report folders or report.json files) side by side; optionally their F1 plot."""
    reports = [load_report(Path(d)) for d in dirs]
    if plot is not None:
        plot_f1(reports, plot)
    return table(reports, _names([Path(d) for d in dirs]))
