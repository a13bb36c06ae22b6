"""Readings of comparison questions compiled to SPARQL and run on the small comparison graph: the answers, and the
sentence the reply shows, said from the same record."""
from __future__ import annotations

import pytest

from pipeline.intent.comparison_reader import read_comparison
from pipeline.intent.comparisons import read_comparisons
from pipeline.intent.compile import compile_reading, sentence
from pipeline.intent.record import Condition, Linked, Reading
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.sparql.gate import gate
from standins.comparison_fixture import write_comparisons


@pytest.fixture(scope="module")
def kg(tmp_path_factory: pytest.TempPathFactory) -> OxigraphKG:
    return OxigraphKG(write_comparisons(tmp_path_factory.mktemp("cmp") / "g.nt"), row_cap=1000)


def _answer(question: str, kg: OxigraphKG) -> list[str] | bool:
    facts = read_comparisons(kg)
    assert facts is not None
    reading = read_comparison(question, facts, kg)
    assert reading is not None and reading.whole, question
    check = gate(compile_reading(reading), 1000)
    assert check.ok, check.errors
    rows = kg.select(check.fixed)
    if rows.boolean is not None:
        return rows.boolean
    return sorted(next(iter(r.values()))["value"] for r in rows.rows)


@pytest.mark.parametrize(("question", "answer"), [
    ("where were the urban tree studies done?", ["Athens", "Lisbon", "Oslo"]),
    ("which tree species are most common in the urban tree survival comparison", ["Linden"]),
    ("what is the average sample size of the tree survival studies", ["136.25"]),
    ("which study had the largest sample size", ["Linden mortality in parks"]),
    ("which study had the smallest sample size in the urban tree comparison", ["Roots under pavement"]),
    ("how many papers in the green roof comparison were published after 2016", ["1"]),
    ("how many papers in the green roof comparison were published in 2016 or later", ["2"]),
    ("what research fields are the green roof papers in", ["Architecture", "Building Physics"]),
    ("which species were studied in lisbon", ["Linden", "Plane tree"]),
    ("what is the max energy saving for sedum mat roofs", ["18 %"]),  # as the graph holds it, its unit kept
    ("does any study use gravel as roof material?", True),
    ("did any green roof study use clay?", False),
    # a property only another comparison carries, named whole: none of this one's give it
    ("does any green roof study report a sample size?", False),
    ("which sample sizes are in the green roof comparison", []),
    ("which papers studied linden trees with a sample size above 100",
     ["Linden mortality in parks"]),
    ("what is the earliest paper in the green roof comparison", ["Sedum roofs in winter"]),
    ("how many different soil types are there in the tree survival studies", ["3"]),
    ("which green roof papers did not use gravel", ["Cool roofs for schools", "Sedum roofs in winter"]),
    ("what is the 2nd highest sample size in the urban tree comparison", ["120"]),  # the k-th, not the first k
    ("which study had the second smallest sample size in the urban tree comparison", ["Heat and young trees"]),
    ("urban tree papers per field?", ["Forestry", "Urban Ecology"]),
    ("urban tree studies with a sample size between 50 and 150",
     ["Heat and young trees", "Street trees in dry summers"]),
])
def test_compiled_readings_answer(kg: OxigraphKG, question: str, answer: list[str] | bool) -> None:
    assert _answer(question, kg) == answer


@pytest.mark.parametrize(("question", "answer"), [
    # two comparisons named: what is asked of the first found in the second too, or, negated, not
    ("which study locations appear in both the urban tree and the green roof comparisons", ["Oslo"]),
    ("which study locations in the urban tree comparison dont appear in the green roof comparison",
     ["Athens", "Lisbon"]),
    ("how many study locations of the green roof comparison are not in the urban tree one", ["1"]),
    # 'is there an X that …' asks which (nothing: no)
    ("is there a study location that shows up in both the urban tree and the green roof comparisons?", ["Oslo"]),
    # the comparison's properties as the graph labels them (the fixture gives its problems' property no label)
    ("what properties are compared in the green roof comparison", ["Energy saving", "Roof material",
                                                                   "Study location"]),
    ("what properties does the green roof comparison use, excluding roof material", ["Energy saving",
                                                                                     "Study location"]),
    # ranked by how many contributions (papers) each has; a property's values but one
    ("which comparison has the most contributions?", ["Comparison of urban tree survival studies"]),
    ("which comparison has the fewest papers", ["Green roof cooling comparison"]),
    ("study locations in the urban tree comparison except oslo", ["Athens", "Lisbon"]),
    ("which roof mater did the green roof comparison use", ["Gravel", "Sedum mat"]),  # a word cut short
    # a year said again in an aside bounds nothing ('2019 itself doesnt count')
    ("urban tree papers published after 2017 (2017 itself doesnt count)", ["Heat and young trees",
                                                                          "Linden mortality in parks"]),
    # a paper named by words of its title, of the comparison named or of any
    ("what sample size did the roots under pavement study have", ["45"]),
    ("which soil type did the linden mortality paper report", ["Loam"]),
    ("energy saving in the cool roofs for schools paper in the green roof comparison", ["18 %"]),
    ("study locations in any of the 2 comparisons", ["Athens", "Lisbon", "Madrid", "Oslo"]),
    ("which comparisons have an energy saving column?", ["Green roof cooling comparison"]),  # its column: carried
    # how far apart the ends are (300 - 45): one number
    ("difference between the highest and the lowest sample size in the urban tree comparison", ["255"]),
    ("what properties does the green roof comparison compare", ["Energy saving", "Roof material",
                                                                "Study location"]),
    ("which green roof papers are missing an energy saving", []),  # every one gives it
    ("how many papers does each of the comparisons have", ["Comparison of urban tree survival studies",
                                                           "Green roof cooling comparison"]),  # 4 and 3
    ("in the urban tree comparison, which has the lowest sample size?", ["Contribution 2"]),  # the thing, not 45
    ("what soil type did the 'roots under pavement' paper report", ["Sand"]),
    # a bound at the comparison's own average (136.25)
    ("which urban tree studies had a sample size above the comparison's average", ["Linden mortality in parks"]),
    ("urban tree papers with a sample size below the avg", ["Heat and young trees", "Roots under pavement",
                                                            "Street trees in dry summers"]),
])
def test_two_comparisons_properties_and_the_average_as_a_bound(kg: OxigraphKG, question: str,
                                                               answer: list[str]) -> None:
    assert _answer(question, kg) == answer


