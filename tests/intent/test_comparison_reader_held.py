"""The rules' reading of comparison questions, held to what the graph holds (``pipeline.intent.comparison_reader``):
a number said with a bound is no year, 'papers per X' counts for each X, a negation leaves out every value listed
after it, and a value no contribution of the comparison read carries leaves the reading partial."""
from __future__ import annotations

import pytest

from pipeline.intent.comparisons import Comparisons
from pipeline.kg.oxigraph import OxigraphKG
from tests.intent import test_comparison_reader as reader

graph = reader.graph  # the small graph of two comparisons (a fixture), read as that module reads it
_read = reader._read


def test_a_number_said_with_a_bound_on_a_property_is_no_year(graph: tuple[OxigraphKG, Comparisons]) -> None:
    reading = _read("which urban tree studies had a sample size over 2000?", graph)
    assert reading.whole and [(c.on, c.op, c.value) for c in reading.conditions] == [("orkgp:P9002", ">", "2000")]
    dated = _read("which urban tree studies are from 2017?", graph)
    assert [(c.on, c.op, c.value) for c in dated.conditions] == [("year", "=", "2017")]


@pytest.mark.parametrize(("question", "per"), [
    ("papers per field in the urban tree comparison?", "field"),
    ("green roof comparison: papers per research field", "field"),
    ("urban tree comparison - papers per publication year", "year"),
    ("contributions per study location in the green roof comparison", "orkgp:P9001"),
])
def test_things_said_right_before_per_are_counted_for_each(graph: tuple[OxigraphKG, Comparisons], question: str,
                                                           per: str) -> None:
    reading = _read(question, graph)
    assert reading.whole and reading.operator == "count" and reading.per == per, reading


def test_per_something_not_read_leaves_the_reading_partial(graph: tuple[OxigraphKG, Comparisons]) -> None:
    reading = _read("green roof comparison: papers per blorp", graph)
    assert not reading.whole and "per" in reading.unplaced


def test_not_before_a_list_of_values_leaves_out_each(graph: tuple[OxigraphKG, Comparisons]) -> None:
    reading = _read("urban tree comparison - studies not in lisbon or oslo?", graph)
    assert reading.whole and [(c.value, c.op) for c in reading.conditions] == [("Lisbon", "!="), ("Oslo", "!=")]


def test_a_value_of_another_comparison_the_question_names_too_leaves_the_reading_partial(
        graph: tuple[OxigraphKG, Comparisons]) -> None:
    """'Sedum mat' is a green roof material: read in the urban tree comparison while the words name the green roof
    one too, the answer would be 'nothing' for a misread; with no other comparison named, 'nothing' is the answer."""
    reading = _read("which urban tree study on roofs used sedum mat?", graph)
    assert not reading.whole and any("Sedum mat" in u for u in reading.unplaced), reading
    assert _read("which urban tree study used sedum mat?", graph).whole  # none did
    assert _read("which green roof study used sedum mat?", graph).whole


@pytest.mark.parametrize(("question", "conditions"), [
    ("which urban tree studies had a sample size between 50 and 150?",
     [("orkgp:P9002", ">=", "50"), ("orkgp:P9002", "<=", "150")]),
    ("does the sample size of any urban tree study exceed 200?", [("orkgp:P9002", ">", "200")]),
    ("did an urban tree study's sample size break 200?", [("orkgp:P9002", ">", "200")]),
    ("urban tree papers between 2015 and 2020", [("year", ">=", "2015"), ("year", "<=", "2020")]),
])
def test_a_range_or_a_verb_of_passing_bounds_the_property_before_it(
        graph: tuple[OxigraphKG, Comparisons], question: str, conditions: list[tuple[str, str, str]]) -> None:
    reading = _read(question, graph)
    assert reading.whole and [(c.on, c.op, c.value) for c in reading.conditions] == conditions, reading


def test_other_than_a_value_is_a_value_that_is_not_it(graph: tuple[OxigraphKG, Comparisons]) -> None:
    reading = _read("which tree species in the urban tree comparison grew in a soil type other than clay", graph)
    assert reading.whole and [(c.value, c.op) for c in reading.conditions] == [("Clay", "other")], reading
    # 'did not' is no value of the thing's at all; 'other than' one that is not it (the thing may have both)
    assert [(c.value, c.op) for c in _read("which tree species in the urban tree comparison did not grow in clay",
                                           graph).conditions] == [("Clay", "!=")]


def test_a_value_said_by_its_first_word_alone(graph: tuple[OxigraphKG, Comparisons]) -> None:
    reading = _read("which green roof papers used sedum?", graph)
    assert reading.whole and [(c.value, c.on) for c in reading.conditions] == [("Sedum mat", "orkgp:P9005")]
    # a word of the comparison's own label is no value's name ('tree' of 'Plane tree')
    assert not any(c.value == "Plane tree" for c in _read("which tree studies are in the urban tree comparison",
                                                          graph).conditions)


def test_a_comparison_said_by_two_letters_of_one_of_its_words(graph: tuple[OxigraphKG, Comparisons]) -> None:
    reading = _read("highest energy saving in the gr one?", graph)
    assert reading.scope is not None and reading.scope.iri == "orkgr:R9200", reading


def test_a_grouping_said_with_one_word_before_the_property(graph: tuple[OxigraphKG, Comparisons]) -> None:
    reading = _read("lowest energy saving per sampled location in the green roof comparison", graph)
    # grouped by the location; the word between read by nothing else is still named, never dropped
    assert reading.per == "orkgp:P9001" and reading.operator == "min" and reading.unplaced == ("sampled",), reading


def test_a_value_said_without_the_word_saying_its_kind() -> None:
    """'hamburg wheel tracking' for 'Hamburg wheel tracking test': its words, a word of the reading's filler among
    them, where one of them was left over; never a run of words all placed already."""
    from pipeline.intent.comparisons import Value
    from pipeline.intent.record import Reading
    from pipeline.intent.values import slipped

    test = Value((0, 0), "orkgr:R1", "Hamburg wheel tracking test", frozenset({"orkgp:P1"}))
    text = "avg cycles for the hamburg wheel tracking contribs"
    found = slipped(text, Reading(text, "", "average", unplaced=("hamburg", "wheel")), [test])
    assert [(text[slice(*v.span)], v.label) for v in found] == [("hamburg wheel tracking", test.label)]
    assert slipped(text, Reading(text, "", "average", unplaced=("avg",)), [test]) == []


def test_words_of_an_idiom_name_no_property() -> None:
    """'show up' is no 'Follow-up' (comparisons20's graph: its cochlear implant comparison reports one)."""
    graph = reader._eval_graph("comparisons20")
    read = _read("countries in the cochlear implant comparison that do not show up in the wastewater comparison",
                 graph)
    assert read.whole and [(c.on, c.op) for c in read.conditions] == [("comparison", "!=")], read
    assert not any(n.label == "Follow-up" for n in read.names)


def test_a_value_among_the_words_naming_the_comparison_holds_nothing() -> None:
    """'the *sleep* therapy comparison': 'Sleep' is a venue of comparisons21's graph, here a word of the name."""
    from pipeline.factory import build_encoder
    from pipeline.intent.comparisons import ComparisonFacts
    from pipeline.settings import Settings

    kg = reader._eval_graph("comparisons21")[0]
    facts = ComparisonFacts(encoder=build_encoder(Settings.from_env())).get(kg)  # the name read by meaning
    assert facts is not None
    read = _read("in the sleep therapy comparison, which setting has the biggest effect size", (kg, facts))
    assert read.whole and read.conditions == () and read.scope is not None, read
