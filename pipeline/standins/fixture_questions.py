"""SciQA-shaped T01, T04 and T05 queries for every dataset (and metric) of the ORKG-shaped fixture graph, with the
answers a reader expects computed from the fixture's definition (numbers, not the graph's text ordering)."""
from __future__ import annotations

from pipeline.eval.given import GivenQuery as FixedGenerator  # noqa: F401  (the fixture tests' names)
from pipeline.eval.given import NoExamples as NoStore  # noqa: F401
from pipeline.standins import orkg_fixture as fx

DATASET = "?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. FILTER (str(?dataset_lbl) = {})"


def q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def t01(dataset: str) -> str:
    return ("SELECT DISTINCT ?model ?model_lbl WHERE { " + DATASET.format(q(dataset)) +
            " ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval. ?paper orkgp:HAS_BENCHMARK"
            " ?benchmark. OPTIONAL {?paper orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl.} }")


def t04(dataset: str) -> str:
    return ("SELECT DISTINCT ?metric ?metric_lbl (MAX(?value) AS ?score) WHERE { { SELECT ?metric ?metric_lbl ?value"
            " WHERE { " + DATASET.format(q(dataset)) +
            " ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval. ?eval orkgp:HAS_VALUE ?value."
            " OPTIONAL {?eval orkgp:HAS_METRIC ?metric. ?metric rdfs:label ?metric_lbl.}"
            " ?cont orkgp:HAS_BENCHMARK ?benchmark. OPTIONAL {?cont orkgp:HAS_MODEL ?model."
            " ?model rdfs:label ?model_lbl.} } ORDER BY DESC(?value) } } GROUP BY ?metric ?metric_lbl")


def t05(dataset: str, metric: str) -> str:
    return ("SELECT DISTINCT ?model ?model_lbl WHERE { ?metric a orkgc:Metric; rdfs:label ?metric_lbl."
            f" FILTER (str(?metric_lbl) = {q(metric)}) {{ SELECT ?model ?model_lbl WHERE {{ " +
            DATASET.format(q(dataset)) +
            " ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval."
            " ?eval orkgp:HAS_VALUE ?value; orkgp:HAS_METRIC ?metric."
            " ?cont orkgp:HAS_BENCHMARK ?benchmark; orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl."
            " } ORDER BY DESC(?value) LIMIT 1 } }")


def as_number(value: str) -> float | None:
    """The test's own reading of a stored score (the oracle, written apart from the code under test)."""
    try:
        return float(value.strip().rstrip("%").replace(",", ""))
    except ValueError:
        return None


def scores(dataset: str, metric: str | None = None) -> list[tuple[str, str, str]]:
    """(model, metric, value) of every result on ``dataset`` in the fixture's definition."""
    return [(c.model or "", r.metric, r.value) for p in fx.PAPERS for c in p.contributions for b in c.benchmarks
            if b.dataset == dataset for r in b.results if metric in (None, r.metric)]


def best(dataset: str, metric: str) -> tuple[str, str]:
    """(model, value) of the highest numeric score."""
    numeric = [(as_number(v), m, v) for m, _, v in scores(dataset, metric) if as_number(v) is not None]
    _, model, value = max(numeric)
    return model, value


def metrics_on(dataset: str) -> list[str]:
    return sorted({metric for _, metric, _ in scores(dataset)})


def cases() -> list[tuple[str, str, str]]:
    """(template, label, query): every T01, T04 and T05 question the fixture can be asked."""
    out = []
    for dataset in fx.DATASETS:
        out += [("T01", dataset, t01(dataset)), ("T04", dataset, t04(dataset))]
        out += [("T05", f"{dataset} / {metric}", t05(dataset, metric)) for metric in metrics_on(dataset) or [fx.ACC]]
    return out


def t02_free_text() -> str:
    """The papers with a benchmark on the LoreQA Reading Set: not a ranking, so no leaderboard."""
    return ("SELECT DISTINCT ?paper ?paper_lbl WHERE { " + DATASET.format(q(fx.READING)) +
            " ?benchmark orkgp:HAS_DATASET ?dataset. ?cont orkgp:HAS_BENCHMARK ?benchmark."
            " ?paper orkgp:P31 ?cont; rdfs:label ?paper_lbl. }")
