"""Kinds composed from the pairs added with the closed-world reading (issue 52): code asked for and asked against,
the field of a dataset or a paper, the field with most papers, the newest paper of a problem, the top k on an error
rate; each asked about every name of its kind in the fixture graph, its answer the one computed from the graph's
records (tests/intent/gold.py)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from pipeline.intent.step import IntentStep
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.records import Generation
from standins.orkg_fixture import DATASETS, FIELDS, MODELS, PAPERS, PROBLEMS
from tests.intent import gold
from tests.intent.conftest import answer_of


def _things(question: str, kg: OxigraphKG) -> set[str]:
    """Every value of the composed query's answer (labels, IRIs, years, counts), for a question no stored query
    came close to."""
    done = IntentStep().review(question, Generation("adapter", None), [], kg).generation
    assert done.generator == "intent" and done.sparql, (question, done.explanation)
    found = answer_of(kg, done.sparql)
    assert not isinstance(found, bool)
    return {value for row in found for value in row if not value.startswith("http://orkg.org/")}


def _titles(values: set[str]) -> set[str]:
    return values & {p.title for p in PAPERS}


KINDS: list[tuple[str, tuple[str, ...], Callable[[set[str]], set[str]], Callable[[str], set[str]]]] = [
    ("which models on {} dont have any code", DATASETS, set, lambda d: gold.models_on(d) - gold.coded_models()),
    ("{} papers that do not have code", PROBLEMS, _titles, lambda p: gold.papers_of_problem(p, code=False)),
    ("{} papers w/o a code link", PROBLEMS, _titles, lambda p: gold.papers_of_problem(p, code=False)),
    ("papers on {} with code", PROBLEMS, _titles, lambda p: gold.papers_of_problem(p, code=True)),
    ("which reserach field does {} belong to", tuple(d for d in DATASETS if gold.fields_of(d)), set, gold.fields_of),
    ("list the {} papers pls", FIELDS, _titles, gold.papers_in),
    ("which papers address {}?", PROBLEMS, _titles, gold.papers_of_problem),
    ("what problem is {} for", MODELS, set,
     lambda m: {c.problem for p in PAPERS for c in p.contributions if c.model == m}),
    ("which paper introduced {} and what year was it published", MODELS, set,
     lambda m: {v for p in PAPERS for c in p.contributions if c.model == m for v in (p.title, p.year)}),
]


@pytest.mark.parametrize(("wording", "names", "read", "expected"), KINDS, ids=[k[0][:30] for k in KINDS])
def test_each_kind_for_every_name_of_its_kind(fixture_kg: OxigraphKG, wording: str, names: tuple[str, ...],
                                              read: Callable[[set[str]], set[str]],
                                              expected: Callable[[str], set[str]]) -> None:
    for name in names:
        question = wording.format(name)
        if not expected(name):  # nothing to list: answered with nothing, or declined, never with something
            done = IntentStep().review(question, Generation("adapter", None), [], fixture_kg).generation
            assert not done.sparql or not answer_of(fixture_kg, done.sparql), question
            continue
        assert read(_things(question, fixture_kg)) == expected(name), question


def test_the_field_of_every_paper_and_the_field_with_most_papers(fixture_kg: OxigraphKG) -> None:
    for paper in PAPERS:
        assert _things(f'what field is the paper "{paper.title}" in', fixture_kg) == {paper.field}
    counts = Counter(p.field for p in PAPERS)
    top = max(counts.values())
    assert _things("which research field has the most papers?", fixture_kg) & set(counts) == \
        {f for f, n in counts.items() if n == top}


def test_the_newest_and_the_oldest_paper_of_every_problem(fixture_kg: OxigraphKG) -> None:
    for problem in PROBLEMS:
        years = {p.year: p.title for p in PAPERS if any(c.problem == problem for c in p.contributions)}
        newest, oldest = max(years), min(years)
        if list(years.values()).count(years[newest]) == 1:
            assert years[newest] in _things(f"most recent paper about {problem}?", fixture_kg), problem
        assert years[oldest] in _things(f"earliest paper on {problem}", fixture_kg) or \
            sum(1 for p in PAPERS if p.year == oldest) > 1, problem


def test_the_oldest_and_newest_paper_and_datasets_of_one_metric_but_not_another(fixture_kg: OxigraphKG) -> None:
    by_year = sorted(PAPERS, key=lambda p: p.year)
    oldest = {p.title for p in PAPERS if p.year == by_year[0].year}  # one of them, if several share the year
    newest = {p.title for p in PAPERS if p.year == by_year[-1].year}
    assert _titles(_things("what's the oldest paper in the graph?", fixture_kg)) & oldest
    assert _titles(_things("newest paper?", fixture_kg)) & newest
    metrics = sorted({r.metric for _, _, _, r in gold.results()})
    answered = 0
    for one, other in zip(metrics, metrics[1:]):
        expected = {d for _, _, d, r in gold.results() if r.metric == one} - \
            {d for _, _, d, r in gold.results() if r.metric == other}
        done = IntentStep().review(f"which datasets report {one} but not {other}", Generation("adapter", None), [],
                                   fixture_kg).generation
        found = answer_of(fixture_kg, done.sparql) if done.sparql else set()
        assert not isinstance(found, bool) and {v for row in found for v in row} & set(DATASETS) == expected, one
        answered += bool(expected)
    assert answered  # some pairs of metrics have datasets to list, not only nothing


def test_papers_between_two_years_both_years_kept(fixture_kg: OxigraphKG) -> None:
    years = gold.years()
    for first, last in zip(years, years[2:]):
        within = {p.title for p in PAPERS if first <= p.year <= last}
        assert _titles(_things(f"all papers from between {first} and {last}", fixture_kg)) == within
        for field in FIELDS:
            asked = f"papers of the {field} field published between {first} and {last} (inclusive)"
            done = IntentStep().review(asked, Generation("adapter", None), [], fixture_kg).generation
            found = answer_of(fixture_kg, done.sparql) if done.sparql else set()
            assert not isinstance(found, bool)
            assert {v for row in found for v in row} & {p.title for p in PAPERS} == within & gold.papers_in(field)


def test_the_top_two_on_an_error_rate_are_the_lowest(fixture_kg: OxigraphKG) -> None:
    board = gold.scores("LibriVoice (clean)", "Word Error Rate (WER)")
    lowest = sorted(board, key=lambda row: gold.number(row[1]) or 0.0)[:2]
    got = _things("top 2 models on librivoice (clean) by Word Error Rate (WER)", fixture_kg)
    assert {m for m, _ in lowest} <= got and len(got & {m for m, _ in board}) == 2


def test_a_years_models_a_fields_datasets_and_the_papers_with_code(fixture_kg: OxigraphKG) -> None:
    """'which models showed up in papers from Y', 'how many datasets does the F field use', 'how many papers have a
    code link': each from the graph's own papers, counted without duplicates."""
    for year in gold.years():
        models = {c.model for p in PAPERS if p.year == year for c in p.contributions if c.model}
        if models:
            assert _things(f"which models showed up in papers from {year}?", fixture_kg) == models, year
    for field in FIELDS:
        datasets = {b.dataset for p in PAPERS if p.field == field for c in p.contributions for b in c.benchmarks}
        if datasets:
            assert _things(f"how many datasets does the {field} field use", fixture_kg) == {str(len(datasets))}
            assert _things(f"which datasets do {field} papers use?", fixture_kg) == datasets, field
    coded = {p.title for p in PAPERS if any(c.code for c in p.contributions)}
    assert _things("how many papers in total have a code link", fixture_kg) == {str(len(coded))}


def test_a_range_typed_with_thru_and_incl_both_keeps_both_years(fixture_kg: OxigraphKG) -> None:
    years = gold.years()
    first, last = years[0], years[2]
    within = {p.title for p in PAPERS if first <= p.year <= last}
    assert _titles(_things(f"papers published {first} thru {last} (incl both), with the year", fixture_kg)) == within


def test_a_problems_models_never_run_on_a_dataset_and_a_datasets_models_never_scored_by_a_metric(
        fixture_kg: OxigraphKG) -> None:
    asked = 0
    for problem in PROBLEMS:
        for dataset in DATASETS:
            left = gold.models_of_problem(problem) - gold.models_on(dataset)
            if left and left != gold.models_of_problem(problem):
                question = f"which {problem} models were never evaluated on {dataset}?"
                assert _things(question, fixture_kg) == left, question
                asked += 1
    for dataset, metric in gold.boards():
        scored = {c.model for _, c, d, r in gold.results() if d == dataset and r.metric == metric}
        left = gold.models_on(dataset) - scored
        if left:
            question = f"which models on {dataset} have never reported {metric} there?"  # (the fixture has a Score)
            assert _things(question, fixture_kg) == left, question
            asked += 1
    assert asked >= 3


def test_the_whole_graphs_papers_and_models_counted_and_nothing_counted_for_a_name_it_lacks(
        fixture_kg: OxigraphKG) -> None:
    assert _things("how many papers are there", fixture_kg) == {str(len({p.title for p in PAPERS}))}
    assert _things("how many models are there in total?", fixture_kg) == {str(len(set(MODELS)))}
    for unknown in ("how many papers use the dataset Glorp Bench?", "how many papers did smith write"):
        done = IntentStep().review(unknown, Generation("adapter", None), [], fixture_kg).generation
        assert done.sparql is None, unknown  # a word the graph has no name for: no count of everything


def test_the_models_and_papers_without_code_anywhere_in_the_graph(fixture_kg: OxigraphKG) -> None:
    models = {c.model for p in PAPERS for c in p.contributions if c.model}
    assert _things("which models never had any code released, in any paper?", fixture_kg) == \
        models - gold.coded_models()
    assert _titles(_things("papers w/o code", fixture_kg)) == \
        {p.title for p in PAPERS if not any(c.code for c in p.contributions)}


def test_who_scored_under_or_over_a_number_is_the_models_that_did(fixture_kg: OxigraphKG) -> None:
    for dataset, metric in gold.boards():
        rows = gold.scores(dataset, metric)
        if len(rows) < 2:
            continue
        cut = (gold.number(rows[0][1]) or 0.0) - 0.001  # only the best is above it
        said = f"{cut:.3f}"
        assert {rows[0][0]} <= _things(f"who got over {said} {metric} on {dataset}?", fixture_kg)
        assert rows[-1][0] in _things(f"anything under {said} {metric} on {dataset}?", fixture_kg)


def test_code_asked_with_or_not_is_answered_yes_or_no(fixture_kg: OxigraphKG) -> None:
    for model in sorted({c.model for p in PAPERS for c in p.contributions if c.model})[:6]:
        done = IntentStep().review(f"is there code out for {model} or not", Generation("adapter", None), [],
                                   fixture_kg).generation
        assert done.sparql and answer_of(fixture_kg, done.sparql) is (model in gold.coded_models()), model


def test_a_score_range_holds_both_ends(fixture_kg: OxigraphKG) -> None:
    for dataset, metric in gold.boards():
        rows = gold.scores(dataset, metric)
        values = sorted(v for _, raw in rows if (v := gold.number(raw)) is not None)
        if len(values) < 3:
            continue
        low, high = values[0], values[-2]  # every model but the best
        expected = {m for m, raw in rows if low <= (gold.number(raw) or 0.0) <= high}
        found = _things(f"which models scored between {low} and {high} {metric} on {dataset}", fixture_kg)
        assert expected <= found and rows[0][0] not in found - expected, (dataset, metric)


def test_a_metrics_average_and_best_on_each_dataset(fixture_kg: OxigraphKG) -> None:
    for metric in sorted({m for _, m in gold.boards()}):
        datasets = [d for d, m in gold.boards() if m == metric]
        averages = _things(f"mean {metric} per dataset", fixture_kg)
        for dataset in datasets:
            assert dataset in averages, (metric, dataset)
        highest = _things(f"highest {metric} for each dataset", fixture_kg)
        for dataset in datasets:
            best = gold.scores(dataset, metric)
            assert not best or any(abs(float(v) - (gold.number(best[0][1]) or 0.0)) < 1e-6
                                   for v in highest if v.replace(".", "", 1).isdigit()), (metric, dataset)


def test_who_is_best_on_each_dataset_is_answered_with_the_models(fixture_kg: OxigraphKG) -> None:
    """'for every dataset that reports X, who's best': each dataset's model, never the scores alone."""
    models = set(MODELS)
    for metric in ("Accuracy", "F1"):
        found = _things(f"for every dataset that reports {metric}, who's best?", fixture_kg)
        assert found & models, (metric, found)


def test_the_contributions_without_code_counted(fixture_kg: OxigraphKG) -> None:
    expected = sum(1 for p in PAPERS for c in p.contributions if not c.code)
    assert _things("how many contributions are missing a source code link", fixture_kg) == {str(expected)}
