"""Gold answers of a set whose questions carry a ``gold_sparql``: the query run on the graph the evaluation asks,
the flat answer being its values without IRIs (labels, scores, links, counts, true/false), and the same with the
IRIs beside them also accepted (a reply naming each thing by its IRI and label is the same answer)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol, runtime_checkable

from pipeline.errors import ConfigError, KgqaError
from pipeline.eval.questions import EvalQuestion
from pipeline.parts import KnowledgeGraph
from pipeline.records import Rows
from pipeline.sparql.gate import gate


@runtime_checkable
class HasGraph(Protocol):
    """A pipeline that says which graph it asks (``pipeline.core.Pipeline``)."""

    kg: KnowledgeGraph


def gold_forms(rows: Rows) -> tuple[list[str], list[str]]:
    """(the flat answer without IRI values, the flat answer with them) of a gold query's result."""
    if rows.boolean is not None:
        return rows.flat(), rows.flat()
    plain = [row[v]["value"] for row in rows.rows for v in rows.vars if v in row and row[v].get("type") != "uri"]
    return plain, rows.flat()


def run_gold(question: EvalQuestion, kg: KnowledgeGraph) -> EvalQuestion:
    """``question`` with its gold read from running its gold query on ``kg``."""
    check = gate(question.gold_sparql, None)
    if not check.ok:
        raise ConfigError(f"the gold query of {question.id} does not pass the gate: {'; '.join(check.errors)}")
    try:
        plain, full = gold_forms(kg.select(check.fixed))
    except KgqaError as exc:
        raise ConfigError(f"the gold query of {question.id} failed on {kg.name}: {exc}") from exc
    return replace(question, gold=plain, accepted=(tuple(full),) if set(full) != set(plain) else ())


def with_gold(questions: Sequence[EvalQuestion], kg: KnowledgeGraph) -> list[EvalQuestion]:
    """Every question whose gold is a query, answered on ``kg``; the others as they are."""
    return [run_gold(q, kg) if q.gold_sparql else q for q in questions]
