"""The intent guard: does a query do what the question asks? Every name the question gives is used by the query,
and every operator the question calls for (how many, k-th, lowest, both, yes/no) is one the query has."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.intent.reading import Intent, ordinal
from pipeline.sparql.shape import Shape, read, stem
from pipeline.sparql.text import string_literals


@dataclass(frozen=True)
class Verdict:
    """``ok`` when the query fits the question; else what it lacks, in words (names first, then operators)."""

    missing: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.missing


def squeeze(text: str) -> str:
    """Lowercase letters and digits only: how names are compared ('StoryLM-large' ~ 'storylm large')."""
    return re.sub(r"[\W_]+", "", text.lower())


def core(name: str, generic: frozenset[str]) -> str:
    """A name without the form words at its edges ('F1 score' -> 'F1'), unless it is nothing else."""
    words = name.split()
    while len(words) > 1 and squeeze(words[-1]) in generic:
        words = words[:-1]
    while len(words) > 1 and squeeze(words[0]) in generic:
        words = words[1:]
    return " ".join(words)


def unused_names(names: Sequence[str], sparql: str, generic: frozenset[str] = frozenset()) -> list[str]:
    """The names the query's string literals do not contain (nor are contained in)."""
    literals = [squeeze(lit) for lit in string_literals(sparql)]
    out = []
    for name in names:
        key = squeeze(core(name, generic))
        # a literal inside the name counts when it is most of it ('Story Cloze Test' in 'Story Cloze Test benchmark')
        if len(key) >= 2 and not any(key in lit or (2 * len(lit) >= len(key) and lit in key) for lit in literals):
            out.append(name)
    return out


def missing_operators(intent: Intent, shape: Shape) -> list[str]:
    """The asked-for operators the query's shape lacks, and the ones it has that nobody asked for."""
    out: list[str] = []
    ops = intent.operators
    if "count" in ops and not any(func == "COUNT" for func, _, _ in shape.aggregates):
        out.append("a count (how many)")
    if "kth" in ops and intent.rank - 1 not in shape.offsets:
        out.append(f"the {ordinal(intent.rank)} place in a ranking")
    if "kth" not in ops and any(shape.offsets):
        out.append("a ranking that skips the first places, which the question does not ask for")
    if "lowest" in ops and not any(d == "ASC" for d, _ in shape.order) and \
            not any(func == "MIN" for func, _, _ in shape.aggregates):
        out.append("the lowest value")
    if "both" in ops and len({f.literal for f in shape.filters}) < 2:
        out.append("things on both of two")
    if "yesno" in ops and shape.form != "ASK" and "count" not in ops:
        out.append("a yes/no answer")
    if "yesno" not in ops and shape.form == "ASK":
        out.append("a question asked as yes/no, which this one is not")
    return out


def answered_kinds(shape: Shape) -> frozenset[str]:
    """The kinds of thing a SELECT answers, read from its projected variables' names and classes."""
    classes = shape.classes()
    names = [stem(v).lower() + " " + classes.get(v, "").lower() for v in shape.projection]
    stems = {"paper": ("paper",), "model": ("model",), "dataset": ("dataset",), "metric": ("metric",),
             "problem": ("problem",), "field": ("field", "rf"), "code": ("code",)}
    return frozenset(kind for kind, keys in stems.items() for n in names if any(k in n.split()[0] for k in keys))


def other_answer(asked: frozenset[str], mentioned: frozenset[str], shape: Shape) -> list[str]:
    """When the question asks for papers, models, ... and the query answers no kind of thing the question mentions
    (or none it can name): what it lacks, an answer of the kind asked."""
    if not asked or shape.form != "SELECT" or any(f == "COUNT" for f, _, _ in shape.aggregates):
        return []
    answered = answered_kinds(shape)
    if answered & (mentioned | asked):
        return []
    return [" or ".join(f"{kind}s" for kind in sorted(asked)) + " as its answer"]


def check(intent: Intent, names: Sequence[str], sparql: str, asked: frozenset[str] = frozenset(),
          generic: frozenset[str] = frozenset(), mentioned: frozenset[str] = frozenset()) -> Verdict:
    """Whether ``sparql`` does what a question with ``intent``, these ``names``, asking for ``asked`` and mentioning
    ``mentioned`` kinds of thing asks; ``generic``: the stored forms' own words (kept off the edges of names)."""
    shape = read(sparql)
    unused = [f"the name '{n}'" for n in unused_names(names, sparql, generic)]
    return Verdict(tuple(unused + missing_operators(intent, shape) + other_answer(asked, mentioned, shape)))


KINDS = frozenset({"dataset", "model", "metric", "problem", "researchfield", "paper"})


def slot_kinds(sparql: str) -> dict[str, str]:
    """Label literal -> the kind of thing the query takes it for (only the kinds the graph check knows)."""
    shape = read(sparql)
    out = {f.literal: shape.kind_of_literal(f.literal) for f in shape.filters if f.op == "="}
    return {lit: kind for lit, kind in out.items() if kind in KINDS}


def wrong_kinds(taken: dict[str, str], graph: dict[str, tuple[str, set[str]]]) -> list[str]:
    """Names the query takes for one kind of thing while the graph has them only as others."""
    return [f"'{lit}' as the {sorted(graph[lit][1])[0]} it is (the query takes it for a {kind})"
            for lit, kind in taken.items() if lit in graph and kind not in graph[lit][1]]
