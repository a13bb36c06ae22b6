"""The conditions a question states beside its names and operators, and the ones a query leaves out."""
from __future__ import annotations

import pytest

from pipeline.intent.conditions import blanked, companions, numbers, unaccounted

MODELS_ON = ('SELECT DISTINCT ?model ?model_lbl WHERE { ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. '
             'FILTER (str(?dataset_lbl) = "D") ?benchmark orkgp:HAS_DATASET ?dataset. '
             '?cont orkgp:HAS_BENCHMARK ?benchmark; orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. }')
WITH_CODE = MODELS_ON.replace("orkgp:HAS_MODEL ?model.", "orkgp:HAS_MODEL ?model; orkgp:HAS_SOURCE_CODE ?code.")
WITH_VALUE = MODELS_ON.replace("?model ?model_lbl WHERE", "?model_lbl ?value WHERE").replace(
    "?benchmark orkgp:HAS_DATASET ?dataset.", "?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?e. "
    "?e orkgp:HAS_VALUE ?value.")
IN_YEAR = MODELS_ON.replace("?model rdfs:label ?model_lbl.", '?model rdfs:label ?model_lbl. ?paper orkgp:P31 ?cont; '
                            'orkgp:P29 "2019".')


def test_a_name_is_blanked_so_its_digits_and_words_are_its_own() -> None:
    text = "Which models have code for WMT 2014 (English)?"
    at = text.index("WMT")
    assert blanked(text, [(at, len(text) - 1)]) == "Which models have code for X?"
    assert numbers(blanked(text, [(at, len(text) - 1)])) == []
    assert numbers("Which papers on X were published in 2019 with at least 2 models, 3.5 or more?") == \
        ["2019", "2", "3.5"]


@pytest.mark.parametrize("words, sparql, lacks", [
    ("Which models have published code for X?", MODELS_ON, "code ('code')"),
    ("Which models have published code for X?", WITH_CODE, ""),
    ("Which models with an open-source implementation are evaluated on X?", MODELS_ON, "open-source"),
    ("Which models were evaluated on X in 2019?", MODELS_ON, "the number 2019"),
    ("Which models were evaluated on X in 2019?", IN_YEAR, ""),
    ("List every model with its score on X", MODELS_ON, "the value asked for beside the answer"),
    ("List every model with its score on X", WITH_VALUE, ""),
    ("List the models and their code links on X", WITH_CODE.replace("?model ?model_lbl", "?model_lbl ?code"), ""),
    ("Which models are evaluated on X?", MODELS_ON, ""),
    ("Which models were evaluated on X after 2019?", IN_YEAR, "the comparison 'after 2019'"),
    ("Which models were evaluated on X since 2019?", IN_YEAR.replace(
        "orkgp:P29 \"2019\".", "orkgp:P29 ?y. FILTER(xsd:integer(?y) >= 2019)"), ""),
    ("Which models get more than 40 on X?", WITH_VALUE[:-1] + 'FILTER(?value = "40") }', "more than 40"),
    ("Which models get more than 40 on X?", WITH_VALUE[:-1] + "FILTER(40 < xsd:decimal(?value)) }", ""),
    ("Which models get more than 40 on X?", WITH_VALUE[:-1] + "FILTER(xsd:decimal(?value) < 40) }", "more than 40"),
    ("Which models were evaluated on X before 2019?", IN_YEAR.replace(
        "orkgp:P29 \"2019\".", "orkgp:P29 ?y. FILTER(?y < xsd:integer(\"2019\"))"), ""),
    ("Which models were evaluated on X before 2019?", IN_YEAR.replace(
        "orkgp:P29 \"2019\".", "orkgp:P29 ?y. FILTER(\"2019\"^^xsd:integer < ?y)"), "before 2019"),
])
def test_what_a_query_leaves_out_is_said(words: str, sparql: str, lacks: str) -> None:
    found = unaccounted(words, sparql)
    assert (lacks in "; ".join(found)) if lacks else found == []
    assert bool(found) == bool(lacks)


