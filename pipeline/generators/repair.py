"""Repairing what a language model wrote: a Generator wrapper that checks its query (the pure repair chain,
``pipeline.generators.checks``), re-asks the model once with the parser's error or the defect found, and leaves the
question to the offline adapter when the model fails or stays invalid twice."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from pipeline.deadline import current
from pipeline.errors import GeneratorError, GeneratorTimeout, ModelUnavailable, PromptTooLong
from pipeline.generators.checks import check
from pipeline.generators.prompt import NOTE
from pipeline.generators.reply import interpret
from pipeline.matching.forms import Labels
from pipeline.names.vocabulary import unknown
from pipeline.parts import Generator, GeneratorWrapper, Reaskable
from pipeline.records import Ask, Attempt, Generation, Retrieved, Verdict
from pipeline.sparql.scope import selected_but_unbound


@dataclass(frozen=True)
class Rejection:
    """Why a model's query was not taken (``str``), what the model is told when asked again, and the note then."""

    reason: str
    ask: str
    note: str
    verdict: Verdict = Verdict.SYNTAX

    @property
    def follow_up(self) -> Ask:
        """The follow-up the model is sent about it."""
        return _FOLLOW_UPS.get(self.verdict, Ask.SYNTAX)

    def __str__(self) -> str:
        return self.reason


_FOLLOW_UPS = {Verdict.VOCABULARY: Ask.VOCABULARY, Verdict.UNBOUND: Ask.UNBOUND}


