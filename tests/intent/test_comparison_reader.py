"""The rules' reading of questions about comparisons, over a small graph of two comparisons (standins): what each
question is read as, and which words leave a reading partial (never compiled)."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.intent.comparison_reader import read_comparison
from pipeline.intent.comparisons import Comparisons, read_comparisons
from pipeline.intent.record import Reading
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.sparql.text import add_prefixes
from standins.comparison_fixture import write_comparisons


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> tuple[OxigraphKG, Comparisons]:
    kg = OxigraphKG(write_comparisons(tmp_path_factory.mktemp("cmp") / "g.nt"), row_cap=1000)
    facts = read_comparisons(kg)
    assert facts is not None
    return kg, facts


def _eval_graph(name: str) -> tuple[OxigraphKG, Comparisons]:
    """An evaluation set's graph of comparisons (tests/data/eval/NAME.nt) and what it says about them."""
    kg = OxigraphKG(Path(__file__).resolve().parents[2] / "tests" / "data" / "eval" / f"{name}.nt", row_cap=1000)
    facts = read_comparisons(kg)
    assert facts is not None
    return kg, facts


def _read(question: str, graph: tuple[OxigraphKG, Comparisons]) -> Reading:
    reading = read_comparison(question, graph[1], graph[0])
    assert reading is not None, question
    return reading


@pytest.mark.parametrize(("question", "asked", "operator", "scope"), [
    ("where were the urban tree studies done?", "orkgp:P9001", "list", "orkgr:R9100"),
    ("which tree species are most common in the urban tree survival comparison", "orkgp:P9003", "most",
     "orkgr:R9100"),
    ("what is the average sample size of the tree survival studies", "orkgp:P9002", "average", "orkgr:R9100"),
    ("which study had the largest sample size", "paper", "max", ""),
    ("how many papers in the green roof comparison were published after 2015", "paper", "count", "orkgr:R9200"),
    ("what research problems do the green roof papers address", "problem", "list", "orkgr:R9200"),
    ("hey, which soil types show up in the urban tree comparison?", "orkgp:P9004", "list", "orkgr:R9100"),
    ("how many different soil types are there in the tree survival studies", "orkgp:P9004", "count", "orkgr:R9100"),
    ("which cities have studies been run in?", "orkgp:P9001", "list", ""),
    ("does any study use gravel as roof material?", "paper", "yesno", ""),
    # the comparison's name is the run of words that ends it: 'trees' apart from it asks for the tree species …
    ("which trees did the urban survival comparison look at", "orkgp:P9003", "list", "orkgr:R9100"),
    # … unless nothing else would place it: 'urban' apart, a word of the same name all the same
    ("how many urban soil types are in the tree survival comparison", "orkgp:P9004", "count", "orkgr:R9100"),
    # 'is there any …' asks yes or no, unless it asks for the things as well
    ("is there any study in the green roof comparison with an energy saving above 15?", "paper", "yesno",
     "orkgr:R9200"),
    ("is there any study in the green roof comparison with an energy saving above 15, which ones?", "paper", "list",
     "orkgr:R9200"),
    ("does any study in the green roof comparison use gravel? which ones", "paper", "list", "orkgr:R9200"),
    # no comparison named: 'which comparisons' asks for them, a property named or not
    ("which comparisons have Oslo as the study location", "comparison", "list", ""),
    ("which papers in the green roof comparsion came out after 2015", "paper", "list", "orkgr:R9200"),  # a slip
    # what to show said again ('venues only', 'y/n', '(papers, not contributions)'), 'summed', a range's ends
    ("where were the green roof papers published? venues only", "venue", "list", "orkgr:R9200"),
    ("does any green roof study use gravel? y/n", "paper", "yesno", "orkgr:R9200"),
    ("how many papers (papers, not contributions) are in the green roof comparison", "paper", "count",
     "orkgr:R9200"),
    ("total sample size summed over the urban tree studies", "orkgp:P9002", "sum", "orkgr:R9100"),
    ("urban tree papers from 2014 to 2019, both years incl", "paper", "list", "orkgr:R9100"),
    ("is there an urban tree contribution with a sample size above 100?", "contribution", "yesno", "orkgr:R9100"),
    ("how many papers per study location, across all 2 comparisons", "paper", "count", ""),
])
def test_questions_are_read_whole(graph: tuple[OxigraphKG, Comparisons], question: str, asked: str,
                                  operator: str, scope: str) -> None:
    reading = _read(question, graph)
    assert reading.whole, reading.unplaced
    assert (reading.asked, reading.operator) == (asked, operator)
    assert (reading.scope.iri if reading.scope else "") == scope


