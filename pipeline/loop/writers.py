"""The writers of a question's query, in order, and the exchange with a language model among them: its reply read and
checked (``ReplyCheck``), and the model asked again — once after a reply it could not use, once when told why a
query of its was declined or found nothing — each reply kept on the record (``Generation.attempts``)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from pipeline.deadline import current
from pipeline.errors import GeneratorError, GeneratorTimeout, ModelUnavailable, PromptTooLong
from pipeline.generators.prompt import NOTE
from pipeline.generators.reply import interpret
from pipeline.loop.checks import ReplyCheck
from pipeline.loop.notes import ADAPTER, MODEL, READER
from pipeline.loop.verdicts import Call, Judgement
from pipeline.parts import Generator, Reaskable
from pipeline.records import Ask, Attempt, Generation, Retrieved, Verdict

TOLD_EMPTY = ("That query ran, but the knowledge graph returned no results for it. Check its names, predicates and "
              "pattern against the examples, and write a corrected SPARQL query for the same question.")


def told_declined(why: str) -> str:
    return (f"That query was not run: it does not use {why}. Write a corrected SPARQL query for the same question, "
            "with the names exactly as the question writes them.")


@dataclass(frozen=True)
class Writer:
    """One writer of the ordered list. ``model``: a language model — its reply is read and checked, and it can be
    asked again; ``reader``: the language model reading the question (``pipeline.intent.reader``), never asked again,
    its "none" handing the question on; ``fallback``: it replaces a failing query of the writers before it only when
    its own passes every check (the offline adapter behind a model, LLM first); ``rules``: only the intent step's own
    answer from it counts — a query composed from a reading of every word, or a question asked back — anything else
    handed on (the offline adapter before a model, LLM first: the model never overrides a whole reading); ``name``:
    what its queries are marked with (a model's generator spec, e.g. ``repair:replay:FILE``), else the generator's own
    name."""

    generator: Generator
    name: str = ""
    model: bool = False
    fallback: bool = False
    reader: bool = False  # the model as a reader: its "none" hands the question on (not to the composer's reading)
    rules: bool = False
    retry_timeouts: bool = True  # a model that timed out is asked again (only when two waits fit the deadline)

    @property
    def label(self) -> str:
        return self.name or self.generator.name

    @property
    def role(self) -> str:
        """What the answer's notes call it: the language model writing, reading, or the offline adapter."""
        return MODEL if self.model else READER if self.reader else ADAPTER


Record = Callable[[str, Judgement], None]  # (writer, judgement): the loop's record of every check


@dataclass
class _Log:
    """What the tries of one question found: why each failed (a reason, the error raised, or a check's verdict),
    and every reply."""

    attempts: list[Attempt] = field(default_factory=list)
    failures: list[str | GeneratorError | Judgement] = field(default_factory=list)


def _said(failure: str | GeneratorError | Judgement) -> str:
    return failure.why if isinstance(failure, Judgement) else str(failure)


class ModelTalk:
    """One writer's exchanges with its language model for one question."""

    def __init__(self, writer: Writer, reply: ReplyCheck, record: Record,
                 may_ask: Callable[[Ask], bool] = lambda ask: True) -> None:
        """``may_ask``: the question's try budget, asked before a model is asked again about a reply it wrote."""
        self.writer = writer
        self.reply = reply
        self.record = record
        self.may_ask = may_ask

    @property
    def name(self) -> str:
        return self.writer.label

    def first(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        """The model's query for the question, read and checked; after a failure (an error, a timeout, no query, a
        reply a check asks again about) it is asked once more, with the reason when its query was wrong. After two
        failures: no query, with the reasons. A model that is gone, or a prompt too long for it, raises."""
        log = _Log()
        model = self.writer.generator
        first = self._attempt(Ask.PROMPT, lambda: model.generate(question, examples), log)
        if first is not None:
            result = self._checked(first, question, log, Ask.PROMPT)
            if result is not None:
                return result
        timed_out = bool(log.failures) and isinstance(log.failures[-1], GeneratorTimeout)
        if (not timed_out or self.writer.retry_timeouts) and self.may_ask(Ask.AGAIN):
            failure = log.failures[-1]
            again = failure.ask if isinstance(failure, Judgement) and failure.ask and first is not None else Ask.AGAIN
            second = self._attempt(again, lambda: self._again(question, examples, first, failure), log)
            if second is not None:
                note = failure.note if isinstance(failure, Judgement) else "asked the model again"
                result = self._checked(second, question, log, again, (note,))
                if result is not None:
                    return result
        why = "; ".join(dict.fromkeys(map(_said, log.failures))) or "no usable query"
        stage = current()  # a model that failed still had a prompt: the reply shows it
        return Generation(self.name, None, first.raw if first else "",
                          first.prompt if first else (stage.prompt if stage else ""),
                          explanation=f"The model could not write a usable query in two tries: {why}", reason=why,
                          attempts=tuple(log.attempts))

    def told(self, question: str, first: Generation, ask: Ask, told: str) -> Generation | None:
        """The model's reply to ``told`` about ``first``'s query, read and checked, on ``first``'s record; None when
        the model cannot be asked again."""
        model = self.writer.generator
        if not isinstance(model, Reaskable) or not first.sparql:
            return None
        prompt = model.follow_up(first, f"{told}\n{NOTE}")
        log = _Log(list(first.attempts))
        second = self._attempt(ask, lambda: interpret(model.complete(prompt), self.name, prompt), log)
        checked = self._checked(second, question, log, ask) if second is not None else None
        return checked or Generation(self.name, None, second.raw if second else "", prompt,
                                     explanation="; ".join(map(_said, log.failures)), attempts=tuple(log.attempts))

    def _attempt(self, ask: Ask, call: Callable[[], Generation], log: _Log) -> Generation | None:
        try:
            return call()
        except (ModelUnavailable, PromptTooLong):
            raise  # asking again cannot help: the question fails (or the next writer answers) with this reason
        except GeneratorError as exc:
            log.failures.append(exc)
            verdict = Verdict.TIMED_OUT if isinstance(exc, GeneratorTimeout) else Verdict.FAILED
            log.attempts.append(Attempt(ask, "", None, verdict, str(exc)))
            return None

    def _again(self, question: str, examples: Sequence[Retrieved], first: Generation | None,
               failure: str | GeneratorError | Judgement) -> Generation:
        """The second try: a follow-up about ``first``'s query when there is one, else the prompt again."""
        model = self.writer.generator
        if first is None or not first.sparql or not isinstance(model, Reaskable):
            if first is not None and not isinstance(model, Reaskable):
                raise GeneratorError("the recorded generator cannot be asked again")
            return model.generate(question, examples)
        said = failure.told if isinstance(failure, Judgement) else f"That query does not parse ({failure})."
        prompt = model.follow_up(first, f"{said} Write the corrected SPARQL query for the same question.\n{NOTE}")
        return interpret(model.complete(prompt), self.name, prompt)

    def _checked(self, g: Generation, question: str, log: _Log, ask: Ask,
                 before: tuple[str, ...] = ()) -> Generation | None:
        if not g.sparql:
            log.failures.append(g.explanation or "the model wrote no query")
            log.attempts.append(Attempt(ask, g.raw, None, Verdict.NO_QUERY,
                                        g.reason or g.explanation or "the model wrote no query"))
            return None
        judged = self.reply.judge(question, g)
        self.record(self.name, judged)
        after = judged.generation or g
        if judged.call is Call.ASK_AGAIN:
            log.failures.append(judged)
            log.attempts.append(Attempt(ask, g.raw, after.sparql, judged.verdict, judged.why))
            return None
        log.attempts.append(Attempt(ask, g.raw, after.sparql, Verdict.TAKEN))
        return replace(after, generator=self.name, notes=g.notes + before + after.notes[len(g.notes):],
                       attempts=tuple(log.attempts))
