"""Right, declined, wrong or failed: what a user got for one question, per intent (``report.json``'s ``intents``).
Right = the query ran and its answer is the gold's; declined = the bot said it cannot answer (no query ran, or the
one written was declined or refused); failed = a part failed or ran out of time; wrong = it answered other rows."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import Enum
from typing import Protocol

from pipeline.records import Outcome


class Grade(str, Enum):
    RIGHT = "right"
    DECLINED = "declined"
    WRONG = "wrong"
    FAILED = "failed"


class Graded(Protocol):
    """What a verdict reads of one evaluated question (``pipeline.eval.run.QuestionResult``)."""

    @property
    def sparql(self) -> str | None: ...
    @property
    def outcome(self) -> str: ...
    @property
    def same_answer(self) -> bool: ...
    @property
    def intent(self) -> str: ...


_NOT_ANSWERED = (Outcome.DECLINED.value, Outcome.REFUSED.value)
_FAILED = (Outcome.FAILED.value, Outcome.TIMED_OUT.value)


def grade(result: Graded) -> Grade:
    """The one grade of ``result`` (``report.json``'s ``verdict``)."""
    if not result.outcome:  # a recorded answers file: only its answers are known
        return Grade.RIGHT if result.same_answer else Grade.WRONG
    if result.outcome in _FAILED:
        return Grade.FAILED
    if not result.sparql or result.outcome in _NOT_ANSWERED:
        return Grade.DECLINED
    return Grade.RIGHT if result.same_answer else Grade.WRONG


def intent_counts(results: Sequence[Graded]) -> dict[str, dict[str, int]]:
    """Per intent (in first-seen order, then ``all``): how many questions got each verdict; {} when none has one."""
    if not any(r.intent for r in results):
        return {}
    table: dict[str, Counter[str]] = {}
    for r in results:
        table.setdefault(r.intent or "?", Counter())[grade(r).value] += 1
    table["all"] = sum(table.values(), Counter())
    return {intent: {v.value: counts[v.value] for v in Grade} | {"n": sum(counts.values())}
            for intent, counts in table.items()}


def intent_lines(table: dict[str, dict[str, int]]) -> list[str]:
    """The per-intent table as markdown rows (empty when there is no table)."""
    if not table:
        return []
    lines = ["## Per intent", "", "| intent | n | right | declined | wrong | failed |", "|---|---|---|---|---|---|"]
    for intent, c in table.items():
        name = f"**{intent}**" if intent == "all" else intent
        lines.append(f"| {name} | {c['n']} | {c['right']} | {c['declined']} | {c['wrong']} | {c['failed']} |")
    return lines + [""]
