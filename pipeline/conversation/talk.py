"""A conversation: each question read in its thread (follow-ups made standalone), answered, and remembered."""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Protocol

from pipeline.conversation.followup import read_in_thread
from pipeline.matching.wording import within_edits
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
    """What a thread remembers of one turn: plain JSON (any ThreadMemory backend keeps it as it is), with the choices
    it asked back, so that a reply naming one is that choice's question on any replica and after a restart."""
    return {"asked": asked, "question": answer.question, "names": names_of(answer), "sparql": answer.sparql or "",
            "choices": [c.to_json() for c in answer.choices], "at": time.time()}


def picked(reply: str, turns: Sequence[dict[str, Any]]) -> str | None:
    """The question of the choice a reply picks when the thread's last turn asked back: its number ('2') or its
    label as typed (case, blanks and one slip forgiven: 'f1', 'exact mach'); None for any other reply."""
    choices = turns[-1].get("choices") if turns else None
    if not choices:
        return None
    said = " ".join(reply.strip().strip("?.!").lower().split())
    if said.isdigit() and 1 <= int(said) <= len(choices):
        return str(choices[int(said) - 1]["question"])
    hits = [c for c in choices if " ".join(str(c["label"]).lower().split()) == said]
    hits = hits or [c for c in choices if within_edits(" ".join(str(c["label"]).lower().split()), said)]
    return str(hits[0]["question"]) if len(hits) == 1 else None


class Conversation:
    """Answers questions in threads: ``ask(thread, question)``; threads never see each other's turns."""

    def __init__(self, pipeline: Asker, memory: ThreadMemory,
                 index: Callable[[], LabelIndex | None] | None = None) -> None:
        self.pipeline = pipeline
        self.memory = memory
        self.index = index

    def ask(self, thread: str, question: str, shots: int | None = None,
            progress: Callable[[Step], None] | None = None) -> Answer:
        turns = self.memory.turns(thread)
        choice = picked(question, turns)
        if choice is not None:  # the reply to a question asked back
            answer = replace(self.pipeline.ask(choice, shots=shots, progress=progress), read_as=choice)
            self.memory.remember(thread, turn_of(answer, question))
            return answer
        reading = read_in_thread(question, turns, self.index() if self.index else None)
        answer = self.pipeline.ask(reading.question, shots=shots, progress=progress)
        if reading.rewritten:
            answer = replace(answer, read_as=answer.question)
        if answer.question:
            self.memory.remember(thread, turn_of(answer, question))
        return answer
