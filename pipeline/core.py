"""The pipeline: retrieve similar examples -> generate SPARQL -> read-only gate -> run on the KG -> Answer."""
from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from pipeline.errors import KgqaError
from pipeline.parts import ExampleStore, Generator, KnowledgeGraph
from pipeline.records import Answer, Retrieved
from pipeline.sparql import gate

SHOTS = (1, 3, 5)


@contextmanager
def _timed(timings: dict[str, float], stage: str) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        timings[stage] = timings.get(stage, 0.0) + (time.perf_counter() - start) * 1000


def clean_question(text: str, max_chars: int) -> str:
    """Blanks collapsed, control characters dropped, length capped."""
    text = "".join(ch for ch in text if ch.isprintable() or ch.isspace())
    return " ".join(text.split())[:max_chars]


class Pipeline:
    """Answers questions with the parts it is given; every failure ends as an explanation, never an exception."""

    def __init__(self, store: ExampleStore, generator: Generator, kg: KnowledgeGraph, *, shots: int = 3,
                 row_cap: int = 1000, max_question_chars: int = 2000) -> None:
        self.store = store
        self.generator = generator
        self.kg = kg
        self.shots = shots
        self.row_cap = row_cap
        self.max_question_chars = max_question_chars

    def lookup(self, text: str, k: int = 5) -> list[Retrieved]:
        return self.store.search(clean_question(text, self.max_question_chars), k)

    def ask(self, question: str, shots: int | None = None) -> Answer:
        shots = shots or self.shots
        answer = Answer(question=clean_question(question, self.max_question_chars), kg=self.kg.name)
        if not answer.question:
            answer.error = "the question is empty"
            answer.explanation = "Ask a question in words, e.g. 'Which model has achieved the highest Accuracy " \
                                 "score on the Story Cloze Test benchmark dataset?'"
            return answer
        t = answer.timings_ms
        try:
            with _timed(t, "retrieve"):
                answer.examples = self.store.search(answer.question, shots)
            with _timed(t, "generate"):
                answer.generation = self.generator.generate(answer.question, answer.examples)
        except KgqaError as exc:
            answer.error = str(exc)
            answer.explanation = f"I could not write a query: {exc}."
            return answer
        if not answer.generation.sparql:
            answer.error = "no query"
            answer.explanation = answer.generation.explanation or "No query could be written for this question."
            return answer
        self._run(answer, answer.generation.sparql)
        return answer

    def run_sparql(self, query: str) -> Answer:
        """Run a query typed by a user, through the same read-only gate."""
        answer = Answer(question="", kg=self.kg.name)
        self._run(answer, query)
        return answer

    def _run(self, answer: Answer, query: str) -> None:
        t = answer.timings_ms
        with _timed(t, "validate"):
            check = gate(query, self.row_cap)
        answer.sparql = check.fixed or query
        if not check.ok:
            answer.error = "; ".join(check.errors)
            answer.explanation = f"The query was not run: {answer.error}."
            return
        try:
            with _timed(t, "kg"):
                answer.rows = self.kg.select(check.fixed)
        except KgqaError as exc:
            answer.error = str(exc)
            answer.explanation = f"The knowledge graph gave no answer: {exc}."
            if check.warnings:
                answer.explanation += f" Before it ran, the query already looked malformed ({check.warnings[0]})."
            return
        if answer.rows.boolean is None and not answer.rows.rows:
            answer.explanation = "The query ran but nothing in the graph matches it."