def test_a_value_named_is_a_condition_on_the_property_it_is_a_value_of(
        graph: tuple[OxigraphKG, Comparisons]) -> None:
    reading = _read("which species were studied in lisbon", graph)
    assert [(c.on, c.op, c.value) for c in reading.conditions] == [("orkgp:P9001", "=", "Lisbon")]
    assert reading.asked == "orkgp:P9003" and reading.label_of("orkgp:P9001") == "Study location"
    plural = _read("which papers in the green roof comparison used sedum mats", graph)  # the label is singular
    assert [c.value for c in plural.conditions] == ["Sedum mat"]


@pytest.mark.parametrize(("question", "bounds"), [
    ("list papers since 2016 in the green roof comparison", [(">=", "2016")]),
    ("green roof papers published before 2016", [("<", "2016")]),
    ("which green roof papers are from 2016", [("=", "2016")]),
    ("green roof papers from 2016 onwards", [(">=", "2016")]),
    ("green roof papers between 2012 and 2016", [(">=", "2012"), ("<=", "2016")]),
])
def test_year_bounds_are_inclusive_or_not_as_worded(graph: tuple[OxigraphKG, Comparisons], question: str,
                                                   bounds: list[tuple[str, str]]) -> None:
    reading = _read(question, graph)
    assert reading.whole and [(c.op, c.value) for c in reading.conditions if c.on == "year"] == bounds


def test_a_number_bounds_the_property_named_before_it(graph: tuple[OxigraphKG, Comparisons]) -> None:
    reading = _read("which tree species were studied with a sample size above 100", graph)
    assert [(c.on, c.op, c.value) for c in reading.conditions] == [("orkgp:P9002", ">", "100")]


@pytest.mark.parametrize(("question", "unplaced"), [
    ("what soil types do the urban tree studies in norwegian towns use", "norwegian"),
    ("which urban tree studies were not done", "not"),  # a negation of nothing the reading holds
    ("how many papers and their years are in the green roof comparison", "(also year)"),
])
def test_words_no_part_of_the_reading_holds_leave_it_partial(graph: tuple[OxigraphKG, Comparisons],
                                                            question: str, unplaced: str) -> None:
    reading = _read(question, graph)
    assert not reading.whole and unplaced in reading.unplaced


def test_a_question_about_something_else_is_no_comparison_reading(graph: tuple[OxigraphKG, Comparisons]) -> None:
    assert read_comparison("Which model has the highest accuracy on SQuAD?", graph[1], graph[0]) is None


def test_a_graph_with_no_labels_on_its_comparisons_reads_nothing(graph: tuple[OxigraphKG, Comparisons]) -> None:
    bare = Comparisons(dict.fromkeys(graph[1].labels, ""), graph[1].properties, {})
    assert read_comparison("where were the urban tree studies done?", bare, graph[0]) is None


def test_the_record_says_where_each_part_came_from(graph: tuple[OxigraphKG, Comparisons]) -> None:
    question = "which papers in the green roof comparison used gravel"
    reading = _read(question, graph)
    value = next(n for n in reading.names if n.kind == "value")
    assert question[slice(*value.span)] == "gravel" and value.label == "Gravel"
    assert reading.scope is not None and "green roof" in question[slice(*reading.scope.span)]
    data = reading.to_json()
    assert data["whole"] and data["asked"] == "paper" and data["conditions"][0]["iri"] == value.iri


@pytest.mark.parametrize(("question", "value"), [
    ("which studies were not in lisbon", "Lisbon"), ("which tree species were studied without clay", "Clay"),
    ("which green roof papers didn't use gravel", "Gravel")])
