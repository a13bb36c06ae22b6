"""The step between generation and the KG: every label literal a query filters on, checked against the graph's
labels and replaced by the graph's own spelling when that is clear — the one the question writes, when the graph
has it — and when it is not, the query is held back."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from pipeline.names.index import KINDS, LabelIndex, kind_of
from pipeline.parts import NamesChecked
from pipeline.records import Match, Resolution
from pipeline.sparql.shape import read, replace_literals


@dataclass(frozen=True)
class Checked:
    """A query with its names resolved: ``sparql`` is what should run; ``held`` when a name needs the user;
    ``notes`` say what was respelled as the question writes it."""

    sparql: str
    resolutions: tuple[Resolution, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def held(self) -> tuple[Resolution, ...]:
        return tuple(r for r in self.resolutions if not r.match.settled)


def check_names(sparql: str, index: LabelIndex, question: str = "") -> Checked:
    """Resolve every ``=`` label filter of a known kind (Dataset, Model, ...) whose kind the graph has labels of; a
    name the question writes otherwise, as a label of the graph, takes the question's spelling first."""
    shape = read(sparql)
    found: dict[str, Resolution] = {}
    notes: list[str] = []
    for f in shape.filters:
        kind = kind_of(shape.kind_of_literal(f.literal))
        if f.op != "=" or kind not in KINDS or f.literal in found or not index.knows(kind):
            continue
        written = as_the_question_writes(f.literal, kind, question, index)
        if written is None:
            found[f.literal] = index.find(f.literal, kind)
            continue
        found[f.literal] = Resolution(f.literal, kind, Match.NORMALISED, written, 100.0, (written,))
        notes.append(f"wrote '{written}' for '{f.literal}', as the question writes this {kind} of the graph")
    changes = {typed: r.chosen for typed, r in found.items() if r.changed and r.chosen is not None}
    return Checked(replace_literals(sparql, changes) if changes else sparql, tuple(found.values()), tuple(notes))


def as_the_question_writes(literal: str, kind: str, question: str, index: LabelIndex) -> str | None:
    """The graph's label of ``kind`` that the question writes where the query spells it otherwise, equal up to
    punctuation, blanks and case (the question's 'NCBI Disease' for the query's 'NCBI-disease': the graph has both
    datasets); None when the question writes the literal itself (never respelled), no such label, or several."""
    if not question or _written(literal, question, case=True):
        return None
    alike = [label for label in index.spelled_alike(literal, kind) if label != literal]
    exact = [label for label in alike if _written(label, question, case=True)]
    loose = [label for label in alike if _written(label, question, case=False)]
    if len(exact) == 1:
        return exact[0]
    if not exact and len(loose) == 1 and not _written(literal, question, case=False):
        return loose[0]
    return None


def _written(label: str, question: str, case: bool) -> bool:
    """Whether the question holds ``label`` as it is (with its case, when ``case``), not inside a longer word."""
    found = re.search(rf"(?<![^\W_]){re.escape(label)}(?![^\W_])", question, 0 if case else re.IGNORECASE)
    return found is not None


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

    def __call__(self, sparql: str, question: str = "") -> Checked:
        index = self.index()
        return check_names(sparql, index, question) if index is not None else Checked(sparql)
