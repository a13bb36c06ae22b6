"""What a written query holds beside the question: the names it took, copied or ranked by, as the intent step reads
them before judging it."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from pipeline.intent.guard import opaque_terms, unused_names
from pipeline.intent.meaning import rankings
from pipeline.intent.named import Name as GraphName
from pipeline.intent.reading import Intent
from pipeline.names.index import LabelIndex, squeeze
from pipeline.records import Kind, Match, Retrieved
from pipeline.sparql.shape import replace_literals
from pipeline.sparql.text import canonical, string_literals


def as_ranked(intent: Intent, sparql: str) -> Intent:
    """The question's intent, with a "best" the query ranks by read the way it ranks: from the highest (DESC) or from
    the lowest (ASC). SciQA's leaderboard query writes "the best performing model" as the highest value."""
    if intent.operators or intent.highest:
        return intent
    picked = [d for d, limited in rankings(sparql) if limited]
    if picked == ["DESC"]:
        return replace(intent, highest=True)
    return replace(intent, operators=intent.operators | {"lowest"}) if picked == ["ASC"] else intent


def copied_terms(sparql: str, names: Sequence[str], generic: frozenset[str],
                  examples: Sequence[Retrieved]) -> frozenset[str]:
    """The opaque IRIs of a stored query that stand for the stored question's things, not this one's: a stored query
    adapted with other names, or copied as it is for a question naming what its own does not. Such a query is judged
    as strictly as one of the vocabulary the guard reads (it does what the stored question asked)."""
    unused = [squeeze(n) for n in unused_names(names, sparql, generic)]
    mine, ours = canonical(sparql), string_literals(sparql)
    for r in examples:
        theirs = string_literals(r.example.sparql)
        adapted = len(theirs) == len(ours) and theirs != ours and \
            canonical(replace_literals(r.example.sparql, dict(zip(theirs, ours)))) == mine
        copied = unused and canonical(r.example.sparql) == mine and \
            not all(n in squeeze(r.example.question) for n in unused)
        if adapted or copied:
            return frozenset(opaque_terms(sparql))
    return frozenset()


def a_fragment(names: Sequence[GraphName], taken: Iterable[str]) -> bool:
    """Whether a name composed with is only part of a longer name a fitting query took from the question."""
    longer = [lit.lower() for lit in taken]
    return any(n.label.lower() in lit and n.label.lower() != lit for n in names for lit in longer)


def read_by_names_step(literal: str, kind: str, index: LabelIndex | None) -> bool:
    """Whether the names step will read this name of a fitting query (as a label of the graph, or by asking which
    one): then the query stands rather than be replaced by one composed for another ask."""
    return index is not None and index.find(literal, kind).match is not Match.UNKNOWN


def masked(text: str, names: Sequence[tuple[int, int, str]]) -> str:
    """The question with its names of several words blanked out, so words inside a name ('Number of params') are
    not read as operators; a one-word name stays (a label 'Count' does not hide "Count the models")."""
    for a, b, _ in sorted(names, reverse=True):
        if len(text[a:b].split()) > 1:
            text = text[:a] + "X" + text[b:]
    return text


def a_metric(label: str, index: LabelIndex) -> bool:
    """Whether a query's literal is one of the graph's metrics, as written or up to case and blanks ('rmse')."""
    found = index.spelled(label, Kind.METRIC)
    return found is not None and found.chosen is not None