def test_a_negation_turns_the_condition_it_stands_before_around(graph: tuple[OxigraphKG, Comparisons],
                                                                question: str, value: str) -> None:
    reading = _read(question, graph)
    assert reading.whole and [(c.op, c.value) for c in reading.conditions] == [("!=", value)]


def test_two_things_asked_at_once_are_both_asked(graph: tuple[OxigraphKG, Comparisons]) -> None:
    reading = _read("which paper had the largest sample size and when was it published", graph)
    assert reading.whole and (reading.asked, reading.by, reading.also) == ("paper", "orkgp:P9002", ("year",))


def test_a_highest_or_an_average_is_taken_only_of_numbers(graph: tuple[OxigraphKG, Comparisons]) -> None:
    """Soil types are things: the one that comes up the most is the most common; 'the highest soil type' is no
    reading (the graph gives no number for it), while sample sizes are numbers."""
    often = _read("which soil type comes up the most in the urban tree comparison?", graph)
    assert often.whole and (often.asked, often.operator) == ("orkgp:P9004", "most"), often.unplaced
    highest = _read("what is the highest soil type in the urban tree comparison?", graph)
    assert not highest.whole and "highest" in highest.unplaced
    numbers = _read("what is the highest sample size in the urban tree comparison?", graph)
    assert numbers.whole and numbers.operator == "max"


def test_an_operators_word_is_never_part_of_a_comparisons_name(graph: tuple[OxigraphKG, Comparisons]) -> None:
    """'the strongest green roof cooling': 'strongest' ranks by something the question does not name — never read
    into the comparison's name and dropped (every paper of the comparison listed)."""
    reading = _read("which paper got the strongest green roof cooling?", graph)
    assert not (reading.whole and reading.operator == "list"), reading
    assert reading.scope is None or "strongest" not in reading.question[reading.scope.span[0]:reading.scope.span[1]]


@pytest.fixture(scope="module")
def sensors() -> tuple[OxigraphKG, Comparisons]:
    """comparisons8's graph (tests/data/eval): its comparisons' labels share words with their properties, values
    and venues ('drug', 'sensors', 'model')."""
    return _eval_graph("comparisons8")


def test_a_word_that_says_what_is_asked_is_not_read_into_the_comparisons_name(
        sensors: tuple[OxigraphKG, Comparisons]) -> None:
    read = _read("which drugs did the UK studies in the feline epilepsy comparison use?", sensors)
    assert not read.whole and "drugs" in read.unplaced  # 'drug' is a word of its label, not its name here
    assert read.scope is not None and read.scope.span[0] > read.question.index("drugs")


def test_a_value_typed_as_its_initials_in_capitals_is_that_value(sensors: tuple[OxigraphKG, Comparisons]) -> None:
    read = _read("which papers in the cat epilepsy comparison are from the US?", sensors)
    assert read.whole and [(c.op, c.value) for c in read.conditions] == [("=", "United States")]
    lower = _read("list the papers in the cat epilepsy comparison for us", sensors)  # the word, no country
    assert lower.whole and lower.conditions == ()
    shouted = _read("PLS list the papers in the cat epilepsy comparison", sensors)  # a chat word in capitals
    assert shouted.whole and shouted.conditions == ()


def test_a_value_that_ends_the_comparisons_name_is_part_of_it(sensors: tuple[OxigraphKG, Comparisons]) -> None:
    read = _read("which paper reports the highest recovery time in the ammonia gas sensors comparison", sensors)
    assert read.whole and read.conditions == () and read.operator == "max"  # not the venue 'Sensors'
    first = _read("which paper reports the highest recovery time in the sensors for ammonia gas comparison", sensors)
    assert first.whole and first.conditions == () and first.operator == "max"  # anywhere in the name's words


def test_contributions_are_counted_as_contributions_and_listed_as_their_papers(
        sensors: tuple[OxigraphKG, Comparisons]) -> None:
    from pipeline.intent.compile import compile_reading

    counted = _read("how many contributions are in the ammonia gas sensors comparison", sensors)
    assert (counted.asked, counted.operator) == ("contribution", "count")
    assert "COUNT(DISTINCT ?contribution)" in compile_reading(counted)
    papers = _read("how many papers are in the ammonia gas sensors comparison", sensors)
    assert "COUNT(DISTINCT ?paper_lbl)" in compile_reading(papers)
    listed = _read("which contributions are in the ammonia gas sensors comparison", sensors)
    # a contribution's label may say nothing ('Contribution 1'): each is listed with its paper
    assert (listed.asked, listed.also) == ("contribution", ("paper",))
    rows = sensors[0].select(add_prefixes(compile_reading(listed))).rows
    assert rows and all(r["contribution_lbl"]["value"].startswith("Contribution") and r["paper_lbl"]["value"]
                        for r in rows)


