"""More kinds of question, composed (issue 39): each asked about every name of its kind in the fixture graph, in a
wording of its own, and its answer equal to the one computed from the graph's records (tests/intent/gold.py)."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from pipeline.intent.step import IntentStep
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.records import Generation
from pipeline.sparql.direction import lower_is_better
from standins.orkg_fixture import DATASETS, FIELDS, MODELS, PAPERS, PROBLEMS
from tests.intent import gold
from tests.intent.conftest import answer_of

Answer = set[tuple[str, ...]] | bool


def _asked(question: str, kg: OxigraphKG) -> Answer:
    """The intent step's answer when no stored query came close (no query written)."""
    done = IntentStep().review(question, Generation("adapter", None), [], kg).generation
    assert done.generator == "intent" and done.sparql, question
    return answer_of(kg, done.sparql)


def _one(values: set[str]) -> set[tuple[str, ...]]:
    return {(v,) for v in values}


KINDS: list[tuple[str, tuple[str, ...], Callable[[str], Answer]]] = [
    ("What is the number of models that have results on {} ?", DATASETS, lambda d: {(str(len(gold.models_on(d))),)}),
    ("What metrics do papers report on {} ?", tuple(d for d in DATASETS if gold.metrics_of(d)),
     lambda d: _one(gold.metrics_of(d))),
    ("On how many datasets has {} been tested?", MODELS, lambda m: {(str(len(gold.datasets_of(m))),)}),
    ("Where is the code of {} ?", tuple(m for m in MODELS if gold.code_of(m)), lambda m: _one(gold.code_of(m))),
    ("What models address the {} problem?", PROBLEMS, lambda p: _one(gold.models_of_problem(p))),
    ("What datasets are used for {} ?", PROBLEMS, lambda p: _one(gold.datasets_of_problem(p))),
    ("How many papers are in the {} research field?", FIELDS, lambda f: {(str(len(gold.papers_in(f))),)}),
    ('When was the paper "{}" published?', tuple(p.title for p in PAPERS),
     lambda t: {(next(p.year for p in PAPERS if p.title == t),)}),
    ('when was "{}" published', tuple(p.title for p in PAPERS),  # a year asked for, no kind word
     lambda t: {(next(p.year for p in PAPERS if p.title == t),)}),
]


@pytest.mark.parametrize(("wording", "names", "expected"), KINDS, ids=[k[0][:30] for k in KINDS])
def test_each_kind_for_every_name_of_its_kind(fixture_kg: OxigraphKG, wording: str, names: tuple[str, ...],
                                              expected: Callable[[str], Answer]) -> None:
    for name in names:
        question = wording.format(name).replace(" ?", "?")
        assert _asked(question, fixture_kg) == expected(name), question


def test_the_top_three_and_the_highest_value_of_every_leaderboard(fixture_kg: OxigraphKG) -> None:
    for dataset, metric in gold.boards():
        board = gold.scores(dataset, metric)
        top = _asked(f"What are the top 3 models on {dataset} by {metric}?", fixture_kg)
        assert not isinstance(top, bool) and len(top) == min(3, len(board)), (dataset, metric)
        cut = gold.number(board[min(3, len(board)) - 1][1]) or 0.0
        rows = {tuple(sorted(row)) for row in board}
        assert {tuple(sorted((m, v))) for m, v in board if (gold.number(v) or 0.0) > cut} <= top <= rows
        best = _asked(f"What is the maximum {metric} reached on {dataset}?", fixture_kg)
        assert best == {(board[0][1],)}, (dataset, metric)


def test_a_kind_not_covered_is_declined_with_what_can_be_asked_instead(fixture_kg: OxigraphKG) -> None:
    """'the most common metric' is no list of metrics: nothing composed, and the stored question offered."""
    review = IntentStep().review("What is the most common metric on the LoreQA Reading Set?",
                                 Generation("adapter", None), [], fixture_kg)
    assert review.generation.sparql is None


def test_a_year_the_question_states_restricts_the_answer(fixture_kg: OxigraphKG) -> None:
    for problem in PROBLEMS:
        for year in gold.years():
            question = f"What papers about {problem} were published in {year}?"
            assert _asked(question, fixture_kg) == _one(gold.papers_of_problem_in(problem, year)), question
    for field in FIELDS:
        for year in gold.years():
            count = len({p.title for p in PAPERS if p.field == field and p.year == year})
            question = f"How many papers in the {field} field date from {year}?"
            assert _asked(question, fixture_kg) == {(str(count),)}, question


