"""The leaderboard behind a ranking question: one read-only companion query fetching every score on the dataset the
question names (model, metric, value as stored and as a number, paper), sorted by number.

Which questions are rankings is read from the query's shape (a dataset named by its label, and scores or models
reached from it), never from a template id. The scored answer stays the pipeline's own query's rows."""
from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.glance.numbers import parse_number
from pipeline.glance.terms import short_name
from pipeline.records import Entry, Kind, Leaderboard, Rows
from pipeline.sparql.literal import quoted
from pipeline.sparql.shape import LabelFilter, Shape, read
from pipeline.sparql.tied import untied

CHART_TOP = 15  # bars in a chart; the whole list goes to the attached CSV
ROW_CAP_LIMIT = 100  # as in explain: larger LIMITs are row caps, not "the best one"

_COMPANION = """SELECT DISTINCT ?model ?model_lbl ?metric_lbl ?value ?paper ?paper_lbl WHERE {{
  ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl.
  FILTER ({dataset})
  ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval.
  ?eval orkgp:HAS_VALUE ?value.
  ?cont orkgp:HAS_BENCHMARK ?benchmark.
  {metric}
  OPTIONAL {{ ?cont orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. }}
  OPTIONAL {{ ?paper orkgp:P31 ?cont; rdfs:label ?paper_lbl. }}
}} ORDER BY {order}(?value)"""
# the contribution is joined before the OPTIONALs: pyoxigraph evaluates in written order, and the other way round
# it takes seconds on a graph of 20k triples where this order takes milliseconds (scripts/bench_glance.py)
_ANY_METRIC = "OPTIONAL { ?eval orkgp:HAS_METRIC ?metric. ?metric rdfs:label ?metric_lbl. }"
_ONE_METRIC = "?eval orkgp:HAS_METRIC ?metric. ?metric rdfs:label ?metric_lbl.\n  FILTER ({test})"


@dataclass(frozen=True)
class Companion:
    """The read-only query fetching a ranking's leaderboard, and what it was built from."""

    query: str
    dataset: str
    metric: str
    descending: bool
    best_of: bool  # the pipeline's query picks the best (LIMIT 1 after ORDER BY, or MAX/MIN)


def _test(f: LabelFilter, var: str) -> str | None:
    text = re.sub(r"\\(.)", r"\1", f.literal)
    literal = quoted(text)
    if f.op == "=":
        return f"str({var}) = {literal}"
    if f.op == "regex":
        return f'REGEX(str({var}), {literal}, "i")'
    return None


def _is_ranking(shape: Shape) -> bool:
    """Scores are reached, or the answer is the models evaluated."""
    preds = {p.rsplit(":", 1)[-1] for _, p, _ in shape.triples}
    models = {o for _, p, o in shape.triples if p.endswith("HAS_MODEL")}
    return "HAS_VALUE" in preds or bool(models & set(shape.projection))


def _descending(shape: Shape) -> bool:
    if shape.order:
        return shape.order[0][0] == "DESC"
    return not any(func == "MIN" for func, _, _ in shape.aggregates)


def companion(sparql: str) -> Companion | None:
    """The companion query for a ranking question's SPARQL; None when the query is not a ranking."""
    shape = read(untied(sparql))  # a ranking that keeps ties: the best-of ranking it is
    if shape.form != "SELECT" or not _is_ranking(shape):
        return None
    datasets = [f for f in shape.filters if shape.kind_of_var(f.var) == Kind.DATASET and f.op in ("=", "regex")]
    metrics = [f for f in shape.filters if shape.kind_of_var(f.var) == Kind.METRIC and f.op in ("=", "regex")]
    if len(datasets) != 1:
        return None
    dataset_test = _test(datasets[0], "?dataset_lbl")
    metric_test = _test(metrics[0], "?metric_lbl") if metrics else None
    descending = _descending(shape)
    query = _COMPANION.format(dataset=dataset_test,
                              metric=_ONE_METRIC.format(test=metric_test) if metric_test else _ANY_METRIC,
                              order="DESC" if descending else "ASC")
    best_of = (bool(shape.order) and any(n < ROW_CAP_LIMIT for n in shape.limits)) or \
        any(func in ("MAX", "MIN") for func, _, _ in shape.aggregates)
    return Companion(query, datasets[0].literal, metrics[0].literal if metrics else "", descending, best_of)


def _value(row: dict[str, dict[str, str]], var: str) -> str:
    return row[var]["value"] if var in row else ""


def entries(rows: Rows) -> list[Entry]:
    """The companion's rows as entries, in the graph's order."""
    out = []
    for row in rows.rows:
        if "value" not in row:
            continue  # a row without a score has no place on a leaderboard
        value = _value(row, "value")
        model_iri = _value(row, "model")
        model = _value(row, "model_lbl") or (short_name(model_iri) if model_iri else "")
        out.append(Entry(model, model_iri, _value(row, "metric_lbl"), value, parse_number(value),
                         _value(row, "paper_lbl"), _value(row, "paper")))
    return out


def _chart_metric(found: list[Entry], named: str) -> str:
    if named:
        match = next((e.metric for e in found if e.metric.casefold() == named.casefold()), "")
        if match:
            return match
    counts: dict[str, int] = {}
    for e in found:
        counts[e.metric] = counts.get(e.metric, 0) + (e.number is not None)
    return min(counts, key=lambda m: (-counts[m], m)) if counts else named


def _sorted(found: list[Entry], descending: bool) -> list[Entry]:
    sign = -1.0 if descending else 1.0
    numbers = sorted((e for e in found if e.number is not None), key=lambda e: (sign * (e.number or 0.0), e.model))
    return numbers + [e for e in found if e.number is None]


def _order_note(graph_order: list[Entry], descending: bool) -> str:
    """Where the graph's own ordering of the values disagrees with their numbers ("" when it agrees)."""
    numbered = [e for e in graph_order if e.number is not None]
    for a, b in zip(numbered, numbered[1:]):
        assert a.number is not None and b.number is not None
        if (a.number < b.number) if descending else (a.number > b.number):
            return (f"The graph's own ordering puts '{a.value}' {'above' if descending else 'below'} '{b.value}' "
                    "(it compares the stored values as text); this list is sorted by number.")
    return ""


def build(comp: Companion, result: Rows, answer_rows: Rows | None) -> Leaderboard:
    """The leaderboard from the companion's result; notes where the graph's order or the answer differ from it."""
    found = entries(result)
    metric = _chart_metric(found, comp.metric)
    ordered = _sorted([e for e in found if e.metric == metric], comp.descending)
    for other in sorted({e.metric for e in found} - {metric}):
        ordered += _sorted([e for e in found if e.metric == other], comp.descending)
    notes = [_order_note([e for e in found if e.metric == metric], comp.descending)]
    board = Leaderboard(comp.dataset, metric, comp.descending, tuple(ordered), (), comp.query)
    top = board.top()
    if comp.best_of and top and answer_rows is not None and answer_rows.rows:
        answered = {t.get("value", "") for row in answer_rows.rows for t in row.values()}
        if top.value not in answered and top.model_iri not in answered:
            notes.append(f"By number, the top {metric or 'score'} here is {top.value}"
                         + (f" ({top.model})" if top.model else "") + ", which the query's own answer does not name.")
    return Leaderboard(comp.dataset, metric, comp.descending, tuple(ordered), tuple(n for n in notes if n),
                       comp.query)
