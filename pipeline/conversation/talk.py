"""A conversation: each question read in its thread (follow-ups made standalone), answered, and remembered."""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from pipeline.conversation.followup import read_in_thread
from pipeline.names.index import LabelIndex
from pipeline.records import Answer, Step
from pipeline.sparql.shape import read
from pipeline.state.threads.base import ThreadMemory


class Asker(Protocol):
    def ask(self, question: str, shots: int | None = None,
            progress: Callable[[Step], None] | None = None) -> Answer: ...


def names_of(answer: Answer) -> list[dict[str, str]]:
    """The names the answer's query filtered on (kind, the graph's label, as typed), in the question's order."""
    names = [{"kind": r.kind, "label": r.chosen or r.typed, "typed": r.typed} for r in answer.resolutions if r.kind]
    if not names and answer.generation and answer.generation.sparql:  # no label index: the query's own filters
        from pipeline.names.index import kind_of

        shape = read(answer.generation.sparql)
        names = [{"kind": kind, "label": f.literal, "typed": f.literal} for f in shape.filters
                 if f.op == "=" and (kind := kind_of(shape.kind_of_literal(f.literal)))]
    lower = answer.question.lower()
    at = {n["typed"]: lower.find(n["typed"].lower()) for n in names}
    return sorted(names, key=lambda n: at[n["typed"]] if at[n["typed"]] >= 0 else len(lower))


def turn_of(answer: Answer, asked: str) -> dict[str, Any]:
    """What a thread remembers of one turn: plain JSON (any ThreadMemory backend keeps it as it is)."""
    return {"asked": asked, "question": answer.question, "names": names_of(answer), "sparql": answer.sparql or "",
            "at": time.time()}


class Conversation:
    """Answers questions in threads: ``ask(thread, question)``; threads never see each other's turns."""

    def __init__(self, pipeline: Asker, memory: ThreadMemory,
                 index: Callable[[], LabelIndex | None] | None = None) -> None:
        self.pipeline = pipeline
        self.memory = memory
        self.index = index

    def ask(self, thread: str, question: str, shots: int | None = None,
            progress: Callable[[Step], None] | None = None) -> Answer:
        reading = read_in_thread(question, self.memory.turns(thread), self.index() if self.index else None)
        answer = self.pipeline.ask(reading.question, shots=shots, progress=progress)
        if reading.rewritten:
            answer = replace(answer, read_as=answer.question)
        if answer.question:
            self.memory.remember(thread, turn_of(answer, question))
        return answer
