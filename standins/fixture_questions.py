"""SciQA-shaped queries over the ORKG-shaped fixture graph, with the answers expected computed from the fixture's
definition: T01, T04 and T05 for every dataset (and metric), read at a glance (numbers, not the graph's text
ordering); ``TEMPLATE_CASES``, one or two queries per template T01-T08 with the flat rows each must return."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial

from pipeline.eval.given import GivenQuery as FixedGenerator  # noqa: F401  (the fixture tests' names)
from pipeline.eval.given import NoExamples as NoStore  # noqa: F401
from standins import orkg_fixture as fx

DATASET = "?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. FILTER (str(?dataset_lbl) = {})"


def q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def t01(dataset: str) -> str:
    return ("SELECT DISTINCT ?model ?model_lbl WHERE { " + DATASET.format(q(dataset)) +
            " ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval. ?paper orkgp:HAS_BENCHMARK"
            " ?benchmark. OPTIONAL {?paper orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl.} }")


def t02(dataset: str) -> str:
    """The papers with a benchmark on ``dataset``: not a ranking, so no leaderboard."""
    return ("SELECT DISTINCT ?paper ?paper_lbl WHERE { " + DATASET.format(q(dataset)) +
            " ?benchmark orkgp:HAS_DATASET ?dataset. ?cont orkgp:HAS_BENCHMARK ?benchmark."
            " ?paper orkgp:P31 ?cont; rdfs:label ?paper_lbl. }")


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


# -- one SciQA-shaped query per template, with the flat rows it returns ------------------------------------------

Row = tuple[str, ...]


@dataclass(frozen=True)
class Case:
    template: str
    subject: str  # the label the query asks about
    query: str
    expected: Callable[[], set[Row]]  # the flat rows the query must return, computed from the fixture's definition

    @property
    def id(self) -> str:
        return f"{self.template}-{self.subject}"


def contributions() -> Iterator[tuple[fx.Paper, fx.Contribution]]:
    return ((paper, cont) for paper in fx.PAPERS for cont in paper.contributions)


def on(dataset: str) -> Iterator[tuple[fx.Paper, fx.Contribution, fx.Benchmark]]:
    return ((p, c, b) for p, c in contributions() for b in c.benchmarks if b.dataset == dataset)


def model_row(model: str | None) -> Row:
    return (fx.iri("Model", model), model) if model else ()


def top_models(dataset: str) -> set[Row]:
    # The metric filter of T05 sits outside the sub-select, so by SPARQL's bottom-up scoping it does not narrow the
    # ranking: the model with the highest value on the dataset *for any metric* wins (Virtuoso agrees).
    ranked = [(r.value, c.model) for _, c, b in on(dataset) for r in b.results]
    return {model_row(max(ranked)[1])}


def codes(model: str) -> set[Row]:
    return {(url,) for _, c in contributions() if c.model == model and c.benchmarks for url in c.code}


def top_scores(dataset: str) -> set[Row]:
    best: dict[str, str] = {}
    for _, _, b in on(dataset):
        for r in b.results:
            best[r.metric] = max(best.get(r.metric, r.value), r.value)  # plain literals: string order, as in SPARQL
    return {(fx.iri("Metric", m), m, v) for m, v in best.items()}


TEMPLATE_CASES = [
    Case("T01", fx.STORY_CLOZE, t01(fx.STORY_CLOZE),
         lambda: {model_row(c.model) for _, c, b in on(fx.STORY_CLOZE) if b.results}),
    Case("T02", fx.READING, t02(fx.READING),
         lambda: {(fx.iri("Paper", p.title), p.title) for p, _, _ in on(fx.READING)}),
    Case("T03", fx.READING, "SELECT DISTINCT ?metric ?metric_lbl WHERE { " + DATASET.format(q(fx.READING)) +
         " ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval."
         " OPTIONAL {?eval orkgp:HAS_METRIC ?metric. ?metric rdfs:label ?metric_lbl.} }",
         lambda: {(fx.iri("Metric", r.metric), r.metric) for _, _, b in on(fx.READING) for r in b.results}),
    Case("T04", fx.READING, t04(fx.READING), lambda: top_scores(fx.READING)),
    *[Case("T05", f"{ds}, {metric}", t05(ds, metric), partial(top_models, ds))
      for ds, metric in ((fx.STORY_CLOZE, fx.ACC), (fx.READING, fx.EM))],
    Case("T06", fx.QA,
         "SELECT DISTINCT ?dataset ?dataset_lbl WHERE { ?problem a orkgc:Problem; rdfs:label ?problem_lbl."
         f" FILTER (str(?problem_lbl) = {q(fx.QA)}) ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl."
         " ?benchmark orkgp:HAS_DATASET ?dataset. ?cont orkgp:HAS_BENCHMARK ?benchmark; orkgp:P32 ?problem. }",
         lambda: {(fx.iri("Dataset", b.dataset), b.dataset) for _, c in contributions() if c.problem == fx.QA
                  for b in c.benchmarks}),
    *[Case("T07", model, "SELECT DISTINCT ?code WHERE { ?model a orkgc:Model; rdfs:label ?model_lbl."
           f" FILTER (str(?model_lbl) = {q(model)}) ?benchmark orkgp:HAS_DATASET ?dataset."
           " ?cont orkgp:HAS_BENCHMARK ?benchmark. ?cont orkgp:HAS_MODEL ?model; orkgp:HAS_SOURCE_CODE ?code. }",
           partial(codes, model))
      for model in ("StoryLM-large", fx.QUOTED_MODEL)],
    Case("T08", fx.NLP,
         "SELECT DISTINCT ?problem ?problem_lbl WHERE { ?rf a orkgc:ResearchField; rdfs:label ?rf_label."
         f" FILTER (str(?rf_label) = {q(fx.NLP)}) ?paper orkgp:P30 ?rf; orkgp:P31 ?cont."
         " ?cont orkgp:HAS_BENCHMARK ?benchmark; orkgp:P32 ?problem. ?problem rdfs:label ?problem_lbl. }",
         lambda: {(fx.iri("Problem", c.problem), c.problem) for p, c in contributions()
                  if p.field == fx.NLP and c.benchmarks}),
]
