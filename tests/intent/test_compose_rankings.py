"""Bounds and rankings of the whole graph composed over the fixture graph (no query written), each answer compared
with one computed in Python from the fixture's records (tests/intent/gold.py): 'above 60', 'the most datasets',
'the earliest paper'. Ties are left out: a ranking of one row is asked only where the top is one thing."""
from __future__ import annotations

import operator
from collections import Counter

from pipeline.intent.step import IntentStep
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.records import Generation
from pipeline.sparql.direction import lower_is_better
from standins.orkg_fixture import PAPERS, PROBLEMS
from tests.intent import gold
from tests.intent.conftest import answer_of


def _rows(question: str, kg: OxigraphKG) -> set[tuple[str, ...]]:
    done = IntentStep().review(question, Generation("adapter", None), [], kg).generation
    assert done.generator == "intent" and done.sparql, question
    answer = answer_of(kg, done.sparql)
    assert not isinstance(answer, bool), question
    return answer


def _things(rows: set[tuple[str, ...]]) -> set[str]:
    return {v for row in rows for v in row if not v.startswith("http")}


def _top(counts: Counter[str]) -> str | None:
    """The one thing counted most; None on a tie."""
    (first, n), *rest = counts.most_common(2) or [("", 0)]
    return first if not rest or rest[0][1] < n else None


