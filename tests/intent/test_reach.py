"""The pairs compiled for every two kinds from one table (pipeline/intent/reach.py), run on the fixture graph and
compared with what its records say, computed in Python: which of one kind a named other has, how many, and the one
with the most or the fewest (every one tied there); and the composer choosing them for questions typed otherwise."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

import pytest

from pipeline.intent.reach import reach_pairs
from pipeline.intent.step import IntentStep
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.matching.forms import slot_values
from pipeline.records import Generation
from standins.orkg_fixture import PAPERS
from tests.intent.conftest import answer_of

_VARS = ("model", "dataset", "metric", "problem", "paper", "field")  # the fixture has no venues


def _linked() -> dict[tuple[str, str], dict[str, set[str]]]:
    """For two kinds, each thing of the first and the things of the second it shares a contribution with (a dataset
    and a metric: a benchmark)."""
    out: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for paper in PAPERS:
        for cont in paper.contributions:
            own = {"problem": {cont.problem}, "paper": {paper.title}, "field": {paper.field},
                   "model": {cont.model} if cont.model else set(),
                   "dataset": {b.dataset for b in cont.benchmarks},
                   "metric": {r.metric for b in cont.benchmarks for r in b.results}}
            for one in _VARS:
                for other in _VARS:
                    if {one, other} != {"dataset", "metric"}:
                        for a in own[one]:
                            out[one, other][a] |= own[other]
            for bench in cont.benchmarks:
                for result in bench.results:
                    out["dataset", "metric"][bench.dataset].add(result.metric)
                    out["metric", "dataset"][result.metric].add(bench.dataset)
    return out


def _pairs(prefix: str) -> list[tuple[str, str, str, str]]:
    """(one, other, example name, query) of the pairs whose id begins so."""
    out = []
    for pair in reach_pairs():
        for one in _VARS:
            for other in _VARS:
                if pair.id == prefix.format(one=one, other=other):
                    out.append((one, other, slot_values(pair)[0][0], pair.sparql))
    return out


def _labels(rows: set[tuple[str, ...]] | bool) -> set[str]:
    assert not isinstance(rows, bool)
    return {v for row in rows for v in row if not v.startswith("http")}


def test_which_of_one_kind_a_named_other_has_and_how_many(fixture_kg: OxigraphKG) -> None:
    linked, asked = _linked(), 0
    for template in ("IP-reach-{one}-{other}s", "IP-reach-count-{one}-{other}s"):
        for one, other, example, sparql in _pairs(template):
            for name, want in linked[one, other].items():
                quoted = name.replace("\\", "\\\\").replace('"', '\\"')
                got = answer_of(fixture_kg, sparql.replace(f'"{example}"', f'"{quoted}"'))
                if "count" in template:
                    assert _labels(got) == {str(len(want))}, (one, other, name)
                else:
                    assert _labels(got) == want, (one, other, name)
                asked += 1
    assert asked > 200


@pytest.mark.parametrize("most", [True, False])
def test_the_one_with_the_most_or_the_fewest_and_every_one_tied_there(fixture_kg: OxigraphKG, most: bool) -> None:
    linked = _linked()
    word = "most" if most else "fewest"
    for one in _VARS:
        for other in _VARS:
            pair = next((p for p in reach_pairs() if p.id == f"IP-reach-{one}-{word}-{other}s"), None)
            if pair is None:
                continue
            counts = {a: len(bs) for a, bs in linked[one, other].items() if bs}  # one with none is not counted
            end = (max if most else min)(counts.values())
            got = answer_of(fixture_kg, pair.sparql)
            assert _labels(got) == {a for a, n in counts.items() if n == end} | {str(end)}, (one, other, word)


def test_a_question_typed_otherwise_is_composed_from_the_table(fixture_kg: OxigraphKG) -> None:
    linked = _linked()
    counts = {a: len(bs) for a, bs in linked["field", "dataset"].items() if bs}
    top = max(counts.values())
    done = IntentStep().review("which research field has the most datasets?", Generation("adapter", None), [],
                               fixture_kg).generation
    assert done.generator == "intent" and done.sparql
    assert _labels(answer_of(fixture_kg, done.sparql)) == {a for a, n in counts.items() if n == top} | {str(top)}
    field = next(iter(linked["field", "problem"]))
    done = IntentStep().review(f"how many research problems do {field} papers tackle", Generation("adapter", None),
                               [], fixture_kg).generation
    assert done.sparql and _labels(answer_of(fixture_kg, done.sparql)) == {str(len(linked["field", "problem"][field]))}


@pytest.mark.parametrize(("bound", "holds"), [("more than 1", lambda n: n > 1), ("at least 3", lambda n: n >= 3),
                                              ("2 or more", lambda n: n >= 2), ("fewer than 2", lambda n: n < 2)])
def test_those_with_more_or_fewer_than_a_number_of_another_kind(fixture_kg: OxigraphKG, bound: str,
                                                                holds: Callable[[int], bool]) -> None:
    """Each compiled 'more than' pair filled with the question's own bound, for every two kinds."""
    linked, asked = _linked(), 0
    nouns = {"model": "models", "dataset": "datasets", "metric": "metrics", "problem": "research problems",
             "paper": "papers", "field": "research fields"}
    for one in _VARS:
        for other in _VARS:
            if one == other:
                continue
            want = {a for a, bs in linked[one, other].items() if bs and holds(len(bs))}
            question = f"which {nouns[one]} have {bound} {nouns[other]}?"
            done = IntentStep().review(question, Generation("adapter", None), [], fixture_kg).generation
            assert done.generator == "intent" and done.sparql, question
            assert _first_column(fixture_kg, done.sparql) == want, question
            asked += 1
    assert asked == 30


