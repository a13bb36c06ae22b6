"""Every name of each kind the graph holds, and the combinations an intent is asked about, read from the graph
itself (so a set is generated for any ORKG-shaped graph, not for a list kept beside it)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pipeline.errors import KgqaError
from pipeline.parts import KnowledgeGraph
from pipeline.sparql.gate import gate

Binding = dict[str, str]  # slot -> name (or a year, or k)

_LABELS = "SELECT DISTINCT ?label WHERE {{ ?x a orkgc:{kind}; rdfs:label ?label. }}"
_RESULTS = ("SELECT DISTINCT ?model ?dataset ?metric WHERE { ?bench orkgp:HAS_DATASET ?d; orkgp:HAS_EVALUATION ?e. "
            "?e orkgp:HAS_METRIC ?m. ?cont orkgp:HAS_BENCHMARK ?bench. OPTIONAL { ?cont orkgp:HAS_MODEL ?mo. "
            "?mo rdfs:label ?model. } ?d a orkgc:Dataset; rdfs:label ?dataset. "
            "?m a orkgc:Metric; rdfs:label ?metric. }")
_EVALUATED = ("SELECT DISTINCT ?model ?dataset ?year WHERE { ?bench orkgp:HAS_DATASET ?d. ?cont orkgp:HAS_BENCHMARK "
              "?bench. ?paper orkgp:P31 ?cont; orkgp:P29 ?year. OPTIONAL { ?cont orkgp:HAS_MODEL ?mo. "
              "?mo rdfs:label ?model. } ?d a orkgc:Dataset; rdfs:label ?dataset. }")
KINDS = {"dataset": "Dataset", "model": "Model", "metric": "Metric", "problem": "Problem", "field": "ResearchField",
         "paper": "Paper"}


def select(kg: KnowledgeGraph, query: str) -> list[dict[str, str]]:
    """Rows of a read-only query as {variable: value}; a query the gate refuses is a bug here, so it raises."""
    check = gate(query, None)
    if not check.ok:
        raise KgqaError(f"the generator's own query is refused: {'; '.join(check.errors)}")
    rows = kg.select(check.fixed)
    return [{k: v["value"] for k, v in row.items()} for row in rows.rows]


@dataclass(frozen=True)
class Names:
    """What the graph holds: labels of every kind, which model has which metric on which dataset, and which model
    was evaluated on which dataset in a paper of which year."""

    labels: dict[str, tuple[str, ...]]  # kind (a key of KINDS) -> labels, sorted
    results: tuple[tuple[str, str, str], ...]  # (model or "", dataset, metric)
    evaluated: tuple[tuple[str, str, str], ...]  # (model or "", dataset, year)

    @classmethod
    def of(cls, kg: KnowledgeGraph) -> Names:
        labels = {kind: tuple(sorted({r["label"] for r in select(kg, _LABELS.format(kind=cls_))}))
                  for kind, cls_ in KINDS.items()}
        results = sorted({(r.get("model", ""), r["dataset"], r["metric"]) for r in select(kg, _RESULTS)})
        evaluated = sorted({(r.get("model", ""), r["dataset"], r["year"]) for r in select(kg, _EVALUATED)})
        return cls(labels, tuple(results), tuple(evaluated))

    def bindings(self, over: str) -> list[Binding]:
        """Every binding an intent ``over`` this key is asked with, in a fixed order."""
        if over in KINDS:
            return [{over: label} for label in self.labels[over]]
        return _COMBINATIONS[over](self)


def _dataset_metric(names: Names) -> list[Binding]:
    pairs = sorted({(d, m) for _, d, m in names.results})
    return [{"dataset": d, "metric": m} for d, m in pairs]


def _dataset_metric_k(names: Names) -> list[Binding]:
    return [{**b, "k": str(k)} for b in _dataset_metric(names) for k in (2, 3)]


def _model_dataset_metric(names: Names) -> list[Binding]:
    return [{"model": mo, "dataset": d, "metric": m} for mo, d, m in names.results if mo]


def _models_by_dataset(names: Names) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {d: set() for d in names.labels["dataset"]}
    for model, dataset, _ in names.evaluated:
        if model:
            out.setdefault(dataset, set()).add(model)
    return out


def _dataset_pair(names: Names) -> list[Binding]:
    """Every two datasets sharing a model, and each dataset with the next one in label order (most share none)."""
    by = _models_by_dataset(names)
    sets = names.labels["dataset"]
    pairs = {(a, b) for a in sets for b in sets if a < b and by[a] & by[b]}
    pairs |= {(a, b) for a, b in zip(sets, sets[1:])}
    return [{"dataset": a, "other": b} for a, b in sorted(pairs)]


def _model_dataset(names: Names) -> list[Binding]:
    """Each model with every dataset it was evaluated on (yes) and with the first dataset it was not (no)."""
    by = _models_by_dataset(names)
    out = []
    for model in names.labels["model"]:
        on = [d for d in names.labels["dataset"] if model in by[d]]
        off = [d for d in names.labels["dataset"] if model not in by[d]]
        out += [{"model": model, "dataset": d} for d in on + off[:1]]
    return out


def _dataset_year(names: Names) -> list[Binding]:
    return [{"dataset": d, "year": y} for d, y in sorted({(d, y) for m, d, y in names.evaluated if m})]


_COMBINATIONS: dict[str, Callable[[Names], list[Binding]]] = {
    "dataset_metric": _dataset_metric, "dataset_metric_k": _dataset_metric_k,
    "model_dataset_metric": _model_dataset_metric, "dataset_pair": _dataset_pair,
    "model_dataset": _model_dataset, "dataset_year": _dataset_year}


def covered(bindings: Sequence[Binding], slot: str) -> set[str]:
    """The names a list of bindings asks about in ``slot``."""
    return {b[slot] for b in bindings if slot in b}
