"""The pipeline: retrieve similar examples -> generate SPARQL -> read-only gate -> run on the KG -> Answer."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, TypeVar

from pipeline.errors import DeadlinePassed, KgqaError, Refused, TimedOut
from pipeline.generators.attempts import passed_over
from pipeline.generators.stage import Stage, running
from pipeline.glance import leaderboard
from pipeline.glance.summary import summarize
from pipeline.names.check import Checked, held_message
from pipeline.parts import ExampleStore, Generator, IntentReview, KnowledgeGraph
from pipeline.question import clean, tidy
from pipeline.records import Answer, Outcome, Retrieved, Step
from pipeline.sparql.explain import explain
from pipeline.sparql.gate import gate
from pipeline.sparql.text import string_literals

T = TypeVar("T")
SECOND_ANSWERED = "the first query found nothing; the model's second query answered"
EMPTY_TWICE = "the first query found nothing; the model's second query found nothing either"
Progress = Callable[[Step], None]


def _quiet(step: Step) -> None:
    """No one listening for progress."""


@contextmanager
def _timed(timings: dict[str, float], stage: str) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        timings[stage] = timings.get(stage, 0.0) + (time.perf_counter() - start) * 1000


def lookup(store: ExampleStore, text: str, k: int, max_chars: int) -> list[Retrieved]:
    """The stored pairs closest to a text, as questions find them (``kgqa lookup``, ``/kgqa lookup``)."""
    return store.search(tidy(clean(text, max_chars)), k)


def _failed(answer: Answer, exc: KgqaError, explanation: str) -> None:
    """End ``answer`` on a project error: TIMED_OUT for any timeout, else FAILED; the error is kept for callers."""
    answer.outcome = Outcome.TIMED_OUT if isinstance(exc, TimedOut) else Outcome.FAILED
    answer.failure = exc
    answer.error = str(exc)
    answer.explanation = explanation


def _counted(store: Any, timeout: float) -> dict[str, Any]:
    """The store's probe: it answers with its number of pairs (none stored is not ready)."""
    pairs = int(store.count())
    return {"ok": bool(pairs), "pairs": pairs}


def _pinged(part: Any, timeout: float) -> dict[str, Any]:
    """A generator's or a KG's probe: its ``ping``, and whether there is a server behind it."""
    return {"ok": bool(part.ping(timeout)), "remote": bool(getattr(part, "remote", False))}


Probe = Callable[[Any, float], dict[str, Any]]


def _probe(part: str, obj: Any, check: Probe, timeout: float,
           found: dict[str, tuple[dict[str, Any] | BaseException, float]]) -> None:
    """One health probe; what it reports or the exception it raised, and how long it took."""
    started = time.monotonic()
    try:
        value: dict[str, Any] | BaseException = check(obj, timeout)
    except Exception as exc:  # a probe reports, it does not raise
        value = exc
    found[part] = (value, (time.monotonic() - started) * 1000)


def _same_names(second: str, first: str, question: str) -> bool:
    """The second query names nothing new but what the question says: a retry may fix a pattern or a spelling, never
    answer about another dataset or model (a wrong answer is worse than none)."""
    asked = " ".join(question.lower().split())
    known = {s.lower() for s in string_literals(first)}
    return all(s.lower() in known or " ".join(s.lower().split()) in asked for s in string_literals(second))