def test_the_bounded_values_are_shown_when_asked_again(kg: OxigraphKG) -> None:
    reading, rows = _rows("urban tree studies with a sample size above the average, w/ the sample sizes", kg)
    assert reading.also == ("orkgp:P9002",) and [sorted(v["value"] for v in r.values()) for r in rows] == [
        ["300", "Linden mortality in parks"]]
    assert "'has sample size' > average" in sentence(reading)


def _rows(question: str, kg: OxigraphKG) -> tuple[Reading, list[dict[str, dict[str, str]]]]:
    facts = read_comparisons(kg)
    assert facts is not None
    reading = read_comparison(question, facts, kg)
    assert reading is not None
    return reading, kg.select(gate(compile_reading(reading), 100).fixed).rows  # type: ignore[return-value]


def test_the_most_common_value_comes_with_how_many_contributions_have_it(kg: OxigraphKG) -> None:
    _, rows = _rows("most common soil type in the urban tree comparison", kg)
    assert [(r["soil_type_lbl"]["value"], r["contributions"]["value"]) for r in rows] == [("Clay", "2")]


def test_the_sentence_names_what_ran_in_the_graphs_words() -> None:
    reading = Reading("q", "paper", "count", names=(Linked((0, 1), "property", "orkgp:P9001", "Study location"),),
                      conditions=(Condition((0, 1), "orkgp:P9001", "=", "Oslo", "orkgr:R1"),
                                  Condition((2, 3), "year", ">=", "2015")),
                      scope=Linked((4, 5), "comparison", "orkgr:R9", "Green roof cooling comparison"))
    said = sentence(reading)
    assert said == ("It asks for how many different papers there are among the contributions of the comparison "
                    "'Green roof cooling comparison' where 'Study location' = Oslo and year >= 2015.")
    sparql = compile_reading(reading)
    assert "orkgr:R9 orkgp:compareContribution ?contribution" in sparql and "orkgp:P9001 orkgr:R1" in sparql
    assert "xsd:integer(?year) >= 2015" in sparql and sparql.startswith("SELECT (COUNT(DISTINCT ?paper_lbl)")


def test_two_things_at_once_are_two_columns(kg: OxigraphKG) -> None:
    reading, rows = _rows("which paper had the largest sample size and when was it published", kg)
    assert [(r["paper_lbl"]["value"], r["year"]["value"]) for r in rows] == [("Linden mortality in parks", "2019")]
    assert sentence(reading).startswith("It asks for the papers with the highest 'has sample size'") and \
        "with their years" in sentence(reading)


def test_a_sum_is_compiled_from_its_table_entry(kg: OxigraphKG) -> None:
    assert _answer("what is the total sample size of the urban tree studies", kg) == ["545"]


@pytest.fixture(scope="module")
def corals() -> OxigraphKG:
    """A graph of five comparisons written by a helper (tests/data/eval/comparisons9.nt)."""
    from pathlib import Path

    return OxigraphKG(Path(__file__).parents[2] / "tests" / "data" / "eval" / "comparisons9.nt", row_cap=1000)


@pytest.mark.parametrize(("question", "answer"), [
    # a property given for none ('w/o a venue', 'didnt report any follow-up')
    ("any coral bleaching papers w/o a venue listed?", ["Bleaching response of Acropora in the Persian Gulf"]),
    ("which antivenom papers didnt report any follow-up?",
     ["Snakebite mortality in rural Bangladesh: a retrospective study"]),
    ("avg number of patients in the antivenom trials?", ["317.333333333333333333"]),  # 'number of' the label's
    ("deepest sampling depth in that coral bleaching one (m)?", ["40"]),  # a measure's own superlative
    # every comparison's values ('across all the comparisons', 'just the list')
    ("what study designs r used across all the comparisons? just the list",
     ["Cross-sectional survey", "Discrete choice experiment", "Mixed methods", "Prospective cohort",
      "Randomized controlled trial", "Retrospective cohort"])])
