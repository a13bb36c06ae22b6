"""The step between generation and the KG: every label literal a query filters on, checked against the graph's
labels and replaced by the graph's own spelling when that is clear; when it is not, the query is held back."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pipeline.names.index import KINDS, LabelIndex, kind_of
from pipeline.parts import NamesChecked
from pipeline.records import Match, Resolution
from pipeline.sparql.shape import read, replace_literals


@dataclass(frozen=True)
class Checked:
    """A query with its names resolved: ``sparql`` is what should run; ``held`` when a name needs the user."""

    sparql: str
    resolutions: tuple[Resolution, ...] = ()

    @property
    def held(self) -> tuple[Resolution, ...]:
        return tuple(r for r in self.resolutions if not r.match.settled)


def check_names(sparql: str, index: LabelIndex) -> Checked:
    """Resolve every ``=`` label filter of a known kind (Dataset, Model, ...) whose kind the graph has labels of."""
    shape = read(sparql)
    found: dict[str, Resolution] = {}
    for f in shape.filters:
        kind = kind_of(shape.kind_of_literal(f.literal))
        if f.op != "=" or kind not in KINDS or f.literal in found or not index.knows(kind):
            continue
        found[f.literal] = index.find(f.literal, kind)
    changes = {typed: r.chosen for typed, r in found.items() if r.changed and r.chosen is not None}
    return Checked(replace_literals(sparql, changes) if changes else sparql, tuple(found.values()))


def substitutions(resolutions: tuple[Resolution, ...] | list[Resolution]) -> str:
    """"read 'squad 1.1' as 'SQuAD1.1'" for each changed name, joined; "" when none changed."""
    changed = [f"'{r.typed}' as '{r.chosen}'" for r in resolutions if r.changed and r.match.settled]
    return "I read " + ", ".join(changed) + "." if changed else ""


def held_message(resolutions: tuple[Resolution, ...] | list[Resolution]) -> str:
    """Why the query did not run: each name the graph does not know, or knows several ways, with candidates."""
    parts = []
    for r in resolutions:
        listed = ", ".join(f"'{c}'" for c in r.candidates)
        if r.match is Match.AMBIGUOUS:
            parts.append(f"'{r.typed}' could be several {r.kind} names in the graph: {listed}. Which one did you mean?")
        elif r.match is Match.UNKNOWN:
            closest = f" The closest are: {listed}." if listed else ""
            parts.append(f"The graph has no {r.kind} called '{r.typed}'.{closest}")
    return " ".join(parts)


def label_index(pipeline: object) -> Callable[[], LabelIndex | None] | None:
    """The label index a pipeline's names step reads; None for a pipeline without a ``NameCheck``."""
    names = pipeline.names if isinstance(pipeline, NamesChecked) else None
    return names.index if isinstance(names, NameCheck) else None


class NameCheck:
    """Checks queries against a lazily built label index (``index`` returns None when labels cannot be had now)."""

    def __init__(self, index: Callable[[], LabelIndex | None]) -> None:
        self.index = index

    def __call__(self, sparql: str) -> Checked:
        index = self.index()
        return check_names(sparql, index) if index is not None else Checked(sparql)
