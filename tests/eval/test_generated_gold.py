"""The gold query of every generated intent, run on the fixture graph for every name it is asked about, returns what
the fixture's definition holds (an oracle written here from ``standins.orkg_fixture.PAPERS``, apart from the SPARQL)."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pipeline.eval.generated.build import fill
from pipeline.eval.generated.gold import gold_forms
from pipeline.eval.generated.intents import INTENTS, GoldIntent
from pipeline.eval.generated.names import Binding, Names
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.sparql.gate import gate
from standins import orkg_fixture as fx
from standins.fixture_questions import as_number

Hit = tuple[fx.Paper, fx.Contribution, fx.Benchmark]


@pytest.fixture(scope="module")
def kg(orkg_fixture_nt: Path) -> OxigraphKG:
    return OxigraphKG(orkg_fixture_nt, row_cap=100_000)


@pytest.fixture(scope="module")
def names(kg: OxigraphKG) -> Names:
    return Names.of(kg)


def conts() -> Iterator[tuple[fx.Paper, fx.Contribution]]:
    return ((p, c) for p in fx.PAPERS for c in p.contributions)


def on(dataset: str) -> Iterator[Hit]:
    return ((p, c, b) for p, c in conts() for b in c.benchmarks if b.dataset == dataset)


def of_model(model: str) -> Iterator[tuple[fx.Paper, fx.Contribution]]:
    return ((p, c) for p, c in conts() if c.model == model)


def models_on(dataset: str) -> set[str]:
    return {c.model for _, c, _ in on(dataset) if c.model}


def scored(b: Binding) -> list[tuple[float, str, str]]:
    """(number, model, value as stored) of every result of the binding's dataset and metric that reads as a number."""
    out = []
    for _, c, bench in on(b["dataset"]):
        for r in bench.results:
            number = as_number(r.value)
            if r.metric == b["metric"] and c.model and number is not None:
                out.append((number, c.model, r.value))
    return out


def ranked(b: Binding, reverse: bool = True) -> list[str]:
    return [model for _, model, _ in sorted(scored(b), reverse=reverse)]


def count(values: set[str]) -> set[str]:
    return {str(len(values))}


ORACLE: dict[str, Callable[[Binding], set[str]]] = {
    "count-models": lambda b: count(models_on(b["dataset"])),
    "count-papers": lambda b: count({p.title for p, _, _ in on(b["dataset"])}),
    "models-on-dataset": lambda b: models_on(b["dataset"]),
    "models-with-code": lambda b: {c.model for _, c, _ in on(b["dataset"]) if c.model and c.code},
    "dataset-metrics": lambda b: {r.metric for _, _, bench in on(b["dataset"]) for r in bench.results},
    "dataset-problems": lambda b: {c.problem for _, c, _ in on(b["dataset"])},
    "model-datasets": lambda b: {bench.dataset for _, c in of_model(b["model"]) for bench in c.benchmarks},
    "model-code": lambda b: {url for _, c in of_model(b["model"]) for url in c.code},
    "model-papers": lambda b: {p.title for p, _ in of_model(b["model"])},
    "problem-datasets": lambda b: {bench.dataset for _, c in conts() if c.problem == b["problem"]
                                   for bench in c.benchmarks},
    "problem-field": lambda b: {p.field for p, c in conts() if c.problem == b["problem"]},
    "field-count-problems": lambda b: count({c.problem for p, c in conts() if p.field == b["field"]}),
    "paper-year": lambda b: {p.year for p in fx.PAPERS if p.title == b["paper"]},
    "scores-on-dataset": lambda b: {x for _, c, bench in on(b["dataset"]) for r in bench.results
                                    if r.metric == b["metric"] and c.model for x in (c.model, r.value)},
    "best-model": lambda b: set(ranked(b)[:1]),
    "lowest-model": lambda b: set(ranked(b, reverse=False)[:1]),
    "best-value": lambda b: {value for _, _, value in sorted(scored(b), reverse=True)[:1]},
    "top-k": lambda b: set(ranked(b)[:int(b["k"])]),
    "second-model": lambda b: set(ranked(b)[1:2]),
    "model-value": lambda b: {r.value for _, c, bench in on(b["dataset"]) if c.model == b["model"]
                              for r in bench.results if r.metric == b["metric"]},
    "both-datasets": lambda b: models_on(b["dataset"]) & models_on(b["other"]),
    "model-on-dataset": lambda b: {str(b["model"] in models_on(b["dataset"])).lower()},
    "models-in-year": lambda b: {c.model for p, c, _ in on(b["dataset"]) if c.model and p.year == b["year"]},
}


def gold(kg: OxigraphKG, intent: GoldIntent, binding: Binding) -> list[str]:
    check = gate(fill(intent.gold, binding, literal=True), None)
    assert check.ok, check.errors
    return gold_forms(kg.select(check.fixed))[0]


def test_every_intent_has_an_oracle() -> None:
    assert {i.id for i in INTENTS} == set(ORACLE)


@pytest.mark.parametrize("intent", INTENTS, ids=[i.id for i in INTENTS])
def test_the_gold_query_returns_what_the_graph_holds_for_every_name(kg: OxigraphKG, names: Names,
                                                                    intent: GoldIntent) -> None:
    bindings = names.bindings(intent.over)
    assert bindings
    wrong = {str(b): (sorted(got), sorted(ORACLE[intent.id](b))) for b in bindings
             if set(got := gold(kg, intent, b)) != ORACLE[intent.id](b)}
    assert not wrong
    assert any(ORACLE[intent.id](b) for b in bindings)  # not a set of empty answers


def test_a_ranking_is_by_the_metric_asked_on_a_dataset_reporting_several(kg: OxigraphKG) -> None:
    best = next(i for i in INTENTS if i.id == "best-model")
    # hand-checked in the fixture: MRR@10 38.2 (DenseRetriever) > 35.0 > 18.7;
    # nDCG@10 47.9 (Señor-Ranker) > 45.1 > 29.4
    assert gold(kg, best, {"dataset": fx.WIKI_EN, "metric": fx.MRR}) == [fx.DENSE]
    assert gold(kg, best, {"dataset": fx.WIKI_EN, "metric": fx.NDCG}) == [fx.SENOR]


def test_scores_that_read_as_no_number_never_rank(kg: OxigraphKG) -> None:
    lowest = next(i for i in INTENTS if i.id == "lowest-model")
    top = next(i for i in INTENTS if i.id == "top-k")
    assert gold(kg, lowest, {"dataset": fx.NOISY, "metric": fx.ACC}) == ["Low-3"]  # not "N/A", "—" nor "12 M"
    assert gold(kg, top, {"dataset": fx.NOISY, "metric": fx.ACC, "k": "3"}) == ["Big-71", "Mid-10", "Tiny-9"]


def test_counts_equal_the_distinct_models_of_the_graphs_evaluation_triples(kg: OxigraphKG, names: Names) -> None:
    intent = next(i for i in INTENTS if i.id == "count-models")
    triples = fx.fixture_triples()
    benches = {s: o for s, p, o in triples if p == fx.ORKGP + "HAS_DATASET"}
    for dataset in names.labels["dataset"]:
        node = fx.iri("Dataset", dataset)
        holding = {s for s, p, o in triples if p == fx.ORKGP + "HAS_BENCHMARK" and benches.get(o) == node}
        models = {o for s, p, o in triples if p == fx.ORKGP + "HAS_MODEL" and s in holding}
        assert gold(kg, intent, {"dataset": dataset}) == [str(len(models))]
