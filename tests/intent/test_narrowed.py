"""A list's query narrowed by a condition no pair of its kind holds (``pipeline.intent.narrowed``), and the composer
that tries it where no pair holds every name: each asked about every name of its kind in the fixture graph, its
answer the one computed from the graph's records."""
from __future__ import annotations

import pytest

from pipeline.intent.named import Name
from pipeline.intent.narrowed import Narrowing, narrowings
from pipeline.intent.reading import YEAR
from pipeline.intent.step import IntentStep
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.records import Generation, Kind
from standins.orkg_fixture import FIELDS, PAPERS, PROBLEMS
from tests.intent.conftest import answer_of

_PAPERS_OF_PROBLEM = ('SELECT DISTINCT ?paper_lbl WHERE { ?problem rdfs:label "QA". ?cont orkgp:P32 ?problem. '
                      "?paper orkgp:P31 ?cont; rdfs:label ?paper_lbl. }")
_MODELS = "SELECT DISTINCT ?model_lbl WHERE { ?cont orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. }"


def _name(label: str, kind: str) -> Name:
    return Name(0, len(label), label, frozenset({kind}))


def test_a_condition_is_joined_to_the_querys_papers_or_to_its_contributions_through_their_papers() -> None:
    after = Narrowing(_name("2019", YEAR), YEAR, ">").applied(_PAPERS_OF_PROBLEM) or ""
    assert after.endswith("?paper orkgp:P29 ?year. FILTER(xsd:integer(?year) > 2019) }")
    field = Narrowing(_name("Robotics", Kind.RESEARCHFIELD), Kind.RESEARCHFIELD).applied(_MODELS) or ""
    assert '?n_paper orkgp:P31 ?cont; orkgp:P30 ?n_thing.' in field and '= "Robotics")' in field
    # a problem is a contribution's: held on the query's contributions
    problem = Narrowing(_name("QA", Kind.PROBLEM), Kind.PROBLEM).applied(_MODELS) or ""
    assert "?cont orkgp:P32 ?n_thing." in problem


def test_no_condition_where_the_query_holds_one_of_its_kind_or_reaches_no_paper() -> None:
    assert Narrowing(_name("QA", Kind.PROBLEM), Kind.PROBLEM).applied(_PAPERS_OF_PROBLEM) is None
    assert Narrowing(_name("2019", YEAR), YEAR).applied(
        'SELECT ?m WHERE { ?m a orkgc:Metric; rdfs:label "F1". }') is None
    # what the query leaves out is no place for it: the condition goes on the papers it keeps
    kept = Narrowing(_name("2019", YEAR), YEAR, ">=").applied(
        "SELECT ?model WHERE { ?model a orkgc:Model. FILTER NOT EXISTS { ?c orkgp:HAS_MODEL ?model. "
        "?p orkgp:P31 ?c. } }")
    assert kept is None
    # a query within the query (a tie's bound) would not hold it: the most models of any venue, not of the field's
    tied = ("SELECT ?venue (COUNT(DISTINCT ?model) AS ?models) WHERE { ?paper orkgp:P31 ?cont; orkgp:HAS_VENUE "
            "?venue. ?cont orkgp:HAS_MODEL ?model. { SELECT (MAX(?c) AS ?tied) WHERE { { SELECT ?v (COUNT(?m) AS ?c) "
            "WHERE { ?p orkgp:HAS_VENUE ?v; orkgp:P31 ?k. ?k orkgp:HAS_MODEL ?m. } GROUP BY ?v } } } } "
            "GROUP BY ?venue ?tied HAVING(COUNT(DISTINCT ?model) = ?tied)")
    assert Narrowing(_name("Acoustics", Kind.RESEARCHFIELD), Kind.RESEARCHFIELD).applied(tied) is None