def test_a_comparison_with_a_year_is_composed_as_that_comparison_never_as_that_year(fixture_kg: OxigraphKG) -> None:
    """'after 2020' is not 'in 2020': the year pair is composed comparing, each way, bounds in or out as said."""
    asked = "Which papers on Question Answering were published {} {}?"
    kept = {"after": lambda y, at: y > at, "before": lambda y, at: y < at, "since": lambda y, at: y >= at,
            "until": lambda y, at: y <= at, "in": lambda y, at: y == at}
    for year in gold.years()[1:-1]:
        for word, keeps in kept.items():
            want = {p.title for p in PAPERS if keeps(int(p.year), int(year))
                    and any(c.problem == "Question Answering" for c in p.contributions)}
            assert _asked(asked.format(word, year), fixture_kg) == _one(want), (word, year)
    review = IntentStep().review("How many papers were published after 2019.", Generation("adapter", None), [],
                                 fixture_kg)  # a year ending the sentence is a year
    assert review.generation.sparql is not None and "> 2019" in review.generation.sparql


def test_who_is_answered_by_the_model_not_by_its_value(fixture_kg: OxigraphKG) -> None:
    """'second place' counted from the best: the second lowest on an error rate."""
    for dataset, metric in gold.boards():
        board = sorted(gold.scores(dataset, metric), key=lambda row: gold.number(row[1]) or 0.0,
                       reverse=not lower_is_better(metric))
        if len(board) < 2 or gold.number(board[1][1]) is None or board[1][1] in {v for _, v in board[2:]}:
            continue
        who = _asked(f"who is in second place on {dataset} by {metric}", fixture_kg)
        assert not isinstance(who, bool) and len(who) == 1, (dataset, metric)  # one model, not a leaderboard
        assert board[1][0] in next(iter(who)), (dataset, metric, who)


def test_papers_of_a_dataset_and_of_a_field_in_a_year(fixture_kg: OxigraphKG) -> None:
    for dataset in DATASETS:
        if gold.papers_on(dataset):
            question = f"Which papers report results on {dataset}?"
            answer = _asked(question, fixture_kg)  # each paper and its title
            assert not isinstance(answer, bool) and len(answer) == len(gold.papers_on(dataset)), question
            assert {v for row in answer for v in row if not v.startswith("http")} == gold.papers_on(dataset)
    for field in FIELDS:
        for year in gold.years():
            titles = {p.title for p in PAPERS if p.field == field and p.year == year}
            # the field named before the papers asked for is a field's, and papers are asked
            for question in (f"Show me the papers from {year} in the {field} field.",
                             f"Which {field} papers came out in {year}?"):
                if titles:
                    assert _asked(question, fixture_kg) == _one(titles), question


def test_the_average_of_every_leaderboard_and_no_average_for_a_list(fixture_kg: OxigraphKG) -> None:
    for dataset, metric in gold.boards():
        mean = _asked(f"What is the average {metric} reported on {dataset}?", fixture_kg)
        assert not isinstance(mean, bool) and len(mean) == 1, (dataset, metric)
        assert abs(float(next(iter(mean))[0]) - (gold.average(dataset, metric) or 0.0)) < 1e-6, (dataset, metric)
    listed = _asked("Which models have an Accuracy result on Story Cloze Test?", fixture_kg)
    assert not isinstance(listed, bool)  # a list, each model (with its score): no average composed for it
    assert {v for row in listed for v in row} >= gold.models_on("Story Cloze Test")


def test_the_models_of_one_dataset_but_not_of_another(fixture_kg: OxigraphKG) -> None:
    for first in DATASETS:
        for second in DATASETS:
            models = gold.models_on(first)
            if first == second or not models:
                continue
            question = f"Which models were evaluated on {first} but not on {second}?"
            assert _asked(question, fixture_kg) == _one(models - gold.models_on(second)), question


def test_who_leads_with_no_ranking_read_is_not_answered_by_a_list(fixture_kg: OxigraphKG) -> None:
    """'leads', 'tops', 'state of the art' are not read as a ranking (which end is best depends on the metric):
    nothing is composed, rather than every model of the leaderboard."""
    review = IntentStep().review("who leads on Story Cloze Test for Accuracy?", Generation("adapter", None), [],
                                 fixture_kg)
    assert review.generation.sparql is None


