"""Asking back (issue 52): a ranking asked on a dataset that several metrics measure, none named, is never answered
by one metric picked for the user; the reply asks which, each choice a question that answers. A dataset measured by
one metric is ranked by it, and the reply says so."""
from __future__ import annotations

from pathlib import Path

from pipeline.intent.step import IntentStep
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.records import Generation
from tests.intent import gold
from tests.intent.conftest import answer_of


def _review(question: str, kg: OxigraphKG) -> Generation:
    return IntentStep().review(question, Generation("adapter", None), [], kg).generation


def test_a_ranking_on_a_dataset_of_several_metrics_is_asked_back_with_each_metric(fixture_kg: OxigraphKG) -> None:
    several = [d for d in sorted({d for d, _ in gold.boards()}) if len(gold.metrics_of(d)) >= 2]
    assert several  # the fixture graph has such datasets: the loop below asks about each
    for dataset in several:
        metrics = sorted(gold.metrics_of(dataset))
        reviewed = IntentStep().review(f"top 2 models on {dataset}", Generation("adapter", None), [], fixture_kg)
        assert reviewed.generation.sparql is None and "which one do you mean" in reviewed.generation.explanation
        assert [c.label for c in reviewed.choices] == metrics[:5], dataset
        for choice in reviewed.choices:  # each choice answers: the top two by that metric
            picked = _review(choice.question, fixture_kg)
            assert picked.sparql is not None, choice.question
            found = answer_of(fixture_kg, picked.sparql)
            board = gold.scores(dataset, choice.label)
            assert not isinstance(found, bool) and len(found) == min(2, len(board)), choice.question
            assert {board[0][0]} <= {v for row in found for v in row}, choice.question


def test_a_dataset_of_one_metric_is_ranked_by_it_and_says_so(fixture_kg: OxigraphKG) -> None:
    single = [d for d in sorted({d for d, _ in gold.boards()})
              if len(gold.metrics_of(d)) == 1 and len(gold.scores(d, next(iter(gold.metrics_of(d))))) >= 2]
    assert single
    for dataset in single:
        metrics = sorted(gold.metrics_of(dataset))
        done = _review(f"which model is best on {dataset}?", fixture_kg)
        assert done.sparql is not None and f"by {metrics[0]} alone" in " ".join(done.notes), dataset
        best = gold.extreme(dataset, metrics[0], highest="Error" not in metrics[0])
        assert {v for row in answer_of(fixture_kg, done.sparql) for v in row} & {m for m, _ in gold.scores(
            dataset, metrics[0])} == best, dataset


def test_a_list_of_a_dataset_is_not_asked_back(fixture_kg: OxigraphKG) -> None:
    done = _review("which models were evaluated on LoreQA Reading Set?", fixture_kg)
    assert done.sparql is not None and "asked back" not in " ".join(done.notes)


def test_a_ranking_by_a_metric_the_dataset_has_no_scores_by_is_asked_back(fixture_kg: OxigraphKG) -> None:
    """'the top 2 on X by M' where X has no scores by M (the graph has M elsewhere): no empty answer; the reply says
    so and asks back with X's metrics, each choice the question with that metric in M's place, and each answers."""
    metrics = {m for _, m in gold.boards()}
    dataset, other = next((d, m) for d in sorted({d for d, _ in gold.boards()}) for m in sorted(metrics)
                          if m not in gold.metrics_of(d))
    reviewed = IntentStep().review(f"top 2 models on {dataset} by {other}", Generation("adapter", None), [],
                                   fixture_kg)
    said = reviewed.generation.explanation
    assert reviewed.generation.sparql is None and f"has no scores by '{other}'" in said and "which one" in said
    assert [c.label for c in reviewed.choices] == sorted(gold.metrics_of(dataset))[:5]
    for choice in reviewed.choices:
        assert choice.question == f"top 2 models on {dataset} by {choice.label}"
        picked = _review(choice.question, fixture_kg)
        assert picked.sparql is not None and answer_of(fixture_kg, picked.sparql), choice.question


def test_a_metric_named_as_the_dataset_spells_it_otherwise_is_ranked_by_the_datasets_own(tmp_path: Path) -> None:
    """'f1 score' where the dataset's scores are by 'F1' (the graph has an 'F1 score' elsewhere): ranked by 'F1', and
    the reply says it read it so; no question back."""
    graph = tmp_path / "g.nt"
    o, p, c, r = "<http://orkg.org/orkg/", "predicate/", "class/", "resource/"
    lines = [f'{o}{r}D> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> {o}{c}Dataset> .',
             f'{o}{r}D> <http://www.w3.org/2000/01/rdf-schema#label> "SQuAD1.1" .']
    for name, label in (("F", "F1"), ("G", "F1 score")):
        lines += [f'{o}{r}{name}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> {o}{c}Metric> .',
                  f'{o}{r}{name}> <http://www.w3.org/2000/01/rdf-schema#label> "{label}" .']
    for i, (model, value) in enumerate((("LUKE", "95.4"), ("BERT", "93.2"))):
        lines += [f'{o}{r}M{i}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> {o}{c}Model> .',
                  f'{o}{r}M{i}> <http://www.w3.org/2000/01/rdf-schema#label> "{model}" .',
                  f'{o}{r}C{i}> {o}{p}HAS_MODEL> {o}{r}M{i}> .', f'{o}{r}C{i}> {o}{p}HAS_BENCHMARK> {o}{r}B{i}> .',
                  f'{o}{r}B{i}> {o}{p}HAS_DATASET> {o}{r}D> .', f'{o}{r}B{i}> {o}{p}HAS_EVALUATION> {o}{r}E{i}> .',
                  f'{o}{r}E{i}> {o}{p}HAS_METRIC> {o}{r}F> .', f'{o}{r}E{i}> {o}{p}HAS_VALUE> "{value}" .']
    lines += [f'{o}{r}E9> {o}{p}HAS_METRIC> {o}{r}G> .', f'{o}{r}E9> {o}{p}HAS_VALUE> "70" .']
    graph.write_text("\n".join(lines) + "\n", encoding="utf-8")
    kg = OxigraphKG(graph, row_cap=1000)
    done = _review("which model has the highest f1 score on squad1.1?", kg)
    assert done.sparql is not None and '"F1"' in done.sparql and '"F1 score"' not in done.sparql, done.explanation
    assert answer_of(kg, done.sparql) and {"LUKE"} <= {v for row in answer_of(kg, done.sparql) for v in row}
    assert any("'F1 score' as 'F1'" in note for note in done.notes), done.notes
