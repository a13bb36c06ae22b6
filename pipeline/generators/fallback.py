"""Degradation, never silence: when the language model fails or writes no query, the offline adapter answers instead
and the answer says so."""
from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace

from pipeline.errors import GeneratorError
from pipeline.parts import AsksAgain, Generator, GeneratorWrapper, Reconsiders
from pipeline.records import Generation, Retrieved
from pipeline.sparql.text import canonical

log = logging.getLogger("kgqa.generate")
BY_ADAPTER = "this answer was written by the offline adapter"
MAX_REASON = 200
# Why the pipeline would not answer with a generation ("" = it would): the intent and names steps, run ahead.
Acceptance = Callable[[str, Generation, Sequence[Retrieved]], str]


class FallbackGenerator(GeneratorWrapper):
    """Asks ``primary`` (an LLM); on a GeneratorError (down, 5xx, timeout, garbage on the wire) or a reply with no
    query in it, asks ``fallback`` (the adapter) and puts the reason in the generation's notes. With ``accept``, also
    when the pipeline would not run the model's query (the intent step declines it, the names step holds it) and
    would run the adapter's; else the model's stands, and the pipeline declines it with its reason and offer. When
    the model's query runs and finds nothing, the adapter's turn comes before the model is asked again.

    When neither writes a query, the model's own explanation stays, with the adapter's reason after it."""

    def __init__(self, primary: Generator, fallback: Generator, accept: Acceptance | None = None) -> None:
        super().__init__(primary)
        self.fallback = fallback
        self.judge = accept

    @property
    def primary(self) -> Generator:
        """The LLM, asked first: the part wrapped (its ping, slots and server are this one's)."""
        return self.inner

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        try:
            first = self.primary.generate(question, examples)
        except GeneratorError as exc:
            log.warning("%s failed (%s); the %s answers instead", self.primary.name, exc, self.fallback.name)
            return self._instead(question, examples, f"the language model failed ({clip(str(exc))})", None)
        if first.sparql:
            return first if self.judge is None else self._judged(question, examples, first, self.judge)
        why = f"the language model wrote no usable query ({clip(first.reason or first.explanation or 'no text')})"
        return self._instead(question, examples, why, first)

    def after_empty(self, question: str, examples: Sequence[Retrieved], first: Generation) -> Generation | None:
        """After the LLM's own query found nothing (never after the adapter's): the adapter's query when it writes
        another that the pipeline would run — the model's empty answer is no answer, the fallback's turn — else the
        LLM asked again."""
        if first.generator != self.primary.name:
            return None
        second = self.fallback.generate(question, examples)
        # judged, even with no query: the intent step may compose one for the question
        runs = not self.judge(question, second, examples) if self.judge else bool(second.sparql)
        if runs and canonical(second.sparql or "") != canonical(first.sparql or ""):
            return replace(second, notes=(f"the language model's query found nothing; {BY_ADAPTER}",) + second.notes,
                           attempts=first.attempts)
        return self.asked_again(question, examples, first)

    def asked_again(self, question: str, examples: Sequence[Retrieved], first: Generation) -> Generation | None:
        """The LLM asked again after its own query found nothing; None when it cannot be."""
        model = self.primary
        return model.after_empty(question, examples, first) \
            if isinstance(model, AsksAgain) and first.generator == model.name else None

    def after_declined(self, question: str, examples: Sequence[Retrieved], first: Generation,
                       why: str) -> Generation | None:
        """The LLM asked again after the intent guard declined its query (the adapter's, when judged, had its turn
        then); None for the adapter's query, or a model that cannot be asked."""
        model = self.primary
        return model.after_declined(question, examples, first, why) \
            if isinstance(model, Reconsiders) and first.generator == model.name else None

    def _judged(self, question: str, examples: Sequence[Retrieved], first: Generation, accept: Acceptance
                ) -> Generation:
        """The model's query, unless the pipeline would not run it and would run the adapter's."""
        declined = accept(question, first, examples)
        if not declined:
            return first
        second = self.fallback.generate(question, examples)
        if not second.sparql or accept(question, second, examples):
            return first
        why = f"the language model's query was not run ({clip(declined)})"
        return replace(second, notes=(f"{why}; {BY_ADAPTER}",) + second.notes, attempts=first.attempts)

    def _instead(self, question: str, examples: Sequence[Retrieved], why: str,
                 first: Generation | None) -> Generation:
        second = self.fallback.generate(question, examples)
        if second.sparql:
            return replace(second, notes=(f"{why}; {BY_ADAPTER}",) + second.notes,
                           attempts=first.attempts if first is not None else ())  # the model's replies stay
        if first is not None:  # the model's words say more than the adapter's
            return replace(first, explanation=f"{first.explanation} The offline adapter could not write one "
                                              f"either: {second.explanation}".strip())
        return replace(second, explanation=f"{why[0].upper()}{why[1:]}, and the offline adapter could not write a "
                                           f"query either: {second.explanation}")


def clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_REASON else text[:MAX_REASON - 1] + "…"
