"""The pipeline: retrieve similar examples -> generate SPARQL -> read-only gate -> run on the KG -> Answer."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import KW_ONLY, dataclass, replace
from types import TracebackType
from typing import TYPE_CHECKING, Any

from pipeline.deadline import Clock, Deadline, timed
from pipeline.errors import DeadlinePassed, KgqaError, Refused
from pipeline.glance.attach import glance
from pipeline.health import health
from pipeline.loop.checks import IntentCheck, NamesCheck, ReplyCheck
from pipeline.loop.run import Loop, ended
from pipeline.loop.writers import Writer
from pipeline.names.check import Checked
from pipeline.parts import ExampleStore, Generator, IntentReview, KnowledgeGraph
from pipeline.question import clean, tidy
from pipeline.records import Answer, Outcome, Retrieved, Step
from pipeline.sparql.explain import explain
from pipeline.sparql.gate import gate

if TYPE_CHECKING:
    from pipeline.names.lexicon import Lexicon
    from pipeline.settings import Settings

Progress = Callable[[Step], None]


def _quiet(step: Step) -> None:
    """No one listening for progress."""


def lookup(store: ExampleStore, text: str, k: int, max_chars: int) -> list[Retrieved]:
    """The stored pairs closest to a text, as questions find them (``kgqa lookup``, ``/kgqa lookup``)."""
    return store.search(tidy(clean(text, max_chars)), k)


@dataclass(frozen=True)
class Parts:
    """What a pipeline answers with. ``writers``: who writes a question's query, in order (``pipeline.loop.writers``;
    none given: ``generator`` alone, its queries taken as written); ``generator`` is the part health and the front
    ends report (a model server's slots). ``names`` checks a generated query's label literals against the graph and
    the question (pipeline.names.check.NameCheck); ``intent`` checks it against what the question asks before it runs
    (pipeline.intent); ``reply`` checks a language model's reply before the other checks. ``lexicon``: the graph's
    labels and vocabulary the parts read (``pipeline.names.lexicon``), for the warm-up and the front ends."""

    store: ExampleStore
    generator: Generator
    kg: KnowledgeGraph
    _: KW_ONLY
    writers: Sequence[Writer] = ()
    names: Callable[[str, str], Checked] | None = None
    intent: IntentReview | None = None
    reply: ReplyCheck | None = None
    lexicon: Lexicon | None = None


@dataclass(frozen=True, kw_only=True)
class Bounds:
    """How much a question may take: ``shots`` examples, ``row_cap`` rows, ``max_question_chars`` characters and
    ``deadline`` seconds in all (past it the user gets what is known so far; None: no deadline). ``workers``: questions
    asked at once (KGQA_WORKERS); the deadline's stage threads are sized from it."""

    shots: int
    row_cap: int
    max_question_chars: int
    deadline: float | None = None
    workers: int

    @classmethod
    def of(cls, settings: Settings, deadline: float | None = None) -> Bounds:
        """KGQA_SHOTS, KGQA_ROW_CAP, KGQA_MAX_QUESTION_CHARS and KGQA_WORKERS, with ``deadline``."""
        return cls(shots=settings.shots, row_cap=settings.row_cap, max_question_chars=settings.max_question_chars,
                   deadline=deadline, workers=settings.workers)


class Pipeline:
    """Answers questions with the parts it is given; every failure ends as an explanation, never an exception."""

    def __init__(self, parts: Parts, bounds: Bounds) -> None:
        self.store = parts.store
        self.generator = parts.generator
        self.writers = list(parts.writers) or [Writer(parts.generator)]
        self.reply = parts.reply
        self.kg = parts.kg
        self.names = parts.names
        self.intent = parts.intent
        self.lexicon = parts.lexicon
        self.shots = bounds.shots
        self.row_cap = bounds.row_cap
        self.max_question_chars = bounds.max_question_chars
        self.budget = Deadline(bounds.deadline, bounds.workers)  # the question's time budget and its stage threads

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
        try:
            progress(Step.RETRIEVE)
            with timed(t, "retrieve"):
                examples = clock.within("retrieval", lambda: self.store.search(asked, shots))
        except KgqaError as exc:
            return ended(base, exc, f"I could not write a query: {exc}.")
        return self._loop().answer(replace(base, examples=examples), asked, clock, progress, t)

    def _loop(self) -> Loop:
        """The check loop over this pipeline's writers and checks (made per question: a caller may swap a part)."""
        return Loop(self.writers, self._run, reply=self.reply,
                    intent=IntentCheck(self.intent, self.kg) if self.intent is not None else None,
                    names=NamesCheck(self.names) if self.names is not None else None)

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
        g = base.generation
        said = g.reading_record.said if g is not None and g.reading_record is not None and g.sparql == query else ""
        ran = replace(base, sparql=check.fixed or query, reading=said or explain(query))
        if not check.ok:
            refused = Refused("; ".join(check.errors))
            return replace(ran, outcome=Outcome.REFUSED, failure=refused, error=str(refused),
                           explanation=f"The query was not run: {refused}.")
        try:
            with timed(t, "kg"):
                rows = clock.within("knowledge-graph", lambda: self.kg.select(check.fixed))
        except DeadlinePassed as exc:
            return ended(ran, exc, f"Here is the query I wrote, but {exc}, so there is no answer yet.")
        except KgqaError as exc:
            return ended(ran, exc, f"The knowledge graph gave no answer: {exc}.")
        if rows.boolean is None and not any(rows.rows):  # no rows, or rows with nothing bound (an OPTIONAL's)
            return replace(ran, rows=rows, outcome=Outcome.EMPTY,
                           explanation="The query ran but nothing in the graph matches it." +
                                       (f" {ran.reading}" if ran.reading else ""))
        return replace(ran, rows=rows, outcome=Outcome.ANSWERED)
