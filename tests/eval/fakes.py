"""A fake pipeline for the evaluation tests: canned Answers derived from the questions."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from pipeline.errors import GeneratorError, KnowledgeGraphError, NotInSnapshot
from pipeline.eval.questions import EvalQuestion
from pipeline.records import Answer, Example, Generation, Outcome, Retrieved, Rows


def rows_of(values: list[str]) -> Rows:
    """A one-column result holding ``values``."""
    return Rows(["x"], [{"x": {"type": "literal", "value": v}} for v in values], source="fake")


def example(qid: str, template: str, question: str = "") -> Retrieved:
    return Retrieved(Example(qid, question or f"question {qid}", "SELECT ?x WHERE { ?x ?p ?o }", template), 0.9)


class FakePipeline:
    """Answers as a script says per question: ``gold``, ``empty``, ``snapshot``, ``syntax``, ``wrong`` or ``raise``."""

    def __init__(self, questions: list[EvalQuestion], script: Callable[[int, EvalQuestion], str],
                 examples: Callable[[EvalQuestion], list[Retrieved]] | None = None,
                 lookup_result: Callable[[str], list[Retrieved]] | None = None) -> None:
        self.by_text = {q.question: (n, q) for n, q in enumerate(questions)}
        self.script = script
        self.examples = examples or (lambda q: [example("T-" + q.id, q.template_id), example("X", "T99")])
        self.lookup_result = lookup_result
        self.asked: list[tuple[str, int | None]] = []

    def ask(self, question: str, shots: int | None = None) -> Answer:
        self.asked.append((question, shots))
        n, q = self.by_text[question]
        action = self.script(n, q)
        if action == "raise":
            raise GeneratorError("TGI is down")
        sparql = f'SELECT ?x WHERE {{ ?x ?p "{q.id}" }}'
        answer = Answer(question, examples=self.examples(q), kg="fake-kg", sparql=sparql,
                        generation=Generation("fake-gen", sparql, notes=("n1",)),
                        timings_ms={"retrieve": 1.0 + n, "generate": 10.0 + n, "kg": 2.0})
        if action in ("gold", "wrong"):
            return replace(answer, rows=rows_of(q.gold if action == "gold" else ["nope"]), outcome=Outcome.ANSWERED)
        if action == "empty":
            return replace(answer, rows=rows_of([]), outcome=Outcome.EMPTY)
        if action == "snapshot":
            failure: Exception = NotInSnapshot("not in snapshot: the query matches no recorded SciQA query")
            return replace(answer, failure=failure, outcome=Outcome.FAILED, error=str(failure))
        if action == "syntax":
            failure = KnowledgeGraphError("syntax error: Expected SelectQuery")
            return replace(answer, sparql="SELECT ?x WHERE { ?x", failure=failure, outcome=Outcome.FAILED,
                           error=str(failure), explanation="The query was not run.")
        return answer

    def lookup(self, text: str, k: int = 5) -> list[Retrieved]:
        return self.lookup_result(text) if self.lookup_result else []
