"""The step between generation and the KG: every label literal a query filters on, checked against the graph's
labels and replaced by the graph's own spelling when that is clear — the one the question writes, when the graph
has it — and when it is not, the query is held back."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pipeline.names.index import KINDS, LabelIndex, kind_of
from pipeline.names.written import as_the_question_writes as written_as
from pipeline.parts import NamesChecked
from pipeline.records import Match, Resolution
from pipeline.sparql.literal import quoted
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
    found: dict[str, Resolution] = {}
    notes: list[str] = []
    for literal, (kind, written) in _label_filters(sparql, index, question).items():
        if written is None:
            found[literal] = index.find(literal, kind)
            continue
        found[literal] = Resolution(literal, kind, Match.NORMALISED, written, 100.0, (written,))
        notes.append(_note(literal, written, kind))
    changes = {typed: r.chosen for typed, r in found.items() if r.changed and r.chosen is not None}
    return Checked(replace_literals(sparql, changes) if changes else sparql, tuple(found.values()), tuple(notes))


def respelled(sparql: str, index: LabelIndex, question: str) -> tuple[str, tuple[str, ...]]:
    """``sparql`` with each name of a known kind that the question writes otherwise, as a label of the graph, in the
    question's spelling (``pipeline.names.written``), and what was changed, in words."""
    found = {literal: (kind, written) for literal, (kind, written) in _label_filters(sparql, index, question).items()
             if written is not None}
    changes = {literal: written for literal, (_, written) in found.items()}
    notes = tuple(_note(literal, written, kind) for literal, (kind, written) in found.items())
    return (replace_literals(sparql, changes) if changes else sparql), notes


def _label_filters(sparql: str, index: LabelIndex, question: str) -> dict[str, tuple[str, str | None]]:
    """Each ``=`` label literal of a kind the graph has labels of -> its kind and the question's spelling (or None)."""
    shape = read(sparql)
    literals = frozenset(f.literal for f in shape.filters)
    out: dict[str, tuple[str, str | None]] = {}
    for f in shape.filters:
        kind = kind_of(shape.kind_of_literal(f.literal))
        if f.op != "=" or kind not in KINDS or f.literal in out or not index.knows(kind):
            continue
        written = written_as(f.literal, kind, question, index, literals - {f.literal})
        # the literal as the query writes it, escapes and all: a name with quotes is the same name, not a respelling
        out[f.literal] = (kind, None if written is not None and quoted(written)[1:-1] == f.literal else written)
    return out


def _note(literal: str, written: str, kind: str) -> str:
    return f"wrote '{written}' for '{literal}', as the question writes this {kind} of the graph"


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