def test_companions_are_read_beside_the_answer_only() -> None:
    assert companions("What is the top benchmark score and its metric on X?") == ["metric"]
    assert companions("Which model has the highest F1 on X along with its value?") == ["value"]
    assert companions("Which models are evaluated on both X and the Y dataset?") == []
    assert companions("top model on X by Y and what score did it get") == ["value"]  # no 'its' after 'what'
    assert companions("which paper introduced X and when?") == ["year"]
    assert companions("whats the best X anyone got on X, and which model was it") == ["value"]  # asked first
    assert companions("who beats X on X in X? with scores") == ["value"]
    assert companions("which papers on X come with code") == []  # a condition
    assert companions("all results for X pls (dataset, metric, score)") == ["metric", "value"]  # listed columns
    assert companions("which models, datasets and metrics are there") == []
    assert companions("fastest model on X (X) and what's its latency") == ["value"]  # a metric's own word
    assert companions("best model on X and its X?") == ["value"]  # a metric named last, blanked
    assert companions("best model on X and its X paper") == []


def test_only_is_held_by_a_query_that_excludes_the_rest() -> None:
    words = "Which models are evaluated only on X?"
    assert "the restriction 'only'" in unaccounted(words, MODELS_ON)[0]
    assert unaccounted(words, MODELS_ON[:-1] + "FILTER NOT EXISTS { ?other orkgp:HAS_MODEL ?model. } }") == []


def test_a_number_asked_beside_the_answer_is_its_value_and_a_number_of_things_is_a_count() -> None:
    assert companions("best accuracy on X - which model and what was the number") == ["value"]
    assert companions("which model, and the number of papers on it") == []


def test_a_score_asked_beside_who_holds_it_in_other_words_is_its_value() -> None:
    assert companions("lowest error on X? model + number pls") == ["value"]
    assert companions("list every model w/ its score on X") == ["value"]
    assert companions("which model had the lowest X on X and what was it") == ["value"]
    assert companions("whats the best X on the X set and who got it") == ["value"]
    assert companions("who got the best X on X") == [] and companions("models with code on X") == []


def test_titles_only_says_what_to_show_not_a_restriction() -> None:
    assert unaccounted("papers on X - titles only", MODELS_ON) == []
    assert unaccounted("which papers show names only", MODELS_ON) == []


def test_a_second_bound_is_not_the_first_bounds_tail() -> None:
    from pipeline.intent.conditions import comparisons

    assert comparisons("papers after 2021 and before 2024") == {"2021": ">", "2024": "<"}
    assert comparisons("papers from 2021 and before") == {"2021": "<="}  # '2021 and before': up to it
    assert comparisons("2018 or later") == {"2018": ">="}


def test_a_score_asked_after_the_holder_in_a_verb_or_without_an_apostrophe_is_its_value() -> None:
    assert companions("which model has the best X on X and what did it score") == ["value"]
    assert companions("worst X on X - which model and whats the value") == ["value"]
    assert companions("which model did X on X and what did it cost") == []  # no score said


def test_only_saying_what_is_needed_is_no_restriction() -> None:
    assert unaccounted("whats the lowest X on X, only need the value", MODELS_ON) == []
    assert "the restriction 'only'" in unaccounted("which models are evaluated only on X, i need them", MODELS_ON)[0]


def test_a_bound_said_after_the_metric_is_the_numbers() -> None:
    from pipeline.intent.conditions import comparisons

    assert comparisons("did any model reach 0.6 X or higher on X") == {"0.6": ">="}
    assert comparisons("did any model reach 0.6 mrr or higher on X") == {"0.6": ">="}
    assert comparisons("3 papers or more") == {"3": ">="}


def test_a_second_thing_asked_after_the_holder_is_no_score() -> None:
    assert companions("whats the best X anyone got on X, and which model was it") == ["value"]
    assert companions("which model has the best X on X and which paper reported it") == []
    assert companions("best X on X - which model was it and which paper reported it") == []


def test_in_total_after_a_count_is_the_count_itself_no_sum() -> None:
    listed = "SELECT DISTINCT ?cont WHERE { ?paper orkgp:P31 ?cont. ?cont orkgp:HAS_SOURCE_CODE ?code. }"
    assert unaccounted("how many contributions in total come with a code link?", listed, measures=True) == []
    assert unaccounted("what is the total of X on X?", listed, measures=True)  # a total asked: summed or counted