def test_the_highest_value_asked_of_a_query_giving_the_model_is_the_value(fixture_kg: OxigraphKG) -> None:
    """'What is the highest Accuracy reported on X?' asks a value: a written query naming the best model is not
    run, and the value of its ranking is composed in its place."""
    from tests.intent.test_step_model import TIED_BEST

    for dataset, metric in gold.boards():
        written = TIED_BEST.format(dataset=dataset, metric=metric, order="DESC", extra="")
        question = f"What is the highest {metric} reported on {dataset}?"
        done = IntentStep().review(question, Generation("adapter", written), [], fixture_kg).generation
        assert done.generator == "intent" and done.sparql, question
        assert answer_of(fixture_kg, done.sparql) == {(gold.scores(dataset, metric)[0][1],)}, question


def test_the_head_of_the_ask_is_what_is_composed(fixture_kg: OxigraphKG) -> None:
    for dataset in DATASETS:
        if gold.metrics_of(dataset):
            question = f"Can you list the metrics used to evaluate models on the {dataset} dataset?"
            assert _asked(question, fixture_kg) == _one(gold.metrics_of(dataset)), question


def test_the_top_one_asked_is_never_answered_by_every_one(fixture_kg: OxigraphKG) -> None:
    for dataset, metric in gold.boards():
        review = IntentStep().review(f"The top model on {dataset} in terms of {metric}?",
                                     Generation("adapter", None), [], fixture_kg)
        if review.generation.sparql is not None:  # the top one, and any tied with it: never every one
            top = answer_of(fixture_kg, review.generation.sparql)
            scores = {m: v for m, s in gold.scores(dataset, metric) if (v := gold.number(s)) is not None}
            top_value = (min if "error" in metric.lower() else max)(scores.values()) if scores else None
            best = {m for m, v in scores.items() if v == top_value}
            assert not isinstance(top, bool) and {v for row in top for v in row if not v.startswith("http")} == best, \
                (dataset, metric)
        listed = _asked(f"Show each model with its {metric} on {dataset}", fixture_kg)
        every = {(c.model, r.value) for _, c, d, r in gold.results() if d == dataset and r.metric == metric and c.model}
        assert not isinstance(listed, bool) and len(listed) == len(every), (dataset, metric)


def test_papers_of_a_year_alone_and_their_count(fixture_kg: OxigraphKG) -> None:
    for year in gold.years():
        titles = {p.title for p in PAPERS if p.year == year}
        listed = _asked(f"Which papers were published in {year}.", fixture_kg)  # a year ending the sentence
        assert not isinstance(listed, bool) and {v for row in listed for v in row if not v.startswith("http")} \
            == titles, year
        assert _asked(f"How many papers are from {year}?", fixture_kg) == {(str(len(titles)),)}, year


def test_models_never_run_on_another_dataset(fixture_kg: OxigraphKG) -> None:
    first, second = next((a, b) for a in DATASETS for b in DATASETS
                         if a != b and gold.models_on(a) & gold.models_on(b) and gold.models_on(a) - gold.models_on(b))
    question = f"Show me models evaluated on {first} that were never run on {second}"
    assert _asked(question, fixture_kg) == _one(gold.models_on(first) - gold.models_on(second))


def test_a_mean_is_computed_never_answered_by_a_ranked_list(fixture_kg: OxigraphKG) -> None:
    from tests.intent.test_step_model import TIED_BEST

    dataset, metric = next(iter(gold.boards()))
    listed = TIED_BEST.format(dataset=dataset, metric=metric, order="DESC", extra="").replace("LIMIT 1", "")
    question = f"What's the mean {metric} across models on {dataset}?"
    done = IntentStep().review(question, Generation("adapter", listed), [], fixture_kg).generation
    assert done.generator == "intent" and done.sparql and "AVG" in done.sparql, done