def test_a_count_per_year_is_one_count_for_each_year(sensors: tuple[OxigraphKG, Comparisons]) -> None:
    from pipeline.intent.compile import compile_reading

    read = _read("how many papers per year in the ammonia gas sensors comparison", sensors)
    assert read.whole and (read.asked, read.operator, read.per) == ("paper", "count", "year")
    rows = sensors[0].select(add_prefixes(compile_reading(read))).rows
    assert len(rows) > 1 and all(r["year"]["value"].isdigit() for r in rows)


def test_one_value_asked_of_each_paper_is_shown_with_its_paper(sensors: tuple[OxigraphKG, Comparisons]) -> None:
    read = _read("what material did each paper use in the ammonia gas sensors comparison", sensors)
    assert read.whole and read.also == ("paper",)
    both = _read("for each study in the ammonia gas sensors comparison, material + year pls", sensors)
    assert both.whole and both.also == ("year",)  # two things asked for each: those two, the rows are the studies'


@pytest.mark.parametrize("question", [
    "which papers per country are in the cat epilepsy comparison?",  # a list for each: no list of them all
    "which paper in the cat epilepsy comparison had the youngest age of cats at seizure onset"])  # no year's ranking
def test_a_property_named_that_the_answer_leaves_aside_leaves_the_reading_partial(
        sensors: tuple[OxigraphKG, Comparisons], question: str) -> None:
    read = _read(question, sensors)
    assert not read.whole and any(w in " ".join(read.unplaced) for w in ("Country", "Age of cats")), read


def test_a_range_typed_with_thru_keeps_both_ends_and_the_years_asked_too(
        sensors: tuple[OxigraphKG, Comparisons]) -> None:
    read = _read("which eggshell thinning papers came out 2006 thru 2013 (incl both)? pls give years too", sensors)
    assert read.whole and read.also == ("year",)
    assert {(c.on, c.op, c.value) for c in read.conditions} == {("year", ">=", "2006"), ("year", "<=", "2013")}


def test_an_apology_a_greeting_and_newer_than_are_read_as_people_type_them(
        sensors: tuple[OxigraphKG, Comparisons]) -> None:
    asked = _read("sorry if this is a dumb question but which research problems does the eggshell thinning "
                  "comparison cover?", sensors)
    assert asked.whole and asked.asked == "problem" and asked.conditions == ()  # no negation in its 'but'
    newer = _read("morning! papers in the termite mound comparison newer than 2012?", sensors)
    assert newer.whole and [(c.on, c.op, c.value) for c in newer.conditions] == [("year", ">", "2012")]


def test_the_orkgs_named_properties_describe_contributions_as_numbered_ones_do(
        sensors: tuple[OxigraphKG, Comparisons]) -> None:
    """orkgp:MATERIAL ("Material") is a property of the sensor comparison's contributions; the leaderboard's
    orkgp:HAS_MODEL stays the intent composer's."""
    assert "orkgp:MATERIAL" in sensors[1].carried() and "orkgp:HAS_MODEL" not in sensors[1].carried()
    read = _read("which materials were tested in the ammonia gas sensor comparison?", sensors)
    assert read.whole and read.asked == "orkgp:MATERIAL"


