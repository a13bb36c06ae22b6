"""Test support: a language model as the check loop talks to it (``ModelTalk``), and the loop run over writers with a
stand-in for the graph run, so a test can watch one writer's exchange or the loop's choices without a graph."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pipeline.core import Bounds, Parts, Pipeline
from pipeline.deadline import Clock, Deadline
from pipeline.loop.checks import IntentCheck, NamesCheck, ReplyCheck
from pipeline.loop.run import Loop
from pipeline.loop.verdicts import Judgement
from pipeline.loop.writers import TOLD_EMPTY, ModelTalk, Writer, told_declined
from pipeline.matching.forms import Labels
from pipeline.parts import Generator, KnowledgeGraph
from pipeline.records import Answer, Ask, Generation, Outcome, Retrieved, Rows
from pipeline.schema.shapes import Shapes


@dataclass
class Talk:
    """A model writer and the reply check around it; ``judged``: every verdict the reply check gave."""

    writer: Writer
    reply: ReplyCheck
    judged: list[Judgement] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.writer.label

    def _talk(self) -> ModelTalk:
        return ModelTalk(self.writer, self.reply, lambda writer, judged: self.judged.append(judged))

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        return self._talk().first(question, examples)

    def after_empty(self, question: str, first: Generation) -> Generation | None:
        return self._talk().told(question, first, Ask.EMPTY, TOLD_EMPTY)

    def after_declined(self, question: str, first: Generation, why: str) -> Generation | None:
        return self._talk().told(question, first, Ask.DECLINED, told_declined(why))


def repairing(part: Generator, *, retry_timeouts: bool = True, name: str = "",
              vocabulary: Callable[[], frozenset[str]] | None = None, labels: Callable[[], Labels] | None = None,
              graph_names: Callable[[], frozenset[str] | None] | None = None,
              shapes: Callable[[], Shapes | None] | None = None) -> Talk:
    """``part`` as the loop's model writer, with the values the factory passes unless told otherwise."""
    return Talk(Writer(part, name, model=True, retry_timeouts=retry_timeouts),
                ReplyCheck(vocabulary, labels, graph_names, shapes))


def llm_first(model: Talk, adapter: Generator) -> dict[str, Any]:
    """Pipeline keyword arguments: the model first, ``adapter`` behind it (the paper's order)."""
    return {"writers": [model.writer, Writer(adapter, fallback=True)], "reply": model.reply}


def adapter_first(adapter: Generator, model: Talk) -> dict[str, Any]:
    """Pipeline keyword arguments: ``adapter`` first, the model when it declines."""
    return {"writers": [Writer(adapter), model.writer], "reply": model.reply}


def pipeline(store: Any, kg: KnowledgeGraph, writers: Sequence[Writer], reply: ReplyCheck | None = None,
             **checks: Any) -> Pipeline:
    """A pipeline over ``writers`` with the front ends' sizes (``checks``: ``names=``, ``intent=``)."""
    return Pipeline(Parts(store, writers[0].generator, kg, writers=writers, reply=reply, **checks),
                    Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))


def found(base: Answer, query: str, clock: Clock, t: dict[str, float]) -> Answer:
    """A graph run that finds one row for every query."""
    return replace(base, sparql=query, outcome=Outcome.ANSWERED, rows=Rows(["x"], [{"x": {"type": "literal",
                                                                                          "value": "1"}}]))


def looped(writers: Sequence[Writer], question: str = "q", examples: Sequence[Retrieved] = (), *,
           reply: ReplyCheck | None = None, intent: IntentCheck | None = None, names: NamesCheck | None = None,
           run: Callable[[Answer, str, Clock, dict[str, float]], Answer] = found) -> Answer:
    """The loop's answer over ``writers`` for ``question``, every query found by ``run``."""
    deadline = Deadline(None, 1)
    try:
        base = Answer(question=question, kg="test", examples=list(examples))
        return Loop(writers, run, reply=reply, intent=intent, names=names).answer(
            base, question, deadline.start(), lambda step: None, {})
    finally:
        deadline.close()
