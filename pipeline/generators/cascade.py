"""Adapter first, the language model when it declines: the offline adapter writes the query; when it writes none, or
the pipeline would not run the one it wrote (the intent step declines it, the names step holds it), the language
model writes one, judged like any of its queries. The answer's notes say which wrote it."""
from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

from pipeline.errors import GeneratorError
from pipeline.generators.fallback import Acceptance, FallbackGenerator, clip
from pipeline.parts import Generator
from pipeline.records import Generation, Retrieved

log = logging.getLogger("kgqa.generate")
BY_ADAPTER_FIRST = "the offline adapter wrote this query (adapter first)"
BY_MODEL = "the language model wrote this query"


def wrote_a_query(question: str, generation: Generation, examples: Sequence[Retrieved]) -> str:
    """The plainest acceptance: a query was written."""
    return "" if generation.sparql else (generation.reason or generation.explanation or "it wrote no query")


class AdapterFirstGenerator(FallbackGenerator):
    """Asks ``adapter``; when ``accept`` finds a reason not to answer with its generation, asks ``llm`` (the repair
    step around a model). A failing or silent model leaves the adapter's generation standing, with the reason. The
    rest (the empty retry, the server's reachability and slots) is the model's, as behind ``FallbackGenerator``."""

    def __init__(self, adapter: Generator, llm: Generator, accept: Acceptance = wrote_a_query) -> None:
        super().__init__(llm, adapter)
        self.accept = accept

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        first = self.fallback.generate(question, examples)
        declined = self.accept(question, first, examples)
        if not declined:
            return replace(first, notes=first.notes + (BY_ADAPTER_FIRST,)) if first.sparql else first
        why = f"the offline adapter declined ({clip(declined)})"
        try:
            second = self.primary.generate(question, examples)
        except GeneratorError as exc:
            log.warning("%s failed (%s); the adapter's decline stands", self.primary.name, exc)
            return _stands(first, why, f"could not be asked ({clip(str(exc))})")
        if second.sparql:
            return replace(second, notes=(f"{why}; {BY_MODEL}",) + second.notes)
        said = f"wrote no usable query ({clip(second.reason or second.explanation or 'no text')})"
        return replace(_stands(first, why, said), attempts=second.attempts)

    def after_empty(self, question: str, examples: Sequence[Retrieved], first: Generation) -> Generation | None:
        """The model asked again after its own query found nothing (the adapter has declined this question)."""
        return self.asked_again(question, examples, first)


def _stands(first: Generation, why: str, model: str) -> Generation:
    """The adapter's generation, what became of the model told: in the notes, and after the explanation of why there
    is no query (the intent and names steps give their own)."""
    explanation = first.explanation if first.sparql else \
        f"{first.explanation} The language model was asked too, and {model}.".strip()
    return replace(first, notes=first.notes + (f"{why}; the language model {model}",), explanation=explanation)
