"""The pipeline: retrieve similar examples -> generate SPARQL -> read-only gate -> run on the KG -> Answer."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from types import TracebackType
from typing import Any

from pipeline.deadline import Clock, Deadline, Stage, timed
from pipeline.errors import DeadlinePassed, KgqaError, Refused, TimedOut
from pipeline.generators.attempts import passed_over
from pipeline.glance.attach import glance
from pipeline.health import health
from pipeline.names.check import Checked, held_message
from pipeline.parts import AsksAgain, ExampleStore, Generator, IntentReview, KnowledgeGraph, Reconsiders
from pipeline.question import clean, tidy
from pipeline.records import Answer, Generation, Outcome, Retrieved, Review, Step
from pipeline.sparql.explain import explain
from pipeline.sparql.gate import gate
from pipeline.sparql.text import string_literals

SECOND_ANSWERED = "the first query found nothing; the second query answered"  # the model's, or its fallback's
RECONSIDERED = "the intent guard declined the model's first query; asked again, told why, it wrote this one"
EMPTY_TWICE = "the first query found nothing; the second query found nothing either"
Progress = Callable[[Step], None]


def _quiet(step: Step) -> None:
    """No one listening for progress."""


def lookup(store: ExampleStore, text: str, k: int, max_chars: int) -> list[Retrieved]:
    """The stored pairs closest to a text, as questions find them (``kgqa lookup``, ``/kgqa lookup``)."""
    return store.search(tidy(clean(text, max_chars)), k)


def _failed(answer: Answer, exc: KgqaError, explanation: str) -> Answer:
    """``answer`` ended on a project error: TIMED_OUT for any timeout, else FAILED; the error is kept for callers."""
    return replace(answer, outcome=Outcome.TIMED_OUT if isinstance(exc, TimedOut) else Outcome.FAILED, failure=exc,
                   error=str(exc), explanation=explanation)


def _noted(generation: Generation, notes: tuple[str, ...]) -> Generation:
    return replace(generation, notes=generation.notes + notes) if notes else generation


def _same_names(second: str, first: str, question: str) -> bool:
    """The second query names nothing new but what the question says: a retry may fix a pattern or a spelling, never
    answer about another dataset or model (a wrong answer is worse than none)."""
    asked = " ".join(question.lower().split())
    known = {s.lower() for s in string_literals(first)}
    return all(s.lower() in known or " ".join(s.lower().split()) in asked for s in string_literals(second))


class Pipeline:
    """Answers questions with the parts it is given; every failure ends as an explanation, never an exception."""

    def __init__(self, store: ExampleStore, generator: Generator, kg: KnowledgeGraph, *, shots: int,
                 row_cap: int, max_question_chars: int, deadline: float | None = None,
                 names: Callable[[str, str], Checked] | None = None, intent: IntentReview | None = None,
                 workers: int) -> None:
        """``deadline``: seconds a question may take in all; past it the user gets what is known so far.
        ``names`` checks a generated query's label literals against the graph and the question
        (pipeline.names.check.NameCheck);
        ``intent`` checks it against what the question asks before it runs (pipeline.intent).
        ``workers``: questions asked at once (KGQA_WORKERS); the deadline's stage threads are sized from it."""
        self.store = store
        self.generator = generator
        self.kg = kg
        self.shots = shots
        self.row_cap = row_cap
        self.max_question_chars = max_question_chars
        self.names = names
        self.intent = intent
        self.budget = Deadline(deadline, workers)  # the question's time budget and its stage threads

    def close(self) -> None:
        """Shut the deadline's stage threads down; the front ends (CLI, bot, MCP server) call it when they finish."""
        self.budget.close()

    def __enter__(self) -> Pipeline:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def health(self, timeout: float = 2.0) -> dict[str, dict[str, Any]]:
        """The parts' probes (pipeline.health)."""
        return health(self.store, self.generator, self.kg, timeout)

    def lookup(self, text: str, k: int = 5) -> list[Retrieved]:
        return lookup(self.store, text, k, self.max_question_chars)

    def ask(self, question: str, shots: int | None = None, progress: Progress | None = None) -> Answer:
        """``progress`` hears each ``Step`` as it starts (the bot's status line); it must be quick and not raise."""
        clock, timings = self.budget.start(), dict[str, float]()
        answer = self._ask(question, shots or self.shots, clock, progress or _quiet, timings)
        return self._glance(replace(answer, timings_ms=timings), clock)

    def _ask(self, question: str, shots: int, clock: Clock, progress: Progress, t: dict[str, float]) -> Answer:
        """The answer, every stage's time added to ``t``."""
        base = Answer(question=clean(question, self.max_question_chars), kg=self.kg.name)
        if not base.question:
            return replace(base, outcome=Outcome.DECLINED, error="the question is empty",
                           explanation="Ask a question in words, e.g. 'Which model has achieved the highest Accuracy "
                                       "score on the Story Cloze Test benchmark dataset?'")
        asked = tidy(base.question)  # read once: every stage gets the question without the chatter around it
        written = self._write(base, asked, shots, clock, progress, t)
        generation = written.generation
        if written.failure is not None or generation is None:
            return written
        if not generation.sparql:
            return replace(written, outcome=Outcome.DECLINED, error="no query",
                           explanation=generation.explanation or "No query could be written for this question.")
        sparql = generation.sparql
        if self.names is not None:
            progress(Step.NAMES)
            with timed(t, "names"):
                checked = self.names(sparql, asked)
            written = replace(written, resolutions=list(checked.resolutions),
                              generation=_noted(generation, checked.notes))
            if checked.held:  # a name the graph does not know, or knows several ways: ask instead of running
                return replace(written, sparql=sparql, reading=explain(sparql), outcome=Outcome.DECLINED,
                               explanation=held_message(checked.held))
            sparql = checked.sparql
        progress(Step.RUN)
        ran = self._run(written, sparql, clock, t)
        if ran.outcome is Outcome.EMPTY:
            with timed(t, "retry"):
                ran = self._again_after_empty(ran, asked, clock, progress)
        return ran

    def _write(self, base: Answer, asked: str, shots: int, clock: Clock, progress: Progress,
               t: dict[str, float]) -> Answer:
        """``base`` with the examples found, the query written (or why not) and checked against what is asked;
        ended (``failure`` set) when a stage failed, with what was known by then."""
        examples: list[Retrieved] = []
        generation: Generation | None = None
        try:
            progress(Step.RETRIEVE)
            with timed(t, "retrieve"):
                examples = clock.within("retrieval", lambda: self.store.search(asked, shots))
            progress(Step.GENERATE)
            watch = Stage()
            with timed(t, "generate"):
                try:
                    generation = clock.within("generation", lambda: self.generator.generate(asked, examples), watch)
                except KgqaError as exc:  # past the deadline, or the model failed: what it was sent and wrote stays
                    generation = watch.so_far(self.generator.name, str(exc))
                    raise
            intent, written = self.intent, generation
            if intent is None:
                return replace(base, examples=examples, generation=generation)
            progress(Step.INTENT)
            with timed(t, "intent"):
                review = clock.within("intent check", lambda: intent.review(asked, written, examples, self.kg))
            model = self.generator
            if review.why and isinstance(model, Reconsiders) and written.sparql:
                with timed(t, "retry"):
                    review = self._after_declined(model, asked, written, review, examples, intent, clock, progress)
            return replace(base, examples=examples, generation=review.generation, offer=review.offer)
        except KgqaError as exc:
            return _failed(replace(base, examples=examples, generation=generation), exc,
                           f"I could not write a query: {exc}.")

    def _after_declined(self, model: Reconsiders, asked: str, first: Generation, review: Review,
                        examples: list[Retrieved], intent: IntentReview, clock: Clock, progress: Progress) -> Review:
        """A model's query the intent guard declined: the model is asked once more, told what it lacks; a second
        query that the guard lets stand, naming nothing the question and first query do not, replaces it and says
        so. Else the decline stands, the second reply on its record."""
        again = model.after_declined
        progress(Step.RETRY)
        try:
            second = clock.within("second generation", lambda: again(asked, examples, first, review.why))
            if second is None:
                return review
            judged = intent.review(asked, second, examples, self.kg) if second.sparql and \
                _same_names(second.sparql, first.sparql or "", asked) else None
        except KgqaError:
            return review
        if judged is None or not judged.generation.sparql:
            why = "the intent guard declined it too" if judged else "no query naming only what the question does"
            return replace(review, generation=passed_over(review.generation, second, why))
        return replace(judged, generation=_noted(judged.generation, (f"{RECONSIDERED} ({review.why})",)))

    def _again_after_empty(self, answer: Answer, asked: str, clock: Clock, progress: Progress) -> Answer:
        """A model's query that ran and found nothing: the model is asked once more, told so (as sparql-llm does);
        a second query that answers replaces the first, through the same intent and names checks, and says so."""
        model, first = self.generator, answer.generation
        if not isinstance(model, AsksAgain) or first is None or not first.sparql:
            return answer
        progress(Step.RETRY)
        again = model.after_empty
        try:
            second = clock.within("second generation", lambda: again(asked, answer.examples, first))
            if second is not None and self.intent is not None:  # with no query, the intent step may compose one
                second = self.intent.review(asked, second, answer.examples, self.kg).generation
        except KgqaError:
            return answer
        if second is None or not second.sparql or second.sparql == first.sparql or \
                not _same_names(second.sparql, first.sparql, asked):
            return replace(answer, generation=passed_over(
                first, second, "the same query again" if second and second.sparql == first.sparql
                else "it names what the question and first query do not"))
        checked = self.names(second.sparql, asked) if self.names is not None else None
        if checked is not None and checked.held:
            return replace(answer, generation=passed_over(first, second, "the names step held it"))
        # the second run's own stage times are not the question's: the retry is timed as one
        trial = self._run(Answer(question=answer.question, kg=answer.kg),
                          checked.sparql if checked is not None else second.sparql, clock, {})
        if trial.outcome is not Outcome.ANSWERED:
            kept = passed_over(first, second, f"it ended {trial.outcome.value} too")
            return replace(answer, generation=replace(kept, notes=first.notes + (EMPTY_TWICE,)))
        noted = _noted(second, checked.notes) if checked is not None else second
        return replace(answer, sparql=trial.sparql, reading=trial.reading, rows=trial.rows, outcome=trial.outcome,
                       explanation=trial.explanation,
                       resolutions=list(checked.resolutions) if checked is not None else answer.resolutions,
                       generation=replace(noted, notes=noted.notes + (SECOND_ANSWERED,)))

    def run_sparql(self, query: str) -> Answer:
        """Run a query typed by a user, through the same read-only gate."""
        clock, timings = self.budget.start(), dict[str, float]()
        answer = self._run(Answer(question="", kg=self.kg.name), query, clock, timings)
        return self._glance(replace(answer, timings_ms=timings), clock)

    @property
    def virtuoso(self) -> bool:
        """Whether the graph takes ORKG's dialect as written (every KnowledgeGraph says)."""
        return self.kg.virtuoso

    def _glance(self, answer: Answer, clock: Clock) -> Answer:
        return glance(answer, self.kg, self.row_cap, self.virtuoso, clock)

    def _run(self, base: Answer, query: str, clock: Clock, t: dict[str, float]) -> Answer:
        """``base`` with ``query`` gated, run and what it found (or why it did not run)."""
        with timed(t, "validate"):
            check = gate(query, self.row_cap, virtuoso=self.virtuoso)
        ran = replace(base, sparql=check.fixed or query, reading=explain(query))
        if not check.ok:
            refused = Refused("; ".join(check.errors))
            return replace(ran, outcome=Outcome.REFUSED, failure=refused, error=str(refused),
                           explanation=f"The query was not run: {refused}.")
        try:
            with timed(t, "kg"):
                rows = clock.within("knowledge-graph", lambda: self.kg.select(check.fixed))
        except DeadlinePassed as exc:
            return _failed(ran, exc, f"Here is the query I wrote, but {exc}, so there is no answer yet.")
        except KgqaError as exc:
            return _failed(ran, exc, f"The knowledge graph gave no answer: {exc}.")
        if rows.boolean is None and not rows.rows:
            return replace(ran, rows=rows, outcome=Outcome.EMPTY,
                           explanation="The query ran but nothing in the graph matches it." +
                                       (f" {ran.reading}" if ran.reading else ""))
        return replace(ran, rows=rows, outcome=Outcome.ANSWERED)