def test_how_many_of_another_kind_each_one_has(fixture_kg: OxigraphKG) -> None:
    """'papers per research field', 'how many datasets does each problem have': every two kinds, every count."""
    from tests.intent.conftest import PREFIXES

    linked, asked = _linked(), 0
    nouns = {"model": ("model", "models"), "dataset": ("dataset", "datasets"), "metric": ("metric", "metrics"),
             "problem": ("research problem", "research problems"), "paper": ("paper", "papers"),
             "field": ("research field", "research fields")}
    for one in _VARS:
        for other in _VARS:
            if one == other:
                continue
            want = {(a, str(len(bs))) for a, bs in linked[one, other].items() if bs}
            question = f"how many {nouns[other][1]} per {nouns[one][0]}?"
            done = IntentStep().review(question, Generation("adapter", None), [], fixture_kg).generation
            assert done.generator == "intent" and done.sparql, question
            rows = fixture_kg.select(PREFIXES + done.sparql if "PREFIX" not in done.sparql else done.sparql).rows
            assert {tuple(cell["value"] for cell in row.values()) for row in rows} == want, question
            asked += 1
    assert asked == 30


def test_those_with_both_of_two_named_things_of_another_kind(fixture_kg: OxigraphKG) -> None:
    """'which papers evaluate on both A and B': every kind that reaches two datasets, for every two datasets."""
    linked, asked = _linked(), 0
    for one, noun in (("paper", "papers"), ("model", "models"), ("problem", "research problems")):
        datasets = sorted({d for ds in linked[one, "dataset"].values() for d in ds})
        for a in datasets:
            for b in datasets:
                if a >= b:
                    continue
                want = {x for x, ds in linked[one, "dataset"].items() if {a, b} <= ds}
                question = f"which {noun} have results on both {a} and {b}?"
                done = IntentStep().review(question, Generation("adapter", None), [], fixture_kg).generation
                assert done.sparql and _labels(answer_of(fixture_kg, done.sparql)) == want, question
                asked += 1
    assert asked > 30


def test_those_with_none_of_another_kind_at_all(fixture_kg: OxigraphKG) -> None:
    """'papers with no model': every compiled 'no' pair, against the records (the fixture's papers all have
    contributions; some contributions have no model)."""
    from pipeline.sparql.explain import explain

    linked, asked = _linked(), 0
    classes = {"model": "Model", "dataset": "Dataset", "metric": "Metric", "problem": "Problem", "paper": "Paper",
               "field": "ResearchField"}
    everything = {kind: _labels(answer_of(fixture_kg, f"SELECT ?l WHERE {{ ?x a orkgc:{klass}; rdfs:label ?l }}"))
                  for kind, klass in classes.items()}
    for one in _VARS:
        for other in _VARS:
            pair = next((p for p in reach_pairs() if p.id == f"IP-reach-{one}-no-{other}s"), None)
            if pair is None:
                continue
            want = {a for a in everything[one] if not linked[one, other].get(a)}
            assert _labels(answer_of(fixture_kg, pair.sparql)) == want, (one, other)
            asked += 1
    assert asked == 30
    paper_no_model = next(p for p in reach_pairs() if p.id == "IP-reach-paper-no-models")
    assert explain(paper_no_model.sparql) == "It asks for papers without a model."


