"""The rules as a writer: a question about the graph's comparisons that the rules read whole is compiled and
answered from its ``Reading`` — where a language model writes, before it is asked (no tokens spent on what the rules
can read); where the offline adapter writes, in the intent step after it. Any other question is handed on."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pipeline.intent.choose import chosen
from pipeline.intent.comparison_reader import read_comparison
from pipeline.intent.comparisons import ComparisonFacts
from pipeline.intent.compile import compile_reading, sentence
from pipeline.intent.record import Reading
from pipeline.parts import KnowledgeGraph, Structured
from pipeline.records import Generation, Retrieved

NAME = "intent"  # what the answer says wrote it: the intent step's, as a composed query is


def comparison_reading(text: str, facts: ComparisonFacts, kg: KnowledgeGraph) -> Reading | None:
    """The rules' reading of ``text`` over the graph's comparisons (None: not about them, or the graph cannot say)."""
    known = facts.get(kg)
    return read_comparison(text, known, kg) if known is not None else None


def compiled(reading: Reading, before: Generation | None = None) -> Generation:
    """A whole reading's query, said in a note and in the record (``before``: the generation it takes over from,
    whose prompt and model replies stay on record)."""
    sparql = compile_reading(reading)
    reading = replace(reading, said=sentence(reading))
    return Generation(NAME, sparql, raw=sparql, prompt=before.prompt if before else "",
                      notes=("read as a question about the graph's comparisons" + (
                          " (the model chose this reading of the words the rules could not place)"
                          if reading.writer == "model" else "") + f"; {reading.said}",),
                      attempts=before.attempts if before else (), reading_record=reading)


class ComparisonWriter:
    """The first writer where a language model writes: the rules' whole reading; read in part, the reading the
    ``model`` (one that holds its replies to a JSON schema) picks among those it may mean (``pipeline.intent.choose``);
    else the question handed on."""

    name = NAME

    def __init__(self, kg: KnowledgeGraph, facts: ComparisonFacts, model: Structured | None = None) -> None:
        self.kg, self.facts, self.model = kg, facts, model

    def ping(self, timeout: float = 2.0) -> bool:
        return True

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        reading = comparison_reading(question, self.facts, self.kg)
        if reading is not None and not reading.whole and self.model is not None:
            known = self.facts.get(self.kg)
            picked, prompt, reply = chosen(self.model, reading, known) if known is not None else (None, "", "")
            if picked is not None:
                return compiled(picked, Generation(NAME, None, raw=reply, prompt=prompt))
        if reading is None or not reading.whole:
            return Generation(NAME, None, reason="the rules read it in part or not at all",
                              explanation="I could not read this question whole.", reading_record=reading)
        return compiled(reading)