def test_readings_of_words_typed_loosely(corals: OxigraphKG, question: str, answer: list[str]) -> None:
    assert _answer(question, corals) == answer


def test_papers_bounded_by_year_are_shown_with_it_and_a_bound_said_again_as_included(corals: OxigraphKG) -> None:
    facts = read_comparisons(corals)
    assert facts is not None
    reading = read_comparison("coral bleaching papers from 2017 onwards (incl 2017)", facts, corals)
    assert reading is not None and reading.whole
    assert [(c.on, c.op, c.value) for c in reading.conditions] == [("year", ">=", "2017")]
    rows = corals.select(gate(compile_reading(reading), 1000).fixed).rows
    assert rows and all(int(r["year"]["value"]) >= 2017 and r["paper_lbl"]["value"] for r in rows)


def test_a_property_named_but_not_answered_leaves_the_reading_partial(corals: OxigraphKG) -> None:
    """'some list it as participants': a second property the answer would not give; never answered as if whole."""
    facts = read_comparisons(corals)
    assert facts is not None
    reading = read_comparison("what were the sample sizes in the solar cooker studies? some list it as participants, "
                              "some as sample size (n)", facts, corals)
    assert reading is not None and not reading.whole and "Number of participants" in reading.unplaced


def test_a_negation_leaves_out_every_value_any_contribution_holds_it_for(corals: OxigraphKG) -> None:
    """'which countries did NOT use X': a country one of whose studies used X is left out, though another of its
    studies did not; the sentence says it so."""
    graph = corals
    question = "which countries in the coral comparison did NOT use line intercept transects"
    assert _answer(question, graph) == ["Japan", "Jordan", "Mexico"]
    facts = read_comparisons(graph)
    assert facts is not None
    reading = read_comparison(question, facts, graph)
    assert reading is not None and "not Line intercept transect in any of their contributions" in sentence(reading)


def _all_rows(question: str, kg: OxigraphKG) -> list[tuple[str, ...]]:
    """Every row of the answer, each value in the order of the query's variables."""
    facts = read_comparisons(kg)
    assert facts is not None
    reading = read_comparison(question, facts, kg)
    assert reading is not None and reading.whole, (question, reading)
    check = gate(compile_reading(reading), 1000)
    assert check.ok, check.errors
    rows = kg.select(check.fixed)
    return sorted(tuple(r[v]["value"] for v in rows.vars if v in r) for r in rows.rows)


def test_the_values_of_a_property_other_than_one_named(kg: OxigraphKG) -> None:
    from standins.comparison_fixture import COMPARISONS

    places = {props["P9001"] for *_, props in COMPARISONS["R9100"][1]} - {"Lisbon"}
    assert _all_rows("study locations in the urban tree comparison other than lisbon", kg) == \
        sorted((p,) for p in places)


def test_papers_counted_for_each_comparison(kg: OxigraphKG) -> None:
    from standins.comparison_fixture import COMPARISONS

    expected = sorted((label, str(len({p[0] for p in papers}))) for label, papers in COMPARISONS.values())
    assert _all_rows("how many papers are there in each comparison", kg) == expected


def test_the_value_ranked_by_is_shown_beside_the_thing_and_a_second_thing_joined_by_a_sign(kg: OxigraphKG) -> None:
    from standins.comparison_fixture import COMPARISONS

    smallest = min(COMPARISONS["R9100"][1], key=lambda p: float(p[4]["P9002"]))
    rows = _all_rows("which study in the urban tree comparison had the smallest sample size and what was it", kg)
    assert len(rows) == 1 and smallest[0] in rows[0] and smallest[4]["P9002"] in rows[0]
    newest = max(COMPARISONS["R9200"][1], key=lambda p: p[1])
    assert _all_rows("newest paper in the green roof comparison + research field", kg) == [(newest[0], newest[2])]


def test_both_ends_of_a_property_at_once(kg: OxigraphKG) -> None:
    from standins.comparison_fixture import COMPARISONS

    sizes = [float(p[4]["P9002"]) for p in COMPARISONS["R9100"][1]]
    rows = _all_rows("min and max sample size in the urban tree comparison?", kg)
    assert [tuple(float(v) for v in row) for row in rows] == [(min(sizes), max(sizes))]


def test_two_values_said_with_or_are_either(kg: OxigraphKG) -> None:
    from standins.comparison_fixture import COMPARISONS

    either = {props["P9003"] for *_, props in COMPARISONS["R9100"][1] if props["P9001"] in ("Lisbon", "Athens")}
    assert _all_rows("which tree species did the urban tree studies in lisbon or athens look at", kg) == \
        sorted((s,) for s in either)
    # with 'and' between them both are held: no one study is in both places
    facts = read_comparisons(kg)
    assert facts is not None
    both = read_comparison("which tree species did the urban tree studies in lisbon and athens look at", facts, kg)
    assert both is not None and [c.op for c in both.conditions] == ["=", "="]
