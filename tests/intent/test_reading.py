"""What a question asks, read from its words."""
from __future__ import annotations

import pytest

from pipeline.intent.reading import (
    CODE,
    asked_kinds,
    asks_a_value,
    first_asked,
    mentioned_kinds,
    names_things,
    read_intent,
)
from pipeline.records import Kind


@pytest.mark.parametrize("question, operators, rank", [
    ("How many models have been evaluated on the SQuAD1.1 dataset?", {"count"}, 1),
    ("Which model is second best on ImageNet by Top-1 Accuracy?", {"kth"}, 2),
    ("which model is 3rd on X", {"kth"}, 3),
    ("Which model has the lowest EM on SQuAD1.1?", {"lowest"}, 1),
    ("Which models are evaluated on both SQuAD1.1 and SQuAD2.0?", {"both"}, 1),
    ("Is BERT evaluated on SQuAD1.1?", {"yesno"}, 1),
    ("Are there any research problems with benchmark datasets in the realm of NLP research?", set(), 1),
    ("Can you list the models that have been evaluated on the SentEval dataset?", set(), 1),
    ("What are the titles and IDs of research papers that include a benchmark for the X dataset?", set(), 1),
    ("Which models are evaluated on at least two datasets?", set(), 1),  # a floor, not the lowest
    ("What is the least common metric?", {"lowest"}, 1),
    ("how many contributions don't link any source code?", {"count"}, 1),  # a thing lacking, no second name
    ("give me all of X's results (dataset, metric, value)", set(), 1),  # every one of its own, no 'both'
    ("List every model with its Accuracy score on the X dataset.", {"every"}, 1),
    ("Show each model and its F1 on X", {"every"}, 1),
    ("Which models are evaluated on all of X, Y and Z?", {"both"}, 1),  # "all of": on each of them
    ("What are the top 3 models on X by F1?", {"top"}, 3),
    ("Name the best five models on X", {"top"}, 5),
    ("List the three best models on X by M and what they scored", {"top"}, 3),
    ("Which are the 4 leading systems on X?", {"top"}, 4),
    ("Is the best model on X among the two best on Y?", {"yesno", "top"}, 2),
    ("Which model has the best Top 5 Accuracy on X?", set(), 1),  # a metric's name, not the top five
    ("What is the top performing model on X?", set(), 1),
    ("Which models were run on X but not on Y?", {"except"}, 1),
    ("models on X except those evaluated on Y", {"except"}, 1),
    ("X papers apart from the ones at Y", {"except"}, 1),
    ("X papers that arent about Y", {"except"}, 1),
    ("X papers that are not about Y", {"except"}, 1),
    ("X papers aside from Y ones", {"except"}, 1),
    ("Which models, including but not limited to X, are on Y?", set(), 1),
    ("Do you know which papers address X?", set(), 1),  # asked politely: a list, not yes or no
    ("is there any paper on X published before 2016?", {"yesno"}, 1),  # 'is there a / any': yes or no …
    ("is there any paper on X before 2016? which ones", set(), 1),  # … unless the things are asked too
    ("is there a code repository for X?", set(), 1),  # code: its links answer it
    ("did anything beat X on Y? which ones", set(), 1),  # the things asked after the yes or no
    ("has any model been run on both A and B? which", {"both"}, 1),  # … or a bare "which" after it
    ("papers per venue?", {"count"}, 1),  # things per another: how many for each
    ("which X models dont report Y anywhere", {"except"}, 1),
    ("which X models dont have code", set(), 1),  # a thing lacking: no second name left out
    ("two best models on X by M", {"top"}, 2),  # the k first, said first
    ("the X 10 best results", set(), 1),  # a number inside a name before 'best' is no k
    ("is there code out for X or not", {"yesno"}, 1),  # '… or not': yes or no in so many words, code too
    ("which problems have never had any code released?", set(), 1),  # a thing lacking, no second name left out
    ("which models were never run on Y", {"except"}, 1),
    ("did any model get 0.6 X or higher on Y", {"yesno"}, 1),  # a bound's own 'or', no choice of two
    ("is A or B higher on Y", set(), 1),  # a choice of two: which one
    ("A vs B on Y, give me both scores", set(), 1),  # each one's score: no 'both' of two datasets
    ("how many models were tested on X not counting Y", {"count", "except"}, 1),
])
def test_operators(question: str, operators: set[str], rank: int) -> None:
    intent = read_intent(question)
    assert intent.operators == operators and intent.rank == rank


def test_the_highest_in_words_is_read_but_not_best_or_top() -> None:
    assert read_intent("Which model has the highest F1 on SQuAD1.1?").highest
    assert read_intent("What is the maximum and minimum score?").highest
    assert not read_intent("Which model performs best on SQuAD1.1?").highest
    assert not read_intent("What is the top performing model on SQuAD1.1?").highest


def _span(question: str, name: str) -> list[tuple[int, int]]:
    return [(question.index(name), question.index(name) + len(name))]