def test_the_kind_asked_after_which_is_the_one_answered(fixture_kg: OxigraphKG) -> None:
    """'among X papers, which model …' asks a model (the papers only say whose); 'which paper … and what field …'
    is not answered with the field alone."""
    for field in FIELDS:
        datasets: dict[str, set[str]] = {}
        for paper in PAPERS:
            for cont in paper.contributions:
                if paper.field == field and cont.model:
                    datasets.setdefault(cont.model, set()).update(b.dataset for b in cont.benchmarks)
        if not datasets:
            continue
        top = max(len(d) for d in datasets.values())
        found = _asked(f"Among {field} papers, which model was evaluated on the most datasets?", fixture_kg)
        assert not isinstance(found, bool)
        models = {v for row in found for v in row if not v.startswith("http") and not v.isdigit()}
        assert models and models <= {m for m, d in datasets.items() if len(d) == top}, field
    done = IntentStep().review("which paper introduced CoherenceNet and what field is it in",
                               Generation("adapter", None), [], fixture_kg).generation
    assert done.sparql is None


def test_what_a_model_got_on_a_dataset_no_metric_named_is_its_score_by_each_metric(fixture_kg: OxigraphKG) -> None:
    held = {(c.model, d) for _, c, d, _ in gold.results() if c.model}
    assert len(held) >= 5
    for model, dataset in sorted(held):
        scores = {tuple(sorted((r.metric, r.value))) for _, c, d, r in gold.results()
                  if c.model == model and d == dataset}
        for wording in ("what did {} get on {}?", "how did {} do on {}"):
            question = wording.format(model, dataset)
            assert _asked(question, fixture_kg) == scores, question


def test_two_models_typed_against_each_other_on_a_leaderboard_get_both_scores(fixture_kg: OxigraphKG) -> None:
    asked = 0
    for dataset, metric in gold.boards():
        board = gold.scores(dataset, metric)
        models = sorted({m for m, _ in board})
        if len(models) < 2:
            continue
        a, b = models[:2]
        want = {tuple(sorted((m, v))) for m, v in board if m in (a, b)}
        assert _asked(f"{a} vs {b} on {dataset} by {metric}?", fixture_kg) == want, (dataset, metric)
        asked += 1
    assert asked >= 3


def test_how_far_apart_two_models_are_on_a_leaderboard(fixture_kg: OxigraphKG) -> None:
    """'how much higher is A's M than B's on D', 'the difference between A and B on D by M': one number, apart."""
    asked = 0
    for dataset, metric in gold.boards():
        board = dict(gold.scores(dataset, metric))
        if len(board) < 2 or len(gold.scores(dataset, metric)) != len(board):
            continue  # a model with two scores there has no one difference
        a, b = sorted(board)[:2]
        apart = abs((gold.number(board[a]) or 0.0) - (gold.number(board[b]) or 0.0))
        for question in (f"how much higher is {a}'s {metric} than {b}'s on {dataset}?",
                         f"what's the difference between {a} and {b} on {dataset} by {metric}"):
            got = _asked(question, fixture_kg)
            assert not isinstance(got, bool) and len(got) == 1, question
            assert abs(float(next(iter(got))[0]) - apart) < 1e-9, question
        asked += 1
    assert asked >= 3


def test_the_highest_score_of_a_metric_anywhere_with_who_and_where(fixture_kg: OxigraphKG) -> None:
    metrics = sorted({r.metric for _, _, _, r in gold.results() if gold.number(r.value) is not None})
    assert len(metrics) >= 3  # every one below has a scored model: none is skipped
    for metric in metrics:
        rows = [(c.model, d, r.value) for _, c, d, r in gold.results()
                if r.metric == metric and c.model and gold.number(r.value) is not None]
        assert rows, metric
        top = max(gold.number(v) or 0.0 for _, _, v in rows)
        want = {tuple(sorted(row)) for row in rows if gold.number(row[2]) == top}
        got = _asked(f"what's the highest {metric} anyone reported, and for which model on which dataset?", fixture_kg)
        assert got == want, metric


def test_papers_with_more_than_a_number_of_contributions(fixture_kg: OxigraphKG) -> None:
    from pipeline.question import tidy
    from standins.orkg_fixture import PAPERS

    for bound, holds in (("more than one", lambda n: n > 1), ("at least three", lambda n: n >= 3)):
        want = {(p.title, str(len(p.contributions))) for p in PAPERS if holds(len(p.contributions))}
        got = _asked(tidy(f"which papers have {bound} contributions?"), fixture_kg)
        assert got == {tuple(sorted(row)) for row in want}, bound

