"""The SciQA challenge scorer (micro P/R/F1 over pooled answer strings) plus macro F1 and exact-question accuracy."""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

Answers = Mapping[str, Sequence[str]]  # question id -> flat answer strings
GROUPS = ("overall", "templated", "handcrafted")
_TEMPLATE = re.compile(r"T\d+")


@dataclass(frozen=True)
class QuestionScore:
    """One question's counts and scores; answers are compared as sets of exact strings."""

    tp: int
    fp: int
    fn: int
    precision: float
    recall: float
    f1: float
    exact: bool


@dataclass(frozen=True)
class Scores:
    """Pooled (micro) and per-question-averaged (macro) figures over a set of questions."""

    n: int
    tp: int
    fp: int
    fn: int
    micro_precision: float
    micro_recall: float
    micro_f1: float
    macro_f1: float
    exact_question_accuracy: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def f1_of(precision: float, recall: float) -> float:
    """Harmonic mean; 0 when both are 0."""
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def score_question(gold: Iterable[str], system: Iterable[str]) -> QuestionScore:
    """Set comparison by exact string; empty gold and empty system is a perfect score, one empty side is 0."""
    g, s = set(gold), set(system)
    tp, fp, fn = len(g & s), len(s - g), len(g - s)
    if not g and not s:
        return QuestionScore(0, 0, 0, 1.0, 1.0, 1.0, True)
    precision = tp / len(s) if s else 0.0
    recall = tp / len(g) if g else 0.0
    return QuestionScore(tp, fp, fn, precision, recall, f1_of(precision, recall), g == s)


def score(gold: Answers, system: Answers, ids: Iterable[str] | None = None) -> Scores:
    """Score the gold questions (or the given subset of them); a question missing from ``system`` is an empty set."""
    chosen = list(gold) if ids is None else list(ids)
    per = [score_question(gold[i], system.get(i, ())) for i in chosen]
    tp, fp, fn = sum(q.tp for q in per), sum(q.fp for q in per), sum(q.fn for q in per)
    # The challenge scorer divides pooled counts; a zero denominator (nothing answered / nothing expected) gives 0.
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    n = len(per)
    return Scores(n, tp, fp, fn, precision, recall, f1_of(precision, recall),
                  sum(q.f1 for q in per) / n if n else 0.0,
                  sum(q.exact for q in per) / n if n else 0.0)


def is_templated(question_id: str, template_id: str = "") -> bool:
    """SciQA's template-generated questions (T01–T08); everything else (HQ*) is handcrafted."""
    if template_id:
        return bool(_TEMPLATE.fullmatch(template_id))
    return not question_id.upper().startswith("HQ")


def group_ids(ids: Iterable[str], templates: Mapping[str, str]) -> dict[str, list[str]]:
    """Split question ids into overall / templated / handcrafted, keeping their order."""
    ids = list(ids)
    templated = [i for i in ids if is_templated(i, templates.get(i, ""))]
    chosen = set(templated)
    return {"overall": ids, "templated": templated, "handcrafted": [i for i in ids if i not in chosen]}


def scorer_lines(scores: Scores, n_system: int | None = None) -> list[str]:
    """The challenge scorer's printout (5 decimals), then macro F1 and exact-question accuracy."""
    head = [f"gold answers: loaded {scores.n} questions!"]
    if n_system is not None:
        head.append(f"system answers: loaded {n_system} questions!")
    return head + ["Results:",
                   f"\tPrecision: {scores.micro_precision:.5f}",
                   f"\tRecall: {scores.micro_recall:.5f}",
                   f"\tF1: {scores.micro_f1:.5f}",
                   f"\tMacro F1: {scores.macro_f1:.5f}",
                   f"\tExact-question accuracy: {scores.exact_question_accuracy:.5f}"]