def test_a_property_named_in_other_words_after_which_is_read_by_meaning(graph: tuple[OxigraphKG,
                                                                                     Comparisons]) -> None:
    """Words no label holds right after 'which', read as the property whose label they mean clearly more than any
    other's (the cosines here stand in for the sentence encoder's); words elsewhere are not ('swiss' is no
    'Country'), nor words meaning two properties alike."""
    from dataclasses import replace

    kg, facts = graph
    cosines = {"ground": [(0.62, "orkgp:P9004"), (0.35, "orkgp:P9001")]}
    read = read_comparison("which ground did the urban tree survival studies use",
                           replace(facts, property_meant=lambda p: cosines.get(p, [])), kg)
    assert read is not None and read.asked == "orkgp:P9004" and not read.unplaced
    read = read_comparison("in the urban tree survival comparison, list the ground they used",
                           replace(facts, property_meant=lambda p: cosines.get(p, [])), kg)
    assert read is None or read.asked != "orkgp:P9004"
    close = {"ground": [(0.52, "orkgp:P9004"), (0.49, "orkgp:P9001")]}
    read = read_comparison("which ground did the urban tree survival studies use",
                           replace(facts, property_meant=lambda p: close.get(p, [])), kg)
    assert read is None or read.asked != "orkgp:P9004"


def test_the_first_k_of_a_ranking_of_things_by_a_property(graph: tuple[OxigraphKG, Comparisons]) -> None:
    from pipeline.intent.compile import compile_reading, sentence

    top = _read("top 2 green roof studies by energy saving", graph)
    assert (top.asked, top.operator, top.by, top.k) == ("paper", "max", "orkgp:P9006", 2) and top.whole
    assert "LIMIT 2" in compile_reading(top) and "the 2 papers with the highest 'Energy saving'" in sentence(top)
    values = _read("top 2 energy savings in the green roof comparison", graph)
    assert not values.whole and "2" in values.unplaced  # the values alone, cut at 2: not compiled


def test_the_highest_value_and_the_paper_it_is_in(graph: tuple[OxigraphKG, Comparisons]) -> None:
    read = _read("what's the highest energy saving anyone reported and in which paper?", graph)
    assert read.whole and (read.asked, read.operator, read.by, read.also) == ("paper", "max", "orkgp:P9006", ())


def test_a_count_or_an_aggregate_for_each_value_of_a_property(graph: tuple[OxigraphKG, Comparisons]) -> None:
    """'how many papers per city', 'average energy saving for each roof material': one row for each value."""
    from pipeline.intent.compile import compile_reading, sentence
    from tests.intent.conftest import answer_of

    kg = graph[0]
    counted = _read("how many papers per study location in the urban tree comparison", graph)
    assert counted.whole and (counted.asked, counted.operator, counted.per) == ("paper", "count", "orkgp:P9001")
    assert answer_of(kg, compile_reading(counted)) == {("2", "Lisbon"), ("1", "Oslo"), ("1", "Athens")}
    assert "for each 'Study location'" in sentence(counted)
    averaged = _read("average energy saving for each roof material in the green roof comparison", graph)
    assert averaged.whole and averaged.per == "orkgp:P9005"
    got = answer_of(kg, compile_reading(averaged))
    assert not isinstance(got, bool) and {tuple(sorted(row))[-1] for row in got} == {"Gravel", "Sedum mat"}
    assert any("15.25" in row for row in got) and any("7" in row for row in got)  # (12.5 + 18) / 2, 7


def test_the_best_and_the_worst_are_ranked_the_way_the_propertys_label_says_is_better(
        sensors: tuple[OxigraphKG, Comparisons], graph: tuple[OxigraphKG, Comparisons]) -> None:
    best = _read("which paper reports the best recovery time in the ammonia gas sensors comparison", sensors)
    assert best.whole and best.operator == "min"  # a time taken: the lowest
    worst = _read("which paper reports the worst recovery time in the ammonia gas sensors comparison", sensors)
    assert worst.whole and worst.operator == "max"
    unknown = _read("which paper had the worst energy saving in the green roof comparison", graph)
    assert not unknown.whole and "worst" in unknown.unplaced  # the label does not say which way is better


def test_a_value_typed_as_its_initials_in_the_plural_beside_a_venue_of_the_comparisons_name() -> None:
    """'RCTs' is 'Randomized controlled trial' in the comparison 'mindfulness' names (not the venue 'Mindfulness')."""
    read = _read("which papers in the mindfulness comparison are RCTs", _eval_graph("comparisons11"))
    assert read.whole and [(c.op, c.value) for c in read.conditions] == [("=", "Randomized controlled trial")]
    assert read.scope is not None and "Mindfulness" in read.scope.label