def test_the_kinds_asked_for_are_named_in_words_but_not_a_names_class_word() -> None:
    question = "Provide a list of papers that have utilized the A2C model and include the links to their code?"
    assert asked_kinds(question, _span(question, "A2C")) == {"code", "paper"}
    question = "What is the highest benchmark result achieved on the CoQA dataset, including the metric?"
    assert asked_kinds(question, _span(question, "CoQA")) == {"metric"}
    for question in ("where was DrQA published", "where did the DrQA paper appear?"):
        assert "venue" in asked_kinds(question, _span(question, "DrQA"))  # where it was published: its venue
    assert "venue" not in asked_kinds("where does DrQA rank on SQuAD?")
    assert first_asked("what paper introduced DrQA and when was it published?") == "paper"  # in the order said
    assert first_asked("when was the paper introducing DrQA published?") == "year"
    assert asked_kinds("What is the F1 score of BERT on SQuAD1.1?") == set()
    assert asked_kinds('When was "Attention is all you need" published?') == {"year"}
    assert asked_kinds("In which year did papers on X appear?") == {"year", "paper"}
    assert asked_kinds("What F1 has X reached on Y over the years?") == set()  # no year asked for
    assert asked_kinds("Which model wins when ranked by F1?") == {"model"}  # 'when' of a condition asks no year
    assert first_asked("Can you list the metrics used to evaluate models on X?") == "metric"
    assert first_asked("Which models have metrics reported on X?") == "model"
    assert first_asked("What is the F1 of X on Y?") is None
    question = "was anything on Pigment Fading published before 2020?"  # whether there are such papers
    assert asked_kinds(question, _span(question, "Pigment Fading")) == {"paper"}


def test_a_field_asked_for_or_mentioned_is_the_research_field_kind_typos_forgiven() -> None:
    assert asked_kinds("Which fields have papers on SQuAD1.1?") == {Kind.RESEARCHFIELD, Kind.PAPER}
    assert mentioned_kinds("Which reseach feild uses BERT, and its modle?") == {Kind.RESEARCHFIELD, Kind.MODEL}
    assert mentioned_kinds("Is it in the realm of NLP?") == {Kind.RESEARCHFIELD}
    assert mentioned_kinds("Which fi is it?") == frozenset()  # under three letters: no typo read


def test_a_kind_word_inside_a_name_is_not_asked_for() -> None:
    text = "What is the F1 of XLNet (single model) on SQuAD1.1?"
    at = text.index("XLNet (single model)")
    assert asked_kinds(text) == {Kind.MODEL}
    assert asked_kinds(text, [(at, at + len("XLNet (single model)"))]) == set()


@pytest.mark.parametrize(("question", "rank"), [
    ("Which model is the runner-up on LoreQA by F1?", 2), ("the runner up on LoreQA", 2),
    ("Which models are runners-up on LoreQA?", 2), ("the second model on LoreQA", 2)])
def test_a_runner_up_is_the_second_place(question: str, rank: int) -> None:
    intent = read_intent(question)
    assert "kth" in intent.operators and intent.rank == rank


def test_an_area_asked_for_is_a_research_field() -> None:
    assert asked_kinds("research area of Common Sense Reasoning") == {Kind.RESEARCHFIELD}


def test_a_question_naming_no_kind_asks_a_value_when_it_asks_for_a_score_not_who_holds_it() -> None:
    assert asks_a_value("top X score achieved on the X benchmark")
    assert asks_a_value("the best value reported for X")
    assert not asks_a_value("who tops X on X?") and not asks_a_value("who has the best score on X?")
    assert not asks_a_value("What tops X on X?")


def test_a_question_naming_a_kind_of_thing_in_any_word_names_things() -> None:
    from pipeline.intent.reading import names_things

    assert names_things("Which approach has the highest X on X?") and names_things("Which benchmarks did X get on?")
    assert not names_things("top X score achieved on the X benchmark")  # the name's own class word
    assert not names_things("What is the highest X reported on X?")


def test_a_value_is_asked_in_the_words_of_a_score_or_of_a_superlative_before_the_metric() -> None:
    assert asks_a_value("What is the highest X reported on X?")  # names blanked: the metric's highest value
    assert asks_a_value("which X did the X model get on X?")
    assert not asks_a_value("who has the highest X on X?")
    assert not asks_a_value("Which models did X evaluate?")


def test_a_word_after_a_name_of_another_kind_is_asked_not_its_class_word() -> None:
    assert asked_kinds("count of papers in X", [(0, 5, "metric")]) == {Kind.PAPER}
    assert asked_kinds("Which Computational Semantics papers came out?", [(6, 29, "researchfield")]) == {Kind.PAPER}
    assert asked_kinds("Which github repository holds X?", [(29, 30, "model")]) == {CODE}
    assert asked_kinds("What is the CoQA dataset about?", [(12, 16, "dataset")]) == set()  # its own class word
    assert asked_kinds("What is the CoQA dataset about?", [(12, 16)]) == set()  # a name of no known kind: the same


def test_a_loosely_typed_name_left_in_the_words_is_no_kind_of_thing_named() -> None:
    assert not names_things("best X on moraine tiles")  # 'tiles' one letter from 'title', and no paper asked
    assert names_things("which approach is best on X")


def test_both_years_of_a_bound_are_its_ends_not_two_things() -> None:
    assert "both" not in read_intent("how many papers between 2018 and 2020, both yrs inclusive").operators
    assert "both" not in read_intent("papers from 2016 through 2020, both years included").operators
    assert "both" in read_intent("which models were run on both X and Y").operators


def test_anything_asked_yes_or_no_is_who() -> None:
    from pipeline.intent.reading import asks_who

    assert asks_who("did anything ever reach 0.6 X or higher on X")
    assert asks_who("has anyone got above 0.5 X on X") and asks_who("anyone under 0.2 X on X")
    assert not asks_who("did X ever reach anything like 0.6 on X")