def test_a_bound_on_a_score_keeps_the_models_past_it_each_way(fixture_kg: OxigraphKG) -> None:
    for dataset, metric in gold.boards():
        values = sorted({v for _, s in gold.scores(dataset, metric) if (v := gold.number(s)) is not None})
        bound = values[len(values) // 2]
        for words, keeps in (("more than", operator.gt), ("below", operator.lt), ("at least", operator.ge)):
            want = {m for m, s in gold.scores(dataset, metric)
                    if (v := gold.number(s)) is not None and keeps(v, bound)}
            shown = f"{bound:g}"
            rows = _rows(f"Which models reach {words} {shown} {metric} on {dataset}?", fixture_kg)
            assert want <= _things(rows) and not _things(rows) - want - {s for _, s in gold.scores(dataset, metric)}, \
                (dataset, metric, words)


def test_no_bound_is_composed_for_a_question_that_states_none(fixture_kg: OxigraphKG) -> None:
    dataset, metric = gold.boards()[0]
    done = IntentStep().review(f"Which models have a {metric} result on {dataset}?", Generation("adapter", None),
                               [], fixture_kg).generation
    assert done.sparql is None or not any(op in done.sparql for op in (" > ", " < ", " >= ", " <= "))


def test_the_dataset_the_model_and_the_year_with_the_most(fixture_kg: OxigraphKG) -> None:
    models = Counter({d: len(gold.models_on(d)) for d in {d for _, _, d, _ in gold.results()}})
    datasets = Counter({m: len(gold.datasets_of(m)) for m in {c.model for _, c, _, _ in gold.results() if c.model}})
    years = Counter(p.year for p in PAPERS)
    for question, counts in (("Which dataset has the most models evaluated on it?", models),
                             ("which model has been run on the largest number of datasets", datasets),
                             ("In which year were the most papers published?", years)):
        top = _top(counts)
        if top is not None:
            assert top in {v for row in _rows(question, fixture_kg) for v in row}, question


def test_the_earliest_paper_on_each_problem(fixture_kg: OxigraphKG) -> None:
    for problem in PROBLEMS:
        dated = sorted((int(p.year), p.title) for p in PAPERS if any(c.problem == problem for c in p.contributions))
        if dated and (len(dated) == 1 or dated[0][0] < dated[1][0]):
            assert dated[0][1] in _things(_rows(f"What is the earliest paper on {problem}?", fixture_kg)), problem


def test_the_most_commonly_used_is_never_composed_as_the_top_one(fixture_kg: OxigraphKG) -> None:
    """SciQA's 'the most commonly used datasets for X' lists every one used: no ranking pair answers it."""
    for problem in PROBLEMS:
        done = IntentStep().review(f"What are the most commonly used benchmark datasets for the {problem} research "
                                   "field?", Generation("adapter", None), [], fixture_kg).generation
        assert done.sparql is None or "LIMIT 1" not in done.sparql, problem


def test_best_follows_the_metric_and_is_not_guessed_where_its_label_does_not_say() -> None:
    """'best' by a median RMSD is its lowest; by MPJPE (a label that says neither way) no ranking is composed, and
    the reply names the words."""
    from pathlib import Path

    eval_dir = Path(__file__).resolve().parents[1] / "data" / "eval"
    docking = OxigraphKG(eval_dir / "fresh-c.nt", row_cap=1000)
    done = IntentStep().review("best model on DockBench-Hard in terms of Median RMSD (Å)",
                               Generation("adapter", None), [], docking).generation
    assert done.sparql is not None and "ASC(" in done.sparql.replace(" ", ""), done.sparql
    pose = OxigraphKG(eval_dir / "taught.nt", row_cap=1000)
    unsure = IntentStep().review("which model is best on Kinéma-3D by MPJPE (mm)", Generation("adapter", None),
                                 [], pose).generation
    assert unsure.sparql is None and "MPJPE (mm)" in unsure.explanation and "lower or a higher" in unsure.explanation
    # said by the question itself: ranked that way, nothing asked back
    said = IntentStep().review("which model is best on Kinéma-3D by MPJPE (mm)? lower is better",
                               Generation("adapter", None), [], pose).generation
    assert said.sparql is not None and "ASC(" in said.sparql.replace(" ", ""), said.explanation


def test_the_best_model_and_its_score_asked_at_once_gives_both(fixture_kg: OxigraphKG) -> None:
    """'who's best … and what is its value?': the model at the top and its value, not either alone; asked without
    the value, the model alone. ('the score' would name the fixture's metric called Score.)"""
    from pipeline.sparql.direction import direction_known, lower_is_better

    asked = 0
    for dataset, metric in gold.boards():
        top = gold.extreme(dataset, metric, not lower_is_better(metric))
        if len(top) != 1 or not direction_known(metric):
            continue  # a tie, or a label that does not say which way is better (declined: another test)
        (model,) = top
        value = next(v for m, v in gold.scores(dataset, metric) if m == model)
        for asked_so in (f"who's best on {dataset} by {metric}, and what is its value?",
                         f"best {metric} on {dataset}? model + number pls",  # the two asked in other words
                         f"which model had the best {metric} on {dataset} and what was it",
                         f"whats the best {metric} on {dataset} and who got it"):
            both = _things(_rows(asked_so, fixture_kg))
            assert both == {model, value}, (asked_so, both)
        alone = _things(_rows(f"which model is best on {dataset} by {metric}?", fixture_kg))
        assert alone == {model}, (dataset, metric, alone)
        asked += 1
    assert asked >= 3


def test_models_beating_a_model_score_above_it_or_below_it_on_an_error_rate(fixture_kg: OxigraphKG) -> None:
    """'beat' is higher on most metrics and lower on an error rate; a tie beats nothing; asked yes or no alike."""
    for dataset, metric in gold.boards():
        scores = {m: v for m, s in gold.scores(dataset, metric) if (v := gold.number(s)) is not None}
        if len(scores) < 2:
            continue
        lower = "error" in metric.lower()
        for rival, theirs in scores.items():
            want = {m for m, v in scores.items() if (v < theirs if lower else v > theirs)}
            rows = _rows(f"which models beat {rival} on {dataset} by {metric}?", fixture_kg)
            assert _things(rows) == want, (rival, dataset, metric)
            other = next(m for m in scores if m != rival)
            done = IntentStep().review(f"does {other} outperform {rival} on {dataset} by {metric}?",
                                       Generation("adapter", None), [], fixture_kg).generation
            beaten = scores[other] < theirs if lower else scores[other] > theirs
            assert done.sparql and answer_of(fixture_kg, done.sparql) is beaten, (other, rival, dataset)


def test_the_earliest_and_latest_paper_of_a_field_and_its_papers_strictly_between_two_years(
        fixture_kg: OxigraphKG) -> None:
    """'the oldest paper in NLP', 'NLP papers strictly between 2017 and 2020': the ends of a range left out."""
    from standins.orkg_fixture import FIELDS

    for field in FIELDS:
        dated = sorted((int(p.year), p.title) for p in PAPERS if p.field == field)
        if len(dated) > 1 and dated[0][0] < dated[1][0]:
            assert dated[0][1] in _things(_rows(f"what is the oldest paper in the {field} field?", fixture_kg))
        if len(dated) > 1 and dated[-1][0] > dated[-2][0]:
            assert dated[-1][1] in _things(_rows(f"name the newest paper in {field}", fixture_kg))
        low, high = dated[0][0], dated[-1][0]
        if high - low >= 2:
            inside = {t for y, t in dated if low < y < high}
            for asked in (f"{field} papers strictly between {low} and {high}",
                          f"{field} papers that came out after {low} but before {high}?"):  # each end as worded
                rows = _rows(asked, fixture_kg)
                assert _things(rows) - {str(y) for y, _ in dated} == inside, asked


def test_what_came_out_in_a_year_is_its_papers(fixture_kg: OxigraphKG) -> None:
    year = PAPERS[0].year
    rows = _rows(f"what came out in {year}?", fixture_kg)
    assert _things(rows) - {year} == {p.title for p in PAPERS if p.year == year}


def test_doing_better_than_a_model_is_beating_it_and_the_least_accurate_is_the_lowest_accuracy(
        fixture_kg: OxigraphKG) -> None:
    dataset, metric = next((d, m) for d, m in gold.boards() if m == "Accuracy" and len(gold.scores(d, m)) > 2)
    scores = {m: v for m, s in gold.scores(dataset, metric) if (v := gold.number(s)) is not None}
    rival = sorted(scores, key=lambda m: scores[m])[1]
    rows = _rows(f"which models did better than {rival} on {dataset} by {metric}?", fixture_kg)
    assert _things(rows) == {m for m, v in scores.items() if v > scores[rival]}
    lowest = min(scores.values())
    rows = _rows(f"which is the least acurate model on {dataset}?", fixture_kg)
    assert _things(rows) - {s for _, s in gold.scores(dataset, metric)} == {m for m, v in scores.items()
                                                                            if v == lowest}


def test_is_there_any_paper_before_a_year_is_whether_the_list_has_one(fixture_kg: OxigraphKG) -> None:
    """No pair asks it: the pair listing those papers, asked whether any exist (yes and no both seen)."""
    seen = set()
    for problem in PROBLEMS:
        years = sorted(int(p.year) for p in PAPERS if any(c.problem == problem for c in p.contributions))
        for year in {years[0], years[0] + 1} if years else set():
            done = IntentStep().review(f"is there any paper on {problem} published before {year}?",
                                       Generation("adapter", None), [], fixture_kg).generation
            assert done.sparql and done.sparql.lstrip().upper().startswith(("ASK", "PREFIX")), problem
            said = answer_of(fixture_kg, done.sparql)
            assert said is (years[0] < year), (problem, year)
            seen.add(said)
    assert seen == {True, False}


def test_a_place_in_a_ranking_asked_without_a_kind_word_is_the_models_there(fixture_kg: OxigraphKG) -> None:
    """'whos 2nd on X by M', 'top 2 on X by M, with the scores': a leaderboard's places are its models (with their
    scores when asked), never a bare score."""
    from pipeline.sparql.direction import direction_known, lower_is_better

    asked = 0
    for dataset, metric in gold.boards():
        ranked = sorted(((v, m) for m, v in gold.scores(dataset, metric) if gold.number(v) is not None),
                        key=lambda p: gold.number(p[0]) or 0.0, reverse=not lower_is_better(metric))
        numbers = [gold.number(v) for v, _ in ranked]
        if len(ranked) < 3 or len(set(numbers[:3])) < 3 or not direction_known(metric):
            continue  # ties at the top or a direction the label does not say: other tests
        second = _things(_rows(f"whos 2nd on {dataset} by {metric}?", fixture_kg))
        assert second == {ranked[1][1]}, (dataset, metric, second)
        top = _rows(f"top 2 on {dataset} by {metric}, with the scores pls", fixture_kg)
        assert _things(top) == {ranked[0][1], ranked[0][0], ranked[1][1], ranked[1][0]}, (dataset, metric, top)
        asked += 1
    assert asked >= 2


def test_the_better_and_the_worse_of_two_named_models(fixture_kg: OxigraphKG) -> None:
    """'is A or B better on D by M': the one of the two whose score is better in the metric's direction (lower on an
    error rate), 'worse' the other; never a third model."""
    asked = 0
    for dataset, metric in gold.boards():
        scored = {m: v for m, s in gold.scores(dataset, metric) if (v := gold.number(s)) is not None}
        if len(scored) < 2 or len(set(scored.values())) < len(scored):
            continue  # ties left out
        (low, _), (high, _) = sorted(scored.items(), key=lambda kv: kv[1])[:1] + \
            sorted(scored.items(), key=lambda kv: kv[1])[-1:]
        better, worse = (low, high) if lower_is_better(metric) else (high, low)
        for question, want in ((f"is {high} or {low} better on {dataset} by {metric}?", better),
                               (f"{low} vs {high} on {dataset} in {metric} - which one is worse", worse)):
            assert _things(_rows(question, fixture_kg)) - {str(scored[want]), f"{scored[want]:g}"} <= {want}, question
            assert want in _things(_rows(question, fixture_kg)), question
        asked += 1
    assert asked >= 3