def test_a_property_the_things_asked_report_is_held_to_be_given(sensors: tuple[OxigraphKG, Comparisons]) -> None:
    from pipeline.intent.compile import compile_reading

    read = _read("which comparisons report a country at all?", sensors)
    assert read.whole and read.asked == "comparison"
    assert [(c.on, c.op) for c in read.conditions] == [("orkgp:P15249", "present")]
    given = {r["comparison_lbl"]["value"] for r in sensors[0].select(add_prefixes(compile_reading(read))).rows}
    every = {r["l"]["value"] for r in sensors[0].select(add_prefixes(
        "SELECT ?l WHERE { ?c a orkgc:Comparison ; rdfs:label ?l }")).rows}
    assert given and given < every  # some comparisons give no country
    papers = _read("which papers in the ammonia gas sensors comparison report a material", sensors)
    assert papers.whole and papers.asked == "paper" and papers.also == ("orkgp:MATERIAL",)  # shown with it


def test_a_number_bound_said_after_it_or_with_longer_than_in_another_unit(
        sensors: tuple[OxigraphKG, Comparisons]) -> None:
    """'under 2 min' against 'Response time (s)': 120 s; '5 or more', 'longer than 30 s'; a unit of several scales
    against a label with none is not compared ('3 weeks' of a 'Duration' in days or months?)."""
    minutes = _read("which materials in the ammonia gas sensors comparison have a response time under 2 min", sensors)
    assert minutes.whole and [(c.op, c.value) for c in minutes.conditions] == [("<", "120")]
    longer = _read("which materials in the ammonia gas sensors comparison have a response time longer than 30 s",
                   sensors)
    assert longer.whole and [(c.op, c.value) for c in longer.conditions] == [(">", "30")]
    after = _read("which materials in the ammonia gas sensors comparison have a response time of 30 s or more",
                  sensors)
    assert [(c.op, c.value) for c in after.conditions] == [(">=", "30")]


def test_outside_a_place_is_its_negation_and_compared_is_the_comparisons_own_word() -> None:
    graph = _eval_graph("comparisons12")
    outside = _read("what platforms did the flipped classroom studies outside the US use?", graph)
    assert outside.whole and [(c.op, c.value) for c in outside.conditions] == [("!=", "United States")]
    compared = _read("what interventions are compared in the hand hygiene one?", graph)
    assert compared.whole and compared.asked.startswith("orkgp:") and compared.conditions == ()


def test_papers_with_more_than_a_number_of_contributions_are_counted_per_paper(
        sensors: tuple[OxigraphKG, Comparisons]) -> None:
    from collections import Counter

    from pipeline.intent.compile import compile_reading

    read = _read("which papers in the ammonia gas sensors comparison have more than 1 contribution?", sensors)
    assert read.whole and [(c.on, c.op, c.value) for c in read.conditions] == [("contribution", ">", "1")]
    scope = read.scope.iri if read.scope else ""
    rows = sensors[0].select(add_prefixes(f"SELECT ?p WHERE {{ {scope} orkgp:compareContribution ?c . "
                                          "?p orkgp:P31 ?c . }")).rows
    many = {p for p, n in Counter(r["p"]["value"] for r in rows).items() if n > 1}
    got = sensors[0].select(add_prefixes(compile_reading(read))).rows
    assert len(got) == len(many) and all(int(r["contributions"]["value"]) > 1 for r in got)
    counted = _read("how many papers in the ammonia gas sensors comparison have more than 1 contribution?", sensors)
    assert sensors[0].select(add_prefixes(compile_reading(counted))).rows[0]["count"]["value"] == str(len(many))
    per_year = _read("how many papers per year in the ammonia gas sensors comparison have more than 1 contribution",
                     sensors)
    assert not per_year.whole and "more than 1" in per_year.unplaced  # no count per year compiled with the bound


def test_neither_nor_holds_both_properties_absent(graph: tuple[OxigraphKG, Comparisons]) -> None:
    reading = _read("green roof papers that report neither an energy saving nor a roof material", graph)
    assert reading.whole and [(c.on, c.op) for c in reading.conditions] == [("orkgp:P9006", "absent"),
                                                                            ("orkgp:P9005", "absent")]
