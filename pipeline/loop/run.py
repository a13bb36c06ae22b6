"""The loop: the writers in order, each query judged once by every check, one try budget for asking again.

1. Each writer in turn writes a query (a language model's reply read and checked, and asked once more when it
   could not be used; the model reading the question, when asked to, picks one the project answers); the intent
   check and the names check judge it, and the first that passes runs. A query the intent check finds lacking
   gives way to the composer's query for the ask when there is one. A fallback writer
   (the offline adapter behind a model) replaces a failing query only with one that passes; else the failing query
   of the last writer that is no fallback stands, and says why it cannot run.
2. When that was a model's query the intent check declined, the model is asked once more, told why; its second
   query stands only if it passes and names nothing the question and the first query do not.
3. The query runs through the read-only gate. When a model's own query finds nothing, a fallback writer's other
   query that passes gets the next turn, else the model is asked once more, told so; the second answers only if it
   finds something. A model's own query that still finds nothing is declined, the query on show (``unsure``).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from pipeline.deadline import Clock, Stage, timed
from pipeline.errors import GeneratorError, KgqaError, TimedOut
from pipeline.loop.attempts import passed_over
from pipeline.loop.checks import IntentCheck, NamesCheck, ReplyCheck
from pipeline.loop.drafts import Draft, blank, reason_of, standing_of, taken
from pipeline.loop.notes import BY_ADAPTER
from pipeline.loop.verdicts import Call, Judgement, noted
from pipeline.loop.writers import TOLD_EMPTY, ModelTalk, Writer, told_declined
from pipeline.records import Answer, Ask, Generation, Judged, Outcome, Retrieved, Step
from pipeline.sparql.explain import explain
from pipeline.sparql.text import canonical, string_literals

SECOND_ANSWERED = "the first query found nothing; the second query answered"  # the model's, or its fallback's
RECONSIDERED = "the intent guard declined the model's first query; asked again, told why, it wrote this one"
EMPTY_TWICE = "the first query found nothing; the second query found nothing either"
UNSURE = ("The language model's own query found nothing in the graph. That can mean nothing matches, or that the "
          "query misread the question, so I will not answer 'none' on its word. The query is shown; naming things as "
          "the graph spells them may help.")
Progress = Callable[[Step], None]
Run = Callable[[Answer, str, Clock, dict[str, float]], Answer]  # gate and run a query (pipeline.core)
TRIES = 3  # a question's budget for asking a model again: once about a reply, a decline, an empty answer


def same_names(second: str, first: str, question: str) -> bool:
    """The second query names nothing new but what the question says: a retry may fix a pattern or a spelling, never
    answer about another dataset or model (a wrong answer is worse than none)."""
    asked = " ".join(question.lower().split())
    known = {s.lower() for s in string_literals(first)}
    return all(s.lower() in known or " ".join(s.lower().split()) in asked for s in string_literals(second))


@dataclass
class _Ask:
    """One question going through the loop: what every step needs, and the record kept."""

    asked: str
    examples: Sequence[Retrieved]
    clock: Clock
    progress: Progress
    t: dict[str, float]
    trail: list[Judged] = field(default_factory=list)
    known: Generation | None = None  # the last generation known, for a question that ends on a failure
    tries: int = TRIES
    asked_again: set[Ask] = field(default_factory=set)
    composed: bool = False  # the composer has had its turn on a generation with no query
    handed: Draft | None = None  # the rules' turn, handed on: its generator's query as judged (not written again)

    def record(self, writer: str, judged: Judgement) -> None:
        self.trail.append(Judged(writer, judged.check, judged.call.value, judged.why))

    def may_ask(self, ask: Ask) -> bool:
        """Whether the model may be asked again about this (never twice about one thing; ``tries`` in all)."""
        kind = ask if ask in (Ask.DECLINED, Ask.EMPTY) else Ask.AGAIN  # a reply's faults share one re-ask
        if kind in self.asked_again or self.tries <= 0:
            return False
        self.asked_again.add(kind)
        self.tries -= 1
        return True


class Loop:
    """Writes, judges, runs and asks again; ``run`` gates and runs one query (``pipeline.core.Pipeline._run``)."""

    def __init__(self, writers: Sequence[Writer], run: Run, *, reply: ReplyCheck | None = None,
                 intent: IntentCheck | None = None, names: NamesCheck | None = None) -> None:
        self.writers = list(writers)
        self.run = run
        self.reply = reply or ReplyCheck()
        self.intent = intent
        self.names = names

    def answer(self, base: Answer, asked: str, clock: Clock, progress: Progress, t: dict[str, float]) -> Answer:
        """``base`` (the question, its examples) answered, declined with the reason, or ended by a failure (``failure``
        set) with what was known by then; ``checks`` holds every check's verdict in order."""
        q = _Ask(asked, base.examples, clock, progress, t)
        try:
            draft = self._first(q)
            if draft.failed is not None and draft.failed.check == "intent" and draft.written.sparql:
                draft = self._reconsidered(q, draft)
        except KgqaError as exc:
            failed = ended(replace(base, generation=q.known), exc, f"I could not write a query: {exc}.")
            return replace(failed, checks=tuple(q.trail))
        return replace(self._ran(q, base, draft), checks=tuple(q.trail))

    # -- 1. the writers in order ------------------------------------------------------------------------------

    def _first(self, q: _Ask) -> Draft:
        drafts: list[Draft] = []  # every writer's draft so far, in order
        standing: Draft | None = None  # the failing query that stands when none passes
        # a model server that fails ends the question when only it writes (reading, then writing: one server)
        alone = len(self.writers) == 1 or all(w.model or w.reader for w in self.writers)
        for i, writer in enumerate(self.writers):
            if i:
                q.progress(Step.RETRY)
            composed = q.composed
            draft = self._again(q, writer) or self._draft(q, writer, alone=alone, last=i == len(self.writers) - 1)
            if writer.rules:  # the rules' whole reading, or the next writer's turn (their own query waits behind it)
                if draft.ruled:
                    return draft if draft.choices else taken(draft, None, len(self.writers))
                q.composed, q.handed = composed, draft  # the composer's turn on no query stays the later writers'
                continue
            if draft.ok:
                return taken(draft, drafts[-1] if drafts else None, len(self.writers))
            if not (writer.fallback and standing is not None) and draft.wrote:
                standing = draft  # a fallback's failing query never replaces a query that stands
            drafts.append(draft)
        if standing is not None:
            return standing_of(standing, drafts)
        return blank(drafts)

    @staticmethod
    def _again(q: _Ask, writer: Writer) -> Draft | None:
        """The fallback's draft when the rules' turn already wrote and judged its generator's query (the adapter
        before and behind the model, LLM first): the same query, judged once."""
        handed = q.handed
        if writer.fallback and handed is not None and handed.writer.generator is writer.generator:
            return replace(handed, writer=writer)
        return None

    def _draft(self, q: _Ask, writer: Writer, alone: bool, last: bool) -> Draft:
        q.progress(Step.GENERATE)
        try:
            written = self._write(q, writer)
        except GeneratorError as exc:
            if alone:
                raise
            written = Generation(writer.label, None, explanation=f"The language model failed ({exc}).",
                                 reason=str(exc))
            return Draft(writer, written, written, Judgement(Call.NEXT, "generate", why=str(exc)), raised=str(exc))
        if not written.sparql and (q.composed or ((writer.model or writer.reader) and not last)):
            # the composer's turn on a question with no query comes once, and after a model (writing or reading) only
            # when no writer follows
            return Draft(writer, written, written, Judgement(Call.NEXT, "generate", why=reason_of(written)))
        return self._judged(q, writer, written)

    def _write(self, q: _Ask, writer: Writer) -> Generation:
        watch = Stage()
        with timed(q.t, "generate"):
            try:
                if writer.model:
                    talk = ModelTalk(writer, self.reply, q.record, q.may_ask)
                    made = q.clock.within("generation", lambda: talk.first(q.asked, q.examples), watch)
                else:
                    made = q.clock.within("generation", lambda: writer.generator.generate(q.asked, q.examples),
                                          watch)
            except KgqaError as exc:  # past the deadline, or the model failed: what it was sent and wrote stays
                q.known = watch.so_far(writer.label, str(exc))
                raise
        q.known = made
        return made

    def _judged(self, q: _Ask, writer: Writer, written: Generation) -> Draft:
        """A writer's generation after the intent and names checks (the composer's query when it takes over)."""
        generation = written
        if self.intent is not None:
            intent = self.intent
            q.composed = q.composed or not written.sparql
            q.progress(Step.INTENT)
            with timed(q.t, "intent"):
                judged = q.clock.within("intent check", lambda: intent.judge(q.asked, written, q.examples))
            q.record(writer.label, judged)
            generation = judged.generation or written
            q.known = generation
            if judged.call is Call.DECLINE:
                return Draft(writer, written, generation, judged, offer=judged.offer, choices=judged.choices)
        if not generation.sparql:
            return Draft(writer, written, generation, Judgement(Call.DECLINE, "intent"))
        if self.names is None:
            return Draft(writer, written, generation)
        q.progress(Step.NAMES)
        with timed(q.t, "names"):
            named = self.names.judge(q.asked, generation)
        q.record(generation.generator, named)
        failed = named if named.call is Call.DECLINE else None
        return Draft(writer, written, named.generation or generation, failed, named.resolutions,
                     sparql=named.sparql)

    # -- 2. a declined model's second query -------------------------------------------------------------------

    def _reconsidered(self, q: _Ask, draft: Draft) -> Draft:
        """The model whose query the intent check declined, asked once more, told what it lacks."""
        first, why = draft.written, draft.failed.why if draft.failed else ""
        if not draft.writer.model or not why or not q.may_ask(Ask.DECLINED):
            return draft
        talk = ModelTalk(draft.writer, self.reply, q.record, q.may_ask)
        q.progress(Step.RETRY)
        with timed(q.t, "retry"):
            try:
                second = q.clock.within("second generation",
                                        lambda: talk.told(q.asked, first, Ask.DECLINED, told_declined(why)))
                if second is None:
                    return draft
                if not second.sparql or not same_names(second.sparql, first.sparql or "", q.asked):
                    kept = passed_over(draft.generation, second, "no query naming only what the question does")
                    return replace(draft, generation=kept)
                judged = self._judged(q, draft.writer, second)
            except KgqaError:
                return draft
        if judged.failed is not None and judged.failed.check == "intent":
            return replace(draft, generation=passed_over(draft.generation, second, "the intent guard declined it too"))
        return replace(judged, generation=noted(judged.generation, (f"{RECONSIDERED} ({why})",)))

    # -- 3. run, and once more after a model's empty answer ---------------------------------------------------

    def _ran(self, q: _Ask, base: Answer, draft: Draft) -> Answer:
        written = replace(base, generation=draft.generation, resolutions=list(draft.resolutions), offer=draft.offer,
                          choices=draft.choices)
        if draft.failed is not None:
            return _declined(written, draft)
        q.progress(Step.RUN)
        ran = self.run(written, draft.runs, q.clock, q.t)
        if ran.outcome is Outcome.EMPTY and draft.writer.model and draft.generation.generator == draft.writer.label:
            with timed(q.t, "retry"):
                ran = self._again_after_empty(q, ran, draft)
            if ran.outcome is Outcome.EMPTY and ran.generation is not None and \
                    ran.generation.generator == draft.writer.label:
                return unsure(ran)
        return ran

    def _again_after_empty(self, q: _Ask, answer: Answer, draft: Draft) -> Answer:
        first = draft.generation
        q.progress(Step.RETRY)
        try:
            second = self._after_empty(q, draft)
        except KgqaError:
            return answer
        if second is None:
            return answer
        g = second.generation
        why = "the same query again" if g.sparql and g.sparql == first.sparql else \
            "it names what the question and first query do not" if not g.sparql or \
            not same_names(g.sparql, first.sparql or "", q.asked) else \
            "the names step held it" if not second.ok else ""
        if why:
            return replace(answer, generation=passed_over(first, g, why))
        # the second run's own stage times are not the question's: the retry is timed as one
        trial = self.run(Answer(question=answer.question, kg=answer.kg), second.runs, q.clock, {})
        if trial.outcome is not Outcome.ANSWERED:
            kept = passed_over(first, g, f"it ended {trial.outcome.value} too")
            return replace(answer, generation=replace(kept, notes=first.notes + (EMPTY_TWICE,)))
        return replace(answer, sparql=trial.sparql, reading=trial.reading, rows=trial.rows, outcome=trial.outcome,
                       explanation=trial.explanation, resolutions=list(second.resolutions),
                       generation=replace(g, notes=g.notes + (SECOND_ANSWERED,)))

    def _after_empty(self, q: _Ask, draft: Draft) -> Draft | None:
        """The next turn after a model's empty answer: a fallback writer's other query that passes, else the model
        told so; None when neither can be had."""
        first = draft.generation
        for writer in self.writers[self.writers.index(draft.writer) + 1:]:
            if not writer.fallback:
                continue
            again = self._again(q, writer)
            made = again.written if again is not None else q.clock.within(
                "second generation", partial(writer.generator.generate, q.asked, q.examples))
            if canonical(made.sparql or "") == canonical(first.sparql or ""):
                continue  # the fallback writes the model's query: the model is asked instead
            other = again or self._judged(q, writer, made)
            if other.ok:
                notes = (f"the language model's query found nothing; {BY_ADAPTER}",) + other.generation.notes
                return replace(other, generation=replace(other.generation, notes=notes, attempts=first.attempts))
        if not q.may_ask(Ask.EMPTY):
            return None
        talk = ModelTalk(draft.writer, self.reply, q.record, q.may_ask)
        second = q.clock.within("second generation", lambda: talk.told(q.asked, first, Ask.EMPTY, TOLD_EMPTY))
        if second is None:
            return None
        if not second.sparql:
            return Draft(draft.writer, second, second, Judgement(Call.DECLINE, "empty"))
        return self._judged(q, draft.writer, second)


def unsure(answer: Answer) -> Answer:
    """A model's own query that found nothing, asked again or not: declined with the query on show, not "nothing
    matches" on its word (its empty answer is as often a misread question as an empty graph)."""
    return replace(answer, outcome=Outcome.DECLINED, explanation=UNSURE)


def _declined(written: Answer, draft: Draft) -> Answer:
    g = draft.generation
    if draft.failed is not None and draft.failed.check == "names":  # held: the query on show, and the question
        sparql = g.sparql or ""
        return replace(written, sparql=sparql, reading=explain(sparql), outcome=Outcome.DECLINED,
                       explanation=draft.failed.why)
    return replace(written, outcome=Outcome.DECLINED, error="no query",
                   explanation=g.explanation or "No query could be written for this question.")


def ended(answer: Answer, exc: KgqaError, explanation: str) -> Answer:
    """``answer`` ended on a project error: TIMED_OUT for any timeout, else FAILED; the error is kept for callers."""
    return replace(answer, outcome=Outcome.TIMED_OUT if isinstance(exc, TimedOut) else Outcome.FAILED, failure=exc,
                   error=str(exc), explanation=explanation)