class Pipeline:
    """Answers questions with the parts it is given; every failure ends as an explanation, never an exception."""

    def __init__(self, store: ExampleStore, generator: Generator, kg: KnowledgeGraph, *, shots: int = 3,
                 row_cap: int = 1000, max_question_chars: int = 2000, deadline: float | None = None,
                 names: Callable[[str], Checked] | None = None, intent: IntentReview | None = None,
                 workers: int = 4) -> None:
        """``deadline``: seconds a question may take in all; past it the user gets what is known so far.
        ``names`` checks a generated query's label literals against the graph (pipeline.names.check.NameCheck);
        ``intent`` checks it against what the question asks before it runs (pipeline.intent).
        ``workers``: questions asked at once (KGQA_WORKERS); the deadline's stage threads are sized from it."""
        self.store = store
        self.generator = generator
        self.kg = kg
        self.shots = shots
        self.row_cap = row_cap
        self.max_question_chars = max_question_chars
        self.deadline = deadline
        self.names = names
        self.intent = intent
        # Two stage threads per question at once: the running stage, and one left behind past a deadline (its own
        # timeout ends it). Made here, once: threads start only when a stage is submitted.
        self._pool = ThreadPoolExecutor(max_workers=2 * max(1, workers), thread_name_prefix="kgqa-stage")

    def _within(self, started: float, stage: str, work: Callable[[], T], watch: Stage | None = None) -> T:
        """Run one stage inside what is left of the deadline (the stage's own timeout still bounds its thread); past
        it the stage is abandoned (``watch`` tells a model server to stop) and keeps what it knew."""
        watch = watch or Stage()
        if not self.deadline:
            return running(watch, work)
        left = self.deadline - (time.monotonic() - started)
        if left <= 0:
            raise DeadlinePassed(f"the question's time budget of {self.deadline:.0f} s ran out before the {stage} step")
        future = self._pool.submit(running, watch, work)
        try:
            return future.result(timeout=left)
        except FutureTimeout:
            watch.abandon()
            raise DeadlinePassed(f"the {stage} step did not finish within the question's time budget of "
                                 f"{self.deadline:.0f} s") from None

    def health(self, timeout: float = 2.0) -> dict[str, dict[str, Any]]:
        """Cheap reachability probes, side by side, each cut off after ``timeout`` s: the store counts its pairs; the
        generator and the KG answer their ``ping``; ``remote`` says whether there is a server behind it."""
        parts: dict[str, tuple[Any, Probe]] = {"store": (self.store, _counted), "generator": (self.generator, _pinged),
                                               "kg": (self.kg, _pinged)}
        found: dict[str, tuple[dict[str, Any] | BaseException, float]] = {}
        threads = [threading.Thread(target=_probe, args=(part, obj, check, timeout, found), daemon=True,
                                    name=f"kgqa-probe-{part}") for part, (obj, check) in parts.items()]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:  # daemon threads: a probe stuck past its timeout is left behind, never waited for
            thread.join(max(0.0, timeout + 0.5 - (time.monotonic() - started)))
        out: dict[str, dict[str, Any]] = {}
        for part, (obj, _) in parts.items():
            value, ms = found.get(part, (TimeoutError(f"no answer in {timeout:g} s"), timeout * 1000))
            report: dict[str, Any] = {"name": getattr(obj, "name", type(obj).__name__), "ms": round(ms, 1)}
            if isinstance(value, BaseException):
                report.update(ok=False, error=str(value) or type(value).__name__)
            else:
                report.update(value)
            out[part] = report
        return out

    def lookup(self, text: str, k: int = 5) -> list[Retrieved]:
        return lookup(self.store, text, k, self.max_question_chars)

    def ask(self, question: str, shots: int | None = None, progress: Progress | None = None) -> Answer:
        """``progress`` hears each ``Step`` as it starts (the bot's status line); it must be quick and not raise."""
        started = time.monotonic()
        answer = self._ask(question, shots, started, progress or _quiet)
        self._glance(answer, started)
        return answer

    def _ask(self, question: str, shots: int | None, started: float, progress: Progress) -> Answer:
        shots = shots or self.shots
        answer = Answer(question=clean(question, self.max_question_chars), kg=self.kg.name)
        if not answer.question:
            answer.outcome = Outcome.DECLINED
            answer.error = "the question is empty"
            answer.explanation = "Ask a question in words, e.g. 'Which model has achieved the highest Accuracy " \
                                 "score on the Story Cloze Test benchmark dataset?'"
            return answer
        t = answer.timings_ms
        asked = tidy(answer.question)  # read once: every stage gets the question without the chatter around it
        try:
            progress(Step.RETRIEVE)
            with _timed(t, "retrieve"):
                answer.examples = self._within(started, "retrieval", lambda: self.store.search(asked, shots))
            progress(Step.GENERATE)
            watch = Stage()
            with _timed(t, "generate"):
                try:
                    answer.generation = self._within(started, "generation",
                                                     lambda: self.generator.generate(asked, answer.examples), watch)
                except KgqaError as exc:  # past the deadline, or the model failed: what it was sent and wrote stays
                    answer.generation = watch.so_far(self.generator.name, str(exc))
                    raise
            intent = self.intent
            if intent is not None:
                generation = answer.generation
                with _timed(t, "intent"):
                    review = self._within(started, "intent check", lambda: intent.review(
                        asked, generation, answer.examples, self.kg))
                answer.generation, answer.offer = review.generation, review.offer
        except KgqaError as exc:
            _failed(answer, exc, f"I could not write a query: {exc}.")
            return answer
        if not answer.generation.sparql:
            answer.outcome = Outcome.DECLINED
            answer.error = "no query"
            answer.explanation = answer.generation.explanation or "No query could be written for this question."
            return answer
        sparql = answer.generation.sparql
        if self.names is not None:
            progress(Step.NAMES)
            with _timed(t, "names"):
                checked = self.names(sparql)
            answer.resolutions = list(checked.resolutions)
            if checked.held:  # a name the graph does not know, or knows several ways: ask instead of running
                answer.sparql, answer.reading = sparql, explain(sparql)
                answer.outcome = Outcome.DECLINED
                answer.explanation = held_message(checked.held)
                return answer
            sparql = checked.sparql
        progress(Step.RUN)
        self._run(answer, sparql, started)
        if answer.outcome is Outcome.EMPTY:
            with _timed(t, "retry"):
                self._again_after_empty(answer, asked, started)
        return answer

    def _again_after_empty(self, answer: Answer, asked: str, started: float) -> None:
        """A model's query that ran and found nothing: the model is asked once more, told so (as sparql-llm does);
        a second query that answers replaces the first, through the same intent and names checks, and says so."""
        again, first = getattr(self.generator, "after_empty", None), answer.generation
        if not callable(again) or first is None or not first.sparql:
            return
        try:
            second = self._within(started, "second generation", lambda: again(asked, answer.examples, first))
            if second is not None and second.sparql and self.intent is not None:
                second = self.intent.review(asked, second, answer.examples, self.kg).generation
        except KgqaError:
            return
        if second is None or not second.sparql or second.sparql == first.sparql or \
                not _same_names(second.sparql, first.sparql, asked):
            answer.generation = passed_over(first, second, "the same query again" if second and second.sparql ==
                                            first.sparql else "it names what the question and first query do not")
            return
        checked = self.names(second.sparql) if self.names is not None else None
        if checked is not None and checked.held:
            answer.generation = passed_over(first, second, "the names step held it")
            return
        trial = Answer(question=answer.question, kg=answer.kg)
        self._run(trial, checked.sparql if checked is not None else second.sparql, started)
        if trial.outcome is not Outcome.ANSWERED:
            kept = passed_over(first, second, f"it ended {trial.outcome.value} too")
            answer.generation = replace(kept, notes=first.notes + (EMPTY_TWICE,))
            return
        answer.sparql, answer.reading, answer.rows = trial.sparql, trial.reading, trial.rows
        answer.outcome, answer.explanation = trial.outcome, trial.explanation
        answer.resolutions = list(checked.resolutions) if checked is not None else answer.resolutions
        answer.generation = replace(second, notes=second.notes + (SECOND_ANSWERED,))

    def run_sparql(self, query: str) -> Answer:
        """Run a query typed by a user, through the same read-only gate."""
        answer = Answer(question="", kg=self.kg.name)
        started = time.monotonic()
        self._run(answer, query, started)
        self._glance(answer, started)
        return answer

    @property
    def virtuoso(self) -> bool:
        """Whether the graph takes ORKG's dialect as written (parts from elsewhere may not say: then it does not)."""
        return bool(getattr(self.kg, "virtuoso", False))

    def _glance(self, answer: Answer, started: float) -> None:
        """The summary; for a ranking that found rows, first its leaderboard (one more read-only query). The
        scored rows are never touched, and a leaderboard the KG cannot give is left out: the answer stands alone."""
        comp = leaderboard.companion(answer.sparql) if answer.sparql and answer.rows and answer.rows.rows else None
        check = gate(comp.query, self.row_cap, virtuoso=self.virtuoso) if comp else None
        if comp and check and check.ok:
            try:
                with _timed(answer.timings_ms, "leaderboard"):
                    result = self._within(started, "leaderboard", lambda: self.kg.select(check.fixed))
                board = leaderboard.build(comp, result, answer.rows)
                answer.leaderboard = board if board.entries else None
            except KgqaError:
                pass
        answer.summary = summarize(answer, answer.leaderboard)

    def _run(self, answer: Answer, query: str, started: float) -> None:
        t = answer.timings_ms
        with _timed(t, "validate"):
            check = gate(query, self.row_cap, virtuoso=self.virtuoso)
        answer.sparql = check.fixed or query
        answer.reading = explain(query)
        if not check.ok:
            refused = Refused("; ".join(check.errors))
            answer.outcome, answer.failure, answer.error = Outcome.REFUSED, refused, str(refused)
            answer.explanation = f"The query was not run: {answer.error}."
            return
        try:
            with _timed(t, "kg"):
                answer.rows = self._within(started, "knowledge-graph", lambda: self.kg.select(check.fixed))
        except DeadlinePassed as exc:
            _failed(answer, exc, f"Here is the query I wrote, but {exc}, so there is no answer yet.")
            return
        except KgqaError as exc:
            _failed(answer, exc, f"The knowledge graph gave no answer: {exc}.")
            return
        answer.outcome = Outcome.ANSWERED
        if answer.rows.boolean is None and not answer.rows.rows:
            answer.outcome = Outcome.EMPTY
            answer.explanation = "The query ran but nothing in the graph matches it." + \
                (f" {answer.reading}" if answer.reading else "")
