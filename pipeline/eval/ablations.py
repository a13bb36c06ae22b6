"""What a live language-model run would have scored with one of its checks off, without running the model again.

From the run's report.json (its per-question ``attempts``: every reply of the model, the query read from it and what
became of it), each ablation picks the questions it changes and the query each would have run instead, and replays
those queries through the same pipeline (retrieval, intent and names steps, gate) on the same graph; every other
question keeps its recorded answer:

- ``vocabulary_check_off``: the first query rejected for names the graph lacks runs instead of the re-prompted one.
- ``empty_retry_off``: where the query after the empty retry answered, the first query (which found nothing) stands.
- ``intent_guard_off``: the model's query runs where the intent guard declined it or replaced it by a composed one.

Exact (decoding is greedy: the same prompt gives the same reply) except where a replayed query finds nothing: the
run would then have asked the model again (the empty retry), a reply never recorded, so those questions are scored
with the empty answer and counted as ``inexact``. Not ablated: the guard's verdicts on queries the adapter wrote
(they are not on record), and a reply after the empty retry that was itself rejected."""
from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pipeline.eval.failures import WrittenBy
from pipeline.eval.scorer import score
from pipeline.loop.writers import Writer
from pipeline.parts import IntentReview
from pipeline.records import Answer, Ask, Attempt, Outcome, Verdict


@dataclass(frozen=True)
class Change:
    """One question an ablation changes: the question as the pipeline was asked it and the query it runs instead."""

    id: str
    question: str
    sparql: str


class Replayable(Protocol):
    """The parts of ``pipeline.core.Pipeline`` a replay swaps: its writers and its intent step."""

    writers: list[Writer]
    intent: IntentReview | None

    def ask(self, question: str, shots: int | None = None, progress: Any = None) -> Answer: ...


def _attempts(q: Mapping[str, Any]) -> list[Attempt]:
    return [Attempt.from_json(a) for a in q.get("attempts") or []]


def _first_tier(q: Mapping[str, Any]) -> list[Attempt]:
    """The replies before the empty retry or the guard's."""
    tried = _attempts(q)
    return tried[:next((n for n, a in enumerate(tried) if a.ask in (Ask.EMPTY, Ask.DECLINED)), len(tried))]


def taken(q: Mapping[str, Any]) -> str | None:
    """The model's query that went on to the intent step (before any empty retry)."""
    return next((a.sparql for a in _first_tier(q) if a.verdict is Verdict.TAKEN), None)


def vocabulary_off(q: Mapping[str, Any]) -> str | None:
    """The first query the vocabulary check rejected, when no query was taken before it."""
    for a in _first_tier(q):
        if a.verdict is Verdict.TAKEN:
            return None
        if a.verdict is Verdict.VOCABULARY:
            return a.sparql
    return None


def empty_retry_off(q: Mapping[str, Any]) -> str | None:
    """The first query, where the query after the empty retry answered."""
    return taken(q) if q.get("written_by") == WrittenBy.LLM_EMPTY_RETRY.value else None


def intent_guard_off(q: Mapping[str, Any]) -> str | None:
    """The model's query, where the intent guard declined it (no query left, or the model asked again) or a composed
    query replaced it."""
    replaced = q.get("written_by") in (WrittenBy.COMPOSER.value, WrittenBy.LLM_GUARD_RETRY.value) or (
        q.get("outcome") == Outcome.DECLINED.value and not q.get("sparql"))
    return taken(q) if replaced else None


ABLATIONS: dict[str, Callable[[Mapping[str, Any]], str | None]] = {
    "vocabulary_check_off": vocabulary_off, "empty_retry_off": empty_retry_off, "intent_guard_off": intent_guard_off}
_GUARDED = {"intent_guard_off"}  # replayed with no intent step
_EXACT_WHEN_EMPTY = {"empty_retry_off"}  # the run never retried what it replays


def changes(report: Mapping[str, Any], ablation: str) -> list[Change]:
    pick = ABLATIONS[ablation]
    out = []
    for q in report["questions"]:
        sparql = pick(q)
        if sparql:
            out.append(Change(str(q["id"]), str(q.get("read_as") or q["question"]), sparql))
    return out


def ablate(report: Mapping[str, Any], pipeline: Replayable) -> dict[str, Any]:
    """Per ablation: the questions changed, those not exact, the micro figures and the change in micro F1."""
    questions = report["questions"]
    gold = {str(q["id"]): list(q["gold"]) for q in questions}
    recorded = {str(q["id"]): list(q["system"]) for q in questions}
    base = score(gold, recorded)
    out: dict[str, Any] = {"run": {**base.to_json(), "reported_micro_f1": report.get("micro_f1")}}
    for name in ABLATIONS:
        changed = changes(report, name)
        answers = replay(changed, pipeline, guard=name not in _GUARDED)
        system = {**recorded, **{i: a.rows.flat() if a.rows else [] for i, a in answers.items()}}
        inexact = [] if name in _EXACT_WHEN_EMPTY else sorted(i for i, a in answers.items()
                                                             if a.outcome is Outcome.EMPTY)
        figures = score(gold, system)
        out[name] = {**figures.to_json(), "changed": sorted(answers), "inexact": inexact,
                     "delta_micro_f1": figures.micro_f1 - base.micro_f1}
    return out


def replay(changed: Sequence[Change], pipeline: Replayable, guard: bool = True) -> dict[str, Answer]:
    """Each changed question asked again with its query replayed (``guard`` False: no intent step), one at a time:
    two questions may read the same."""
    from pipeline.generators.replay import ReplayGenerator

    writers, intent = pipeline.writers, pipeline.intent
    answers = {}
    with tempfile.TemporaryDirectory(prefix="kgqa-ablate-") as folder:
        try:
            pipeline.intent = intent if guard else None
            for n, c in enumerate(changed):
                path = Path(folder) / f"{n}.json"
                path.write_text(json.dumps([{"id": c.id, "sparql": c.sparql}]), encoding="utf-8")
                pipeline.writers = [Writer(ReplayGenerator(path, {c.id: c.question}))]
                answers[c.id] = pipeline.ask(c.question)
        finally:
            pipeline.writers, pipeline.intent = writers, intent
    return answers


def lines(result: Mapping[str, Any]) -> list[str]:
    """The ablations as a table, the caveat on exactness under it."""
    run = result["run"]
    rows = ["| variant | changed | inexact | micro P | micro R | micro F1 | Δ F1 |", "|---|---|---|---|---|---|---|",
            f"| the run | — | — | {run['micro_precision']:.4f} | {run['micro_recall']:.4f} | "
            f"{run['micro_f1']:.4f} | — |"]
    for name in ABLATIONS:
        r = result[name]
        rows.append(f"| {name} | {len(r['changed'])} | {len(r['inexact'])} | {r['micro_precision']:.4f} | "
                    f"{r['micro_recall']:.4f} | {r['micro_f1']:.4f} | {r['delta_micro_f1']:+.4f} |")
    return rows + ["", "Exact for a greedy model, except the `inexact` questions: their replayed query found nothing, "
                   "and the run would then have asked the model again (the empty retry), a reply never recorded; "
                   "they are scored as empty. The guard's verdicts on the adapter's queries are not ablated."]