class RepairingGenerator(GeneratorWrapper):
    """Wraps an LLM generator: checks and repairs its query, and asks once more (with the parser's error when the
    query was invalid) after a failure (an error, a timeout, no query or an invalid one). After two failures it
    returns no query, with the reasons; ``pipeline.generators.fallback.FallbackGenerator`` then asks the adapter."""

    def __init__(self, inner: Generator, vocabulary: Callable[[], frozenset[str]] | None = None,
                 labels: Callable[[], Labels] | None = None, *, retry_timeouts: bool, name: str,
                 graph_names: Callable[[], frozenset[str] | None] | None = None) -> None:
        """``vocabulary``: the stored queries' names (unknown ones are noted); ``graph_names``: the KG's own
        predicates and classes (pipeline.names.vocabulary) — a query using others is asked again once, with them."""
        super().__init__(inner, name)
        self.graph_names = graph_names
        self.vocabulary = vocabulary
        self.labels = labels
        self.retry_timeouts = retry_timeouts

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        log = _Log()
        first = self._attempt(Ask.PROMPT, lambda: self.inner.generate(question, examples), log)
        if first is not None:
            result = self._checked(first, question, log, Ask.PROMPT)
            if result is not None:
                return result
        timed_out = bool(log.failures) and isinstance(log.failures[-1], GeneratorTimeout)
        if not timed_out or self.retry_timeouts:
            failure = log.failures[-1]
            ask = failure.follow_up if isinstance(failure, Rejection) and first is not None else Ask.AGAIN
            second = self._attempt(ask, lambda: self._again(question, examples, first, failure), log)
            if second is not None:
                note = failure.note if isinstance(failure, Rejection) else "asked the model again"
                result = self._checked(second, question, log, ask, (note,))
                if result is not None:
                    return result
        why = "; ".join(dict.fromkeys(map(str, log.failures))) or "no usable query"
        stage = current()  # a model that failed still had a prompt: the reply shows it
        return Generation(self.name, None, first.raw if first else "",
                          first.prompt if first else (stage.prompt if stage else ""),
                          explanation=f"The model could not write a usable query in two tries: {why}", reason=why,
                          attempts=tuple(log.attempts))

    def after_empty(self, question: str, examples: Sequence[Retrieved], first: Generation) -> Generation | None:
        """One more query after ``first`` ran and found nothing, the model told so; None when it cannot be asked
        again. Its reply joins ``first``'s attempts, whether or not it holds a usable query."""
        return self._told(question, first, Ask.EMPTY, "That query ran, but the knowledge graph returned no results "
                          "for it. Check its names, predicates and pattern against the examples, and write a corrected "
                          "SPARQL query for the same question.")

    def after_declined(self, question: str, examples: Sequence[Retrieved], first: Generation,
                       why: str) -> Generation | None:
        """One more query after the intent guard declined ``first``'s, the model told what it lacks (``why``); as
        ``after_empty``."""
        return self._told(question, first, Ask.DECLINED, f"That query was not run: it does not use {why}. Write a "
                          "corrected SPARQL query for the same question, with the names exactly as the question "
                          "writes them.")

    def _told(self, question: str, first: Generation, ask: Ask, told: str) -> Generation | None:
        """The model's reply to ``told`` about ``first``'s query, checked, on ``first``'s record."""
        model = self.inner
        if not isinstance(model, Reaskable) or not first.sparql:
            return None
        prompt = model.follow_up(first, f"{told}\n{NOTE}")
        log = _Log(list(first.attempts))
        second = self._attempt(ask, lambda: interpret(model.complete(prompt), self.name, prompt), log)
        checked = self._checked(second, question, log, ask) if second is not None else None
        return checked or Generation(self.name, None, second.raw if second else "", prompt,
                                     explanation="; ".join(map(str, log.failures)), attempts=tuple(log.attempts))

    def _attempt(self, ask: Ask, call: Callable[[], Generation], log: _Log) -> Generation | None:
        try:
            return call()
        except (ModelUnavailable, PromptTooLong):
            raise  # asking again cannot help: the question fails (or falls back) with this reason
        except GeneratorError as exc:
            log.failures.append(exc)
            verdict = Verdict.TIMED_OUT if isinstance(exc, GeneratorTimeout) else Verdict.FAILED
            log.attempts.append(Attempt(ask, "", None, verdict, str(exc)))
            return None

    def _again(self, question: str, examples: Sequence[Retrieved], first: Generation | None,
               failure: str | GeneratorError | Rejection) -> Generation:
        """The second try: a follow-up about ``first``'s query when there is one, else the prompt again."""
        model = self.inner
        if first is None or not first.sparql or not isinstance(model, Reaskable):
            if first is not None and not isinstance(model, Reaskable):
                raise GeneratorError("the recorded generator cannot be asked again")
            return self.inner.generate(question, examples)
        said = failure.ask if isinstance(failure, Rejection) else f"That query does not parse ({failure})."
        ask = f"{said} Write the corrected SPARQL query for the same question.\n{NOTE}"
        prompt = model.follow_up(first, ask)
        return interpret(model.complete(prompt), self.name, prompt)

    def _checked(self, g: Generation, question: str, log: _Log, ask: Ask,
                 before: tuple[str, ...] = ()) -> Generation | None:
        if not g.sparql:
            why = g.reason or g.explanation or "the model wrote no query"
            log.failures.append(g.explanation or "the model wrote no query")
            log.attempts.append(Attempt(ask, g.raw, None, Verdict.NO_QUERY, why))
            return None
        vocabulary = self.vocabulary() if self.vocabulary else frozenset()
        result = check(g.sparql, question, vocabulary, self.labels() if self.labels else None)
        if not result.ok:
            log.reject(Rejection(result.errors[0], f"That query does not parse ({result.errors[0]}).",
                                 "re-asked the model with the parser's error", Verdict.SYNTAX), ask, g.raw, g.sparql)
            return None
        rejection = self._rejection(result.fixed)
        if rejection is not None:
            log.reject(rejection, ask, g.raw, result.fixed)
            return None
        log.attempts.append(Attempt(ask, g.raw, result.fixed, Verdict.TAKEN))
        return replace(g, generator=self.name, sparql=result.fixed, notes=g.notes + before + result.notes,
                       attempts=tuple(log.attempts))

    def _rejection(self, sparql: str) -> Rejection | None:
        """Why a query that parses is not taken: names the graph does not have, variables it selects that nothing in
        its WHERE clause binds (an answer of nothing bound); both told at once, as there is one re-prompt."""
        names = self.graph_names() if self.graph_names else None
        missing = "; ".join(unknown(sparql, names)) if names else ""
        unbound = selected_but_unbound(sparql)
        reasons, asks = [], []
        if missing:
            reasons.append(f"the query uses names the graph does not have: {missing}")
            asks.append(f"That query uses names the knowledge graph does not have: {missing}. Use only the graph's "
                        "own predicates and classes.")
        if unbound:
            reasons.append(unbound)
            asks.append(f"In that query {unbound}, so it answers with nothing. Bind every selected variable in a "
                        "triple pattern of the WHERE clause, or select only variables its patterns bind.")
        if not reasons:
            return None
        said = "; ".join(filter(None, (missing, unbound)))
        return Rejection("; ".join(reasons), " ".join(asks), f"re-asked the model: {said}",
                         Verdict.VOCABULARY if missing else Verdict.UNBOUND)


@dataclass
class _Log:
    """What the tries of one question found: why each failed (a reason, or the error raised), and every reply."""

    attempts: list[Attempt] = field(default_factory=list)
    failures: list[str | GeneratorError | Rejection] = field(default_factory=list)

    def reject(self, rejection: Rejection, ask: Ask, raw: str, sparql: str) -> None:
        self.failures.append(rejection)
        self.attempts.append(Attempt(ask, raw, sparql, rejection.verdict, rejection.reason))
