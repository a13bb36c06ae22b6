"""Runs: score a recorded answers file as it is, or ask every question through the pipeline concurrently."""
from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from tqdm import tqdm

from pipeline.errors import ConfigError, KgqaError, NotInSnapshot, TimedOut
from pipeline.eval.failures import classify, writer
from pipeline.eval.grade import grade
from pipeline.eval.questions import EvalQuestion, flat_strings
from pipeline.eval.retrieval import OVERLAP_K, overlap
from pipeline.eval.scorer import score_question
from pipeline.parts import LooksUp
from pipeline.records import Answer, Outcome, Retrieved, Step
from pipeline.sparql.text import syntax_errors


class Asker(Protocol):
    """The part of ``pipeline.core.Pipeline`` an evaluation needs."""

    def ask(self, question: str, shots: int | None = None,
            progress: Callable[[Step], None] | None = None) -> Answer: ...


@dataclass(frozen=True)
class QuestionResult:
    """One evaluated question: what was asked, generated and answered, and how it scored."""

    id: str
    question: str
    template_id: str
    gold: list[str]
    system: list[str]
    precision: float
    recall: float
    f1: float
    exact: bool
    sparql: str | None = None
    examples: list[dict[str, Any]] | None = None  # None when nothing was retrieved (a recorded answers file)
    reference_overlap: float | None = None
    error: str = ""
    outcome: str = ""  # pipeline.records.Outcome's value; "" for a recorded answers file
    explanation: str = ""
    generator: str = ""
    kg: str = ""
    notes: list[str] = field(default_factory=list)
    not_in_snapshot: bool = False
    syntax_error: bool = False
    timings_ms: dict[str, float] = field(default_factory=dict)
    read_as: str = ""  # a follow-up's standalone reading (questions asked in a thread)
    offer: str = ""  # when declined: the closest question that can be answered
    attempts: list[dict[str, Any]] = field(default_factory=list)  # every reply of the model (Attempt.to_json)
    written_by: str = ""  # pipeline.eval.failures.WrittenBy's value for the query that ran ("" for none)
    intent: str = ""  # the question's kind, for the per-intent right / declined / wrong table
    same_answer: bool = False  # the answer equals the gold or a form of it accepted as the same (labels with IRIs)
    unplaced: list[str] = field(default_factory=list)  # the words the typed reading its query ran from left unplaced

    @property
    def empty_answer(self) -> bool:
        return not self.system

    def to_json(self) -> dict[str, Any]:
        failure = classify(self)
        return {**asdict(self), "empty_answer": self.empty_answer, "failure": failure.value if failure else None,
                "verdict": grade(self).value}


def scored(q: EvalQuestion, system: list[str], columns: Sequence[Sequence[str]] = (), **details: Any
           ) -> QuestionResult:
    """A result for ``q`` given the system's flat answer strings. It is the same answer as the gold's when they are
    equal, when a form the question accepts equals it, or when one of the answer's ``columns`` holds exactly the
    gold's values (the models asked for, each beside its code link or score: what the user asked, and more), or when
    its columns without those holding only IRIs are the gold's (a paper's title and year, shown with its IRI), or
    when the columns holding only the gold's values hold all of them and others are shown beside (the contributions
    asked and their effect sizes, each beside its paper)."""
    s = score_question(q.gold, system)
    named = [c for c in columns if not all(v.startswith(("http://", "https://")) for v in c)]
    held = [c for c in named if c and set(c) <= set(q.gold)]
    same = s.exact or any(set(form) == set(system) for form in q.accepted) or \
        (bool(q.gold) and any(set(column) == set(q.gold) for column in columns)) or \
        (bool(q.gold) and 0 < len(named) < len(columns) and {v for c in named for v in c} == set(q.gold)) or \
        (bool(q.gold) and 0 < len(held) < len(named) and {v for c in held for v in c} == set(q.gold))
    return QuestionResult(q.id, q.question, q.template_id, list(q.gold), system, s.precision, s.recall, s.f1,
                          s.exact, **details, intent=q.intent, same_answer=same)


def read_answers(path: Path) -> dict[str, list[str]]:
    """A recorded answers file ``[{"id", "answer": [str, ...]}]`` as {id: flat answer strings}."""
    try:
        items = json.loads(Path(path).read_text(encoding="utf-8"))
        return {str(a["id"]): flat_strings(a["answer"], f"{path}: answer of {a['id']}") for a in items}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"cannot read answers file {path}: expected [{{\"id\", \"answer\": [...]}}] ({exc})") \
            from exc


def score_answers_file(questions: Sequence[EvalQuestion], answers_path: Path) -> list[QuestionResult]:
    """Score a recorded answers file as it is; a question missing from it counts as an empty answer."""
    answers = read_answers(answers_path)
    return [scored(q, answers.get(q.id, [])) for q in questions]