def _first_column(kg: OxigraphKG, sparql: str) -> set[str]:
    """The labels a grouped query lists (its count beside each left out)."""
    from tests.intent.conftest import PREFIXES

    rows = kg.select(sparql if "PREFIX" in sparql else PREFIXES + sparql).rows
    return {next(iter(row.values()))["value"] for row in rows}


def test_a_count_bound_in_words_is_read_as_a_number(fixture_kg: OxigraphKG) -> None:
    from pipeline.question import tidy

    assert tidy("which models were tested on more than one dataset") == \
        "which models were tested on more than 1 dataset"
    assert tidy("any model used for two or more research problems?") == \
        "any model used for 2 or more research problems?"
    assert tidy("is at least one paper from 2019?") == "is at least one paper from 2019?"  # 'any'
    assert tidy("fastest model on X? could be more than one") == "fastest model on X? could be more than one"


def test_those_of_a_named_one_never_linked_to_another_named_one(fixture_kg: OxigraphKG) -> None:
    """'which models of field F were never evaluated on D': every compiled but-not pair over the fixture's kinds,
    against the records, filled with every pair of names (those left with none included)."""
    linked, asked = _linked(), 0
    for pair in reach_pairs():
        parts = pair.id.removeprefix("IP-reach-").split("-")
        if len(parts) != 5 or parts[1:4:2] != ["of", "not"] or not {parts[0], parts[2], parts[4]} <= set(_VARS):
            continue
        one, scope, other = parts[0], parts[2], parts[4]
        (first, _), (second, _) = slot_values(pair)
        for s in list(linked[scope, one])[:3]:
            for o in list(linked[other, one])[:3]:
                want = {a for a in linked[scope, one][s] if o not in linked[one, other].get(a, set())}
                sparql = pair.sparql.replace(f'"{first}"', f'"{s}"').replace(f'"{second}"', f'"{o}"')
                assert _labels(answer_of(fixture_kg, sparql)) == want, (pair.id, s, o)
                asked += 1
    assert asked > 300


def test_the_name_after_the_negation_is_the_one_left_out(fixture_kg: OxigraphKG) -> None:
    """'<field> models that were never run on <dataset>': the dataset is left out, not the field (both kinds fill
    either pair; the question's order says which)."""
    linked = _linked()
    field = next(f for f, ms in linked["field", "model"].items() if len(ms) > 1)
    dataset = next(d for d, ms in linked["dataset", "model"].items() if ms & linked["field", "model"][field])
    want = {m for m in linked["field", "model"][field] if dataset not in linked["model", "dataset"].get(m, set())}
    done = IntentStep().review(f"{field} models that were never run on {dataset}", Generation("adapter", None), [],
                               fixture_kg).generation
    assert done.sparql and "NOT EXISTS" in done.sparql
    assert _labels(answer_of(fixture_kg, done.sparql)) == want


def test_those_other_than_a_named_one_and_its_variants(fixture_kg: OxigraphKG) -> None:
    linked = _linked()
    problem, metrics = next((p, ms) for p, ms in linked["problem", "metric"].items() if len(ms) > 1)
    left = sorted(metrics)[0]
    done = IntentStep().review(f"any metrics other than {left} used for {problem}?", Generation("adapter", None),
                               [], fixture_kg).generation
    assert done.sparql and _labels(answer_of(fixture_kg, done.sparql)) == {
        m for m in metrics if not (m == left or (m.startswith(left) and not m[len(left)].isalnum()))}
    from pipeline.sparql.explain import explain
    assert f"other than '{left}' and its variants" in explain(done.sparql)


@pytest.mark.parametrize("question", ["how many papers per year do we have in the graph", "papers per year?"])
def test_papers_are_counted_for_each_year(fixture_kg: OxigraphKG, question: str) -> None:
    from collections import Counter

    from tests.intent.conftest import PREFIXES

    done = IntentStep().review(question, Generation("adapter", None), [], fixture_kg).generation
    assert done.sparql and "GROUP BY" in done.sparql
    rows = fixture_kg.select(done.sparql if "PREFIX" in done.sparql else PREFIXES + done.sparql).rows
    got = {r["year"]["value"]: int(r["papers"]["value"]) for r in rows}
    assert got == dict(Counter(p.year for p in PAPERS))
