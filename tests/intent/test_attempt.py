"""What the composer tried: a metric the dataset has no scores by is read in the dataset's own spelling of it, or
asked back with the metrics the dataset has (never an empty answer); any other composition kept as it is."""
from __future__ import annotations

from pipeline.intent.attempt import Attempt, Composition, metrics_of, scored
from pipeline.intent.named import Name
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.records import Example, Kind
from tests.intent import gold

RANKED = ('SELECT ?model_lbl WHERE {{ ?dataset rdfs:label ?d. FILTER(str(?d) = "{dataset}") ?metric rdfs:label ?m. '
          'FILTER(str(?m) = "{metric}") ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval. '
          '?eval orkgp:HAS_METRIC ?metric; orkgp:HAS_VALUE ?value. ?cont orkgp:HAS_BENCHMARK ?benchmark; '
          'orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. }} ORDER BY DESC(?value) LIMIT 1')


def _attempt(dataset: str, metric: str) -> Attempt:
    names = (Name(0, 1, dataset, frozenset({Kind.DATASET})), Name(2, 3, metric, frozenset({Kind.METRIC})))
    return Attempt(Composition(RANKED.format(dataset=dataset, metric=metric), Example("IP-x", "q", "s"), names))


def test_the_metrics_a_dataset_has_scores_by(fixture_kg: OxigraphKG) -> None:
    for dataset, _ in gold.boards():
        assert metrics_of(fixture_kg, dataset) == sorted(gold.metrics_of(dataset))
    assert metrics_of(fixture_kg, "No Such Dataset") == []


def test_a_metric_the_dataset_has_is_kept_one_it_spells_otherwise_read_so_and_another_asked_back(
        fixture_kg: OxigraphKG) -> None:
    dataset, metric = gold.boards()[0]
    kept = _attempt(dataset, metric)
    assert scored(kept, fixture_kg) == kept
    spelled = scored(_attempt(dataset, metric.upper() + " score"), fixture_kg)
    assert spelled.composition is not None and f'"{metric}"' in spelled.composition.sparql
    other = scored(_attempt(dataset, "Bogus Metric"), fixture_kg)
    assert other.composition is None and other.unmeasured == dataset
    assert other.measured == tuple(sorted(gold.metrics_of(dataset)))
