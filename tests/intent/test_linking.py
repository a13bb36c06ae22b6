"""The question's words linked to the comparisons' labels: by their words (plurals, shortenings, a word between two
of them) and, where the words differ, by meaning (the example store's sentence encoder, the real model)."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.intent import linking
from pipeline.intent.account import words
from pipeline.intent.comparison_reader import read_comparison
from pipeline.intent.comparisons import Comparisons
from pipeline.intent.linking import content, in_unit, measured_in, near, properties_named, singular
from pipeline.kg.oxigraph import OxigraphKG
from standins.comparison_fixture import write_comparisons


@pytest.mark.parametrize(("a", "b", "same"), [
    ("batteries", "battery", True), ("apps", "app", True), ("treatmnets", "treatment", True),
    ("fields", "yield", False), ("roof", "soil", False), ("kenia", "kenya", True),
    ("methanol", "ethanol", False), ("ehtanol", "ethanol", True),  # a slip keeps the first letter, or swaps it
    ("lane", "lake", False), ("rnig", "ring", True)])  # four letters: another word, unless two are swapped
def test_words_near_each_other(a: str, b: str, same: bool) -> None:
    assert near(a, b) is same
    assert singular("processes") == "process" and singular("glass") == "glass"


def test_the_thing_asked_named_in_other_words_is_the_property_it_means(facts: Comparisons, tmp_path: Path) -> None:
    """'which plants' asks for the comparison's 'Tree species' (the encoder); 'which pancakes' for nothing it has."""
    kg = OxigraphKG(write_comparisons(tmp_path / "g.nt"), row_cap=100)
    plants = read_comparison("which plants did the urban tree survival comparison look at", facts, kg)
    assert plants is not None and plants.whole and plants.asked == "orkgp:P9003"
    pancakes = read_comparison("which pancakes were in the urban tree survival comparison", facts, kg)
    assert pancakes is not None and not pancakes.whole and "pancakes" in pancakes.unplaced


def test_a_number_is_compared_in_the_unit_its_property_gives() -> None:
    assert in_unit("2", "min", "Response time (s)") == "120" and in_unit("30", "seconds", "Response time (s)") == "30"
    assert in_unit("5", "years", "Follow up (months)") == "60" and in_unit("0.1", "km", "Resolution (m)") == "100"
    assert in_unit("7", "", "Response time (s)") == "7" and in_unit("7", "", "Duration") == "7"
    assert in_unit("40", "kg", "Length (m)") is None  # another quantity
    # a label without a unit: minutes or kilometres are not compared (its numbers may be in hours, in metres); a
    # percentage or degrees are
    assert in_unit("3", "min", "Duration") is None and in_unit("0.1", "km", "has spatial resolution") is None
    assert in_unit("90", "%", "Survival") == "90" and in_unit("31", "degrees", "Sea surface temperature") == "31"


def test_a_unit_alone_says_which_property_of_its_quantity_is_meant() -> None:
    labels = {"p:1": "Follow up (months)", "p:2": "Sample size (n)", "p:3": "Duration"}
    assert measured_in("years", labels) == ["p:1"] and measured_in("kg", labels) == []


def test_a_place_asked_of_two_place_properties_names_neither_and_a_labels_own_word_wins() -> None:
    facts = Comparisons({"orkgr:R1": "A"}, {"orkgr:R1": ("orkgp:P1", "orkgp:P2", "orkgp:P3")},
                        {"orkgp:P1": "Country", "orkgp:P2": "Study location",
                         "orkgp:P3": "has been evaluated in the City"})
    assert [p for p, _ in properties_named(words("which city"), facts, "orkgr:R1")] == ["orkgp:P3"]
    assert properties_named(words("where were they"), facts, "orkgr:R1") == []


def test_each_label_is_read_once_however_many_questions_are_matched_against_it(facts: Comparisons) -> None:
    """Every question is matched against the same labels (the ORKG vocabulary's fill many of them in): a label's
    words are worked out at its first question, not again at the next (issue 53's 100x bench); what a caller is
    given stays its own to change."""
    properties_named(words("which roof materials save the most energy"), facts, "")
    read = linking._content.cache_info().misses
    properties_named(words("what soil types and tree species were studied in lisbon"), facts, "")
    assert linking._content.cache_info().misses == read
    mine = content("has sample size")
    mine.append("changed")
    assert content("has sample size") == ["sample", "size"]


def test_a_labels_filler_words_name_nothing() -> None:
    """'across' in a comparison's title is no word a question names it by ('across all the comparisons …')."""
    assert content("Seagrass meadow restoration: transplant survival across species") == [
        "seagrass", "meadow", "restoration", "transplant", "survival", "species"]


def test_a_label_written_whole_with_its_own_filler_is_named_over_a_place_asked() -> None:
    """'country of study' is the label 'Country of study', not a place asked of 'location'."""
    facts = Comparisons({"orkgr:R1": "A"}, {"orkgr:R1": ("orkgp:P1", "orkgp:P2")},
                        {"orkgp:P1": "Country of study", "orkgp:P2": "location"})
    named = properties_named(words("which country of study comes up most often"), facts, "orkgr:R1")
    assert [(p, [w[2] for w in ws]) for p, ws in named] == [("orkgp:P1", ["country", "study"])]
    assert [p for p, _ in properties_named(words("which country comes up most"), facts, "orkgr:R1")] == ["orkgp:P2"]


def test_a_place_asked_is_no_more_one_place_label_than_another() -> None:
    """'where' of 'Country' and of 'Study location' alike: neither (the reading asks which); 'which country' is the
    one that says it."""
    facts = Comparisons({"orkgr:R1": "A"}, {"orkgr:R1": ("orkgp:P1", "orkgp:P2")},
                        {"orkgp:P1": "Country", "orkgp:P2": "Study location"})
    assert properties_named(words("where were the surveys done"), facts, "orkgr:R1") == []
    assert [p for p, _ in properties_named(words("which country were they in"), facts, "orkgr:R1")] == ["orkgp:P1"]


def test_a_unit_in_brackets_or_after_in_is_a_unit() -> None:
    from pipeline.intent.linking import unit

    text = "the biggest total data output (GB) in the comparison, in mpa"
    found = words(text)
    assert [w[2] for w in found if unit(w, found, text)] == ["gb", "mpa"]


def test_a_label_said_by_the_first_letters_of_all_its_words() -> None:
    assert linking.acronym("Case fatality rate") == "cfr" and linking.acronym("Follow up (months)") == "fu"
    text = "ebola studies with a cfr above 50"
    assert [w[2] for w in linking.claim(words(text), "Case fatality rate")] == ["cfr"]
    assert linking.full_label(linking.claim(words(text), "Case fatality rate"), "Case fatality rate")
    assert linking.claim(words("which case studies"), "Case fatality rate") == []  # 'case' alone names nothing
    assert linking.claim(words("sorry if this is obvious"), "Investigated species") == []  # 'is': a word of its own
