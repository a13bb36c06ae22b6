"""T01–T05, the dataset-centred shapes: models, papers, metrics, top score per metric, best model.

Each model evaluated on a dataset gets a contribution with its own benchmark and one evaluation per metric,
as in ORKG: paper -P31-> contribution -HAS_BENCHMARK-> benchmark -HAS_DATASET-> dataset,
benchmark -HAS_EVALUATION-> evaluation -HAS_METRIC/-HAS_VALUE->, contribution -HAS_MODEL-> model.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from pipeline.kg.sciqa_graph.facts import Fact
from pipeline.kg.sciqa_graph.values import below, invented
from pipeline.kg.sciqa_graph.witness import ORKGP, Witness
from pipeline.records import Kind, Term

Node = tuple[str, str]  # (IRI, label)


@dataclass
class DatasetFacts:
    """What the gold answers say about one dataset (None: no question asked it)."""

    models: list[Node] | None = None  # T01
    papers: list[Node] | None = None  # T02
    metrics: list[Node] | None = None  # T03
    scores: dict[Node | None, str] | None = None  # T04: top score per metric (None: an evaluation with no metric)
    best: list[Node] = field(default_factory=list)  # T05: the best model, once per question
    best_metrics: list[str] = field(default_factory=list)  # T05: the metric labels asked about


def gather(facts: list[Fact], witness: Witness) -> dict[str, DatasetFacts]:
    """The T01–T05 facts by dataset label; a second, different answer to the same question is a conflict."""
    out: dict[str, DatasetFacts] = defaultdict(DatasetFacts)
    for f in facts:
        name = f.labels.get("dataset_lbl")
        if f.template not in ("T01", "T02", "T03", "T04", "T05") or name is None:
            continue
        d = out[name]
        if f.template == "T05":
            d.best += _nodes(f.rows, "model")
            d.best_metrics.append(f.labels.get("metric_lbl", ""))
            continue
        attr = {"T01": "models", "T02": "papers", "T03": "metrics", "T04": "scores"}[f.template]
        value = _scores(f.rows) if f.template == "T04" else _nodes(f.rows, attr[:-1])
        if getattr(d, attr) is None:
            setattr(d, attr, value)
        elif getattr(d, attr) != value:
            witness.conflict(f"{f.template} {name!r}: {f.id} answers differently from an earlier question; "
                             "kept the first")
    return out


def _nodes(rows: list[dict[str, Term]], var: str) -> list[Node]:
    seen: dict[Node, None] = {}
    for row in rows:
        if var in row:
            seen[(row[var]["value"], row.get(f"{var}_lbl", {}).get("value", ""))] = None
    return list(seen)


def _scores(rows: list[dict[str, Term]]) -> dict[Node | None, str]:
    return {((r["metric"]["value"], r.get("metric_lbl", {}).get("value", "")) if "metric" in r else None):
            r["score"]["value"] for r in rows if "score" in r}


def build_dataset(w: Witness, name: str, d: DatasetFacts) -> list[str]:
    """Add one dataset's nodes; returns its contributions (for the links that need one)."""
    dataset = w.entity(Kind.DATASET, name)
    best = _best(w, name, d)
    models = list(d.models) if d.models is not None else []
    for node in best[:1]:
        if node not in models:
            if d.models is not None:
                w.conflict(f"T05 {name!r}: best model {node[1]!r} is not among T01's models; added it")
            models.insert(0, node)
    if best:  # the best model first: it holds the top score of every metric
        models.remove(best[0])
        models.insert(0, best[0])
    metrics = _metrics(w, d)
    contributions = []
    owners: list[str | None] = [w.entity(Kind.MODEL, label, iri) for iri, label in models] or \
        ([None] if d.scores else [])
    for rank, model in enumerate(owners):
        cont = w.mint("contribution")
        bench = w.mint("benchmark")
        w.add(cont, ORKGP + "HAS_BENCHMARK", bench)
        w.add(bench, ORKGP + "HAS_DATASET", dataset)
        if model is not None:
            w.add(cont, ORKGP + "HAS_MODEL", model)
        _evaluations(w, bench, metrics, d, rank, len(owners))
        contributions.append(cont)
    if not owners and metrics:  # metrics but no contribution: evaluations of a benchmark nobody claims
        bench = w.mint("benchmark")
        w.add(bench, ORKGP + "HAS_DATASET", dataset)
        _evaluations(w, bench, metrics, d, 0, 1)
    _papers(w, dataset, d.papers or [], contributions)
    return contributions


def _best(w: Witness, name: str, d: DatasetFacts) -> list[Node]:
    if not d.best:
        return []
    ranked = Counter(d.best).most_common()
    if len(ranked) > 1:
        w.conflict(f"T05 {name!r}: best model differs by metric ({', '.join(n[1] for n, _ in ranked)}); "
                   f"kept {ranked[0][0][1]!r}, the uncorrelated subquery has one answer per dataset")
    return [ranked[0][0]]


def _metrics(w: Witness, d: DatasetFacts) -> list[str | None]:
    nodes = list(d.metrics or [])
    for node in d.scores or {}:
        if node is not None and node not in nodes:
            nodes.append(node)
    found: list[str | None] = [w.entity(Kind.METRIC, label, iri) for iri, label in nodes]
    if not found and d.metrics is None and d.scores is None:
        found = [w.entity(Kind.METRIC, label) for label in dict.fromkeys(d.best_metrics)]
    if d.scores and None in d.scores:
        found.append(None)
    return found or [None]  # T01 needs an evaluation even when no metric is known


def _evaluations(w: Witness, bench: str, metrics: list[str | None], d: DatasetFacts, rank: int, owners: int) -> None:
    tops = {w.entity(Kind.METRIC, node[1], node[0]) if node else None: s for node, s in (d.scores or {}).items()}
    for metric in metrics:
        ev = w.mint("evaluation")
        w.add(bench, ORKGP + "HAS_EVALUATION", ev)
        if metric is not None:
            w.add(ev, ORKGP + "HAS_METRIC", metric)
        if d.scores is None:
            if metric is not None:
                w.literal(ev, ORKGP + "HAS_VALUE", invented(owners)[rank])
        elif metric in tops:
            w.literal(ev, ORKGP + "HAS_VALUE", tops[metric] if rank == 0 else below(tops[metric], owners)[rank - 1])


def _papers(w: Witness, dataset: str, papers: list[Node], contributions: list[str]) -> None:
    """Each paper gets contributions round-robin; papers beyond them get a contribution with no evaluation."""
    for i, (iri, label) in enumerate(papers):
        w.entity(Kind.PAPER, label, iri)
        if i >= len(contributions):
            cont, bench = w.mint("contribution"), w.mint("benchmark")
            w.add(cont, ORKGP + "HAS_BENCHMARK", bench)
            w.add(bench, ORKGP + "HAS_DATASET", dataset)
            w.add(iri, ORKGP + "P31", cont)
    for j, cont in enumerate(contributions):
        if papers:
            w.add(papers[j % len(papers)][0], ORKGP + "P31", cont)