def test_a_year_said_after_a_negation_is_not_held_as_a_condition() -> None:
    field, year = Name(0, 8, "Robotics", frozenset({Kind.RESEARCHFIELD})), Name(30, 34, "2019", frozenset({YEAR}))
    assert [n.name.label for n in narrowings([field, year], {"2019": ">"})] == ["Robotics", "2019"]
    assert [n.name.label for n in narrowings([field, year], {}, negated_at=20)] == ["Robotics"]
    assert narrowings([year], {})[0].op == "="  # a year said alone: equal


def _answer(question: str, kg: OxigraphKG) -> set[str]:
    done = IntentStep().review(question, Generation("adapter", None), [], kg).generation
    assert done.generator == "intent" and done.sparql, (question, done.explanation)
    found = answer_of(kg, done.sparql)
    assert not isinstance(found, bool)
    return {value for row in found for value in row if not value.startswith("http://orkg.org/")}


@pytest.mark.parametrize("year", ["2019", "2020", "2021"])
def test_a_fields_models_held_to_their_papers_years(fixture_kg: OxigraphKG, year: str) -> None:
    for field in FIELDS:
        expected = {c.model for p in PAPERS if p.field == field and int(p.year) > int(year)
                    for c in p.contributions if c.model}
        question = f"which {field} models are from papers after {year}"
        if expected:
            assert _answer(question, fixture_kg) == expected, question


def test_a_problems_papers_counted_before_a_year(fixture_kg: OxigraphKG) -> None:
    for problem in PROBLEMS:
        expected = len({p.title for p in PAPERS if int(p.year) < 2022
                        and any(c.problem == problem for c in p.contributions)})
        question = f"how many papers on {problem} are there from before 2022"
        assert _answer(question, fixture_kg) == {str(expected)}, question


def test_a_name_said_after_a_negation_holds_the_papers_to_have_none_of_it() -> None:
    name = Name(30, 40, "QA", frozenset({Kind.PROBLEM}))
    (held,) = narrowings([name], {}, negated_at=20)
    assert held.negated and "not" in held.says
    applied = held.applied(_MODELS) or ""
    assert ('FILTER NOT EXISTS { ?cont orkgp:P32 ?n_thing. ?n_thing rdfs:label ?n_thing_lbl. '
            'FILTER(str(?n_thing_lbl) = "QA") }') in applied


def test_a_fields_papers_not_on_a_problem(fixture_kg: OxigraphKG) -> None:
    for field in FIELDS:
        for problem in PROBLEMS:
            expected = {p.title for p in PAPERS if p.field == field
                        and not any(c.problem == problem for c in p.contributions)}
            inside = {p.title for p in PAPERS if p.field == field}
            if expected and expected != inside:
                question = f"{field} papers that arent about {problem}"
                assert _answer(question, fixture_kg) & {p.title for p in PAPERS} == expected, question


def test_a_leaderboards_query_is_narrowed_through_the_contributions_on_its_benchmarks() -> None:
    board = ('SELECT ?dataset_lbl (MIN(?score) AS ?lowest) WHERE { ?benchmark orkgp:HAS_DATASET ?dataset; '
             'orkgp:HAS_EVALUATION ?eval. ?eval orkgp:HAS_VALUE ?score. ?dataset rdfs:label ?dataset_lbl. } '
             'GROUP BY ?dataset_lbl')
    applied = Narrowing(_name("QA", Kind.PROBLEM), Kind.PROBLEM).applied(board) or ""
    assert "?n_cont orkgp:HAS_BENCHMARK ?benchmark. ?n_cont orkgp:P32 ?n_thing." in applied
    assert applied.endswith("GROUP BY ?dataset_lbl")


def test_a_query_of_papers_by_their_year_alone_is_narrowed_on_those_papers() -> None:
    counted = ('SELECT (COUNT(DISTINCT ?paper) AS ?papers) WHERE { ?paper a orkgc:Paper; orkgp:P29 ?year. '
               'FILTER(xsd:integer(?year) = 2018) }')
    held = Narrowing(_name("NLP", Kind.RESEARCHFIELD), Kind.RESEARCHFIELD, negated=True).applied(counted)
    assert held is not None and "FILTER NOT EXISTS { ?paper orkgp:P30 ?n_thing." in held