def run_pipeline(questions: Sequence[EvalQuestion], pipeline: Asker, shots: int | None = None, workers: int = 2,
                 reference: Mapping[str, list[str]] | None = None, progress: bool = True) -> list[QuestionResult]:
    """Ask every question through ``pipeline.ask`` on ``workers`` threads (progress bar on stderr), in input order."""
    results: list[QuestionResult | None] = [None] * len(questions)
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool, \
            tqdm(total=len(questions), desc="eval", unit="q", file=sys.stderr, disable=not progress) as bar:
        futures: dict[Future[QuestionResult], int] = {
            pool.submit(ask_one, q, pipeline, shots, (reference or {}).get(q.id), False): n
            for n, q in enumerate(questions)}
        try:
            for fut in as_completed(futures):
                results[futures[fut]] = fut.result()
                bar.update()
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)  # a bug, not a per-question failure: stop the run
            raise
    # rdflib's SPARQL parser (pyparsing) is not thread-safe, so the syntax check runs here, on one thread.
    return [replace(r, syntax_error=has_syntax_error(r.sparql)) for r in results if r is not None]


def has_syntax_error(sparql: str | None) -> bool:
    """Whether a generated query fails to parse as SPARQL 1.1 (no query at all is not a syntax error)."""
    return bool(sparql and syntax_errors(sparql))


def ask_one(q: EvalQuestion, pipeline: Asker, shots: int | None, theirs: list[str] | None = None,
            check_syntax: bool = True) -> QuestionResult:
    """Ask one question; a project error becomes this question's error (an empty answer), anything else propagates."""
    start = time.perf_counter()
    try:
        answer = _in_thread(q, pipeline, shots) if q.thread else pipeline.ask(q.question, shots=shots)
    except KgqaError as exc:
        wall = (time.perf_counter() - start) * 1000
        ended = Outcome.TIMED_OUT if isinstance(exc, TimedOut) else Outcome.FAILED
        return scored(q, [], error=f"{type(exc).__name__}: {exc}", outcome=ended.value, timings_ms={"wall": wall})
    wall = (time.perf_counter() - start) * 1000
    system = answer.rows.flat() if answer.rows is not None else []
    columns = [[row[v]["value"] for row in answer.rows.rows if v in row] for v in answer.rows.vars] \
        if answer.rows is not None and answer.rows.boolean is None else []
    generation = answer.generation
    return scored(
        q, system, columns, sparql=answer.sparql, examples=[_example(r) for r in answer.examples],
        reference_overlap=overlap(_our_top(q, pipeline, answer), theirs) if theirs is not None else None,
        error=answer.error, outcome=answer.outcome.value, explanation=answer.explanation, generator=answer.generator,
        kg=answer.kg,
        notes=list(generation.notes) if generation else [],
        not_in_snapshot=isinstance(answer.failure, NotInSnapshot),
        syntax_error=check_syntax and has_syntax_error(answer.sparql),
        timings_ms={**answer.timings_ms, "wall": wall}, read_as=answer.read_as, offer=answer.offer,
        attempts=[a.to_json() for a in generation.attempts] if generation else [],
        written_by=_written_by(answer),
        unplaced=list(generation.reading_record.to_json().get("unplaced", ()))
        if generation and generation.reading_record and answer.sparql else [])


def _written_by(answer: Answer) -> str:
    """Who wrote the query that ran ("" when none ran: declined, held, refused)."""
    who = writer(answer.generation) if answer.outcome in (Outcome.ANSWERED, Outcome.EMPTY) else None
    return who.value if who else ""


def _in_thread(q: EvalQuestion, pipeline: Asker, shots: int | None) -> Answer:
    """The question asked after its thread's earlier questions, in one conversation of its own."""
    from pipeline.conversation.talk import Conversation
    from pipeline.names.check import label_index
    from pipeline.state.threads.memory import local_memory

    talk = Conversation(pipeline, local_memory(), label_index(pipeline))
    for earlier in q.thread:
        talk.ask(q.id, earlier, shots)
    return talk.ask(q.id, q.question, shots)


def _example(r: Retrieved) -> dict[str, Any]:
    return {"id": r.example.id, "template_id": r.example.template_id, "score": r.score,
            "question": r.example.question}


def _our_top(q: EvalQuestion, pipeline: Asker, answer: Answer) -> list[str]:
    """Our top-5 retrieved questions: the prompt's examples, or a lookup when fewer shots were used."""
    examples = answer.examples
    if len(examples) < OVERLAP_K and isinstance(pipeline, LooksUp):
        examples = pipeline.lookup(q.question, OVERLAP_K)
    return [r.example.question for r in examples]
