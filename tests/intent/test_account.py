"""Every word accounted for: a query composed from an intent pair answers only when the pair says every word of the
question (a name, filler, or a word of the same meaning); otherwise the reading is partial and the reply declines,
naming the words it could not place. A metric where lower is better turns "best" and "worst" around."""
from __future__ import annotations

import pytest

from pipeline.intent.account import meanings, read_question, unplaced, words
from pipeline.intent.idioms import idioms
from pipeline.intent.step import IntentStep
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.records import Generation
from tests.intent import gold
from tests.intent.conftest import answer_of

LIST = ("Name models benchmarked on GlyphBench-3 whose code is published.", ((27, 39),),
        "SELECT ?m WHERE { ?c orkgp:HAS_MODEL ?m; orkgp:HAS_SOURCE_CODE ?code; orkgp:HAS_BENCHMARK ?b. "
        "?b orkgp:HAS_DATASET ?d }")


def _at(question: str, name: str) -> list[tuple[int, int]]:
    start = question.index(name)
    return [(start, start + len(name))]


@pytest.mark.parametrize("question", ["wich modls on Story Cloze Test were evaluted and have code?",
                                      "hey, which models tested on Story Cloze Test have published code pls"])
def test_typos_filler_and_links_are_placed(question: str) -> None:
    assert unplaced(read_question(question, _at(question, "Story Cloze Test")), LIST) == []


@pytest.mark.parametrize(("question", "left"), [
    ("models on Story Cloze Test that dont have code", ["dont"]),  # a negation typed without its apostrophe
    ("models on Story Cloze Test without code", ["without"]),
    ("models on Story Cloze Test with code and their year", ["year"]),  # two things asked, the pair gives one
    ("models on Story Cloze Test with code, frobnicated", ["frobnicated"]),  # a word no list holds
])
def test_a_word_the_pair_does_not_say_is_left(question: str, left: list[str]) -> None:
    assert unplaced(read_question(question, _at(question, "Story Cloze Test")), LIST) == left


def test_best_and_worst_follow_the_metric() -> None:
    assert meanings("best") == {"up"} and meanings("best", lower_better=True) == {"down"}
    assert meanings("worst") == {"down"} and meanings("worst", lower_better=True) == {"up"}
    assert meanings("highest", lower_better=True) == {"up"}  # "highest" says what it means
    assert meanings("fastest", lower_better=True) == {"down"} and meanings("slowest", lower_better=True) == {"up"}
    assert meanings("dont") == {"not"} and meanings("dent") == frozenset()  # no negation read into a look-alike


def _review(question: str, kg: OxigraphKG) -> Generation:
    """The intent step's answer when no stored query came close (no query written)."""
    return IntentStep().review(question, Generation("adapter", None), [], kg).generation


@pytest.mark.parametrize(("question", "word"), [("papers on Story Cloze Test that dont have code", "dont"),
                                              ("which story cloze test papers have no code", "papers")])
def test_a_negation_no_pair_holds_is_declined_with_its_word(fixture_kg: OxigraphKG, question: str, word: str) -> None:
    done = _review(question, fixture_kg)
    assert done.sparql is None, done.sparql  # never the papers *with* code
    assert "could not place" in done.explanation and f"'{word}'" in done.explanation


def test_best_and_worst_on_an_error_rate(fixture_kg: OxigraphKG) -> None:
    board = dict(gold.scores("LibriVoice (clean)", "Word Error Rate (WER)"))
    low, high = min(board, key=lambda m: float(board[m])), max(board, key=lambda m: float(board[m]))
    for question, expected in [("worst model on LibriVoice (clean) by Word Error Rate (WER)?", high),
                               ("which model is best on LibriVoice (clean) by Word Error Rate (WER)", low),
                               ("which model has the highest Word Error Rate (WER) on LibriVoice (clean)", high)]:
        done = _review(question, fixture_kg)
        assert done.sparql is not None, question
        found = answer_of(fixture_kg, done.sparql)
        assert not isinstance(found, bool), question
        assert {v for row in found for v in row} & {expected, *board} == {expected}, question


def test_two_things_asked_are_not_answered_with_one(fixture_kg: OxigraphKG) -> None:
    done = _review("which paper introduced CoherenceNet and what field is it in", fixture_kg)
    assert done.sparql is None and "'field'" in done.explanation  # no pair gives a paper and its field


@pytest.mark.parametrize(("typed", "read"), [
    ("comparsion", "comparison"), ("comparision", "comparison"), ("publicaton", "publication"), ("datsets", "datasets"),
    ("papres", "papers"),
    ("modes", "modes"), ("compare", "compare"), ("contribs", "contribs"), ("comparing", "comparing")])
def test_a_slip_in_one_of_the_readings_own_long_words_is_read_as_that_word(typed: str, read: str) -> None:
    """Six letters or more, one slip from one word only; a shorter word, or one the reading knows, stays itself."""
    assert [w for _, _, w in words(f"the {typed} here")][1] == read


def test_better_than_beats_and_the_least_of_a_score_is_its_lowest() -> None:
    def said(text: str) -> set[tuple[str, str]]:
        return {(text[a:b], meaning) for a, b, meaning in idioms(text)}

    assert said("did A get a better RMSE than B") == {("than", "beat")}  # the metric between is a name's
    assert said("did better than X") == {("better than", "beat")}
    assert said("the least accurate model") == {("least", "down")}
    assert said("the least common value") == set() and meanings("least") == {"most"}


def test_shorthands_read_as_the_words_they_stand_for() -> None:
    """'w/o' is 'without', 'w/' 'with'; 'i.e.' and 'e.g.' introduce what is said again; a tie asked about is its own
    meaning, said only by a query that keeps every thing sharing a place."""
    assert [w for _, _, w in words("papers w/o a venue, w/ code")] == ["papers", "without", "a", "venue", "with",
                                                                        "code"]
    assert [m for *_, m in idioms("older than 2014, i.e. before 2014")] == ["link"]
    assert [m for *_, m in idioms("best on X? i think theres a tie")] == ["ties"]
    def said(text: str) -> list[tuple[str, str]]:
        return [(text[a:b], m) for a, b, m in idioms(text)]

    assert ("i think", "link") in said("worst on X (lower is better i think)")  # a hedge
    assert said("did the X studies take place in Kenya at all") == [("take place", "link"), ("at all", "link")]
    assert ("in order", "link") in said("top 3 on X by Y, in order w/ scores")  # the ranking's own order
    assert said("in order to compare, list X") == []
    assert ("at least one contribution ", "link") in said("papers with at least one contribution w/ code")
    assert [w for _, _, w in words("teh paper")] == ["the", "paper"]  # a stopword's two letters swapped
    from pipeline.intent.account import _phrased
    text = "what problem does the FadeDiff paper address"  # the paper that name stands for: no paper asked
    at = text.index("FadeDiff")
    assert [(text[a:b], m) for a, b, m in _phrased(text, [(at, at + 8)])] == [("paper", "link")]
    assert _phrased("which FadeDiff papers exist", [(6, 14)]) == []
    assert [m for *_, m in idioms("fastest on X? could be more than one")] == ["ties"]


def test_a_second_thing_asked_without_a_kind_word_is_not_answered_with_the_first() -> None:
    assert [m for _, _, m in idioms("which models were proposed in the X paper, and on what")] == ["second"]
    text = "papers strictly after 2019"  # 'strictly' says what 'after' says: read with it
    assert [(text[a:b].strip(), m) for a, b, m in idioms(text)] == [("strictly", "link")]


def test_and_on_what_leaves_the_reading_partial(fixture_kg: OxigraphKG) -> None:
    done = _review("which models were evaluated on Story Cloze Test, and on what", fixture_kg)
    assert done.sparql is None and "'what'" in done.explanation


def test_two_counts_asked_at_once_are_a_second_thing_asked() -> None:

    text = "how many X papers are there and how many distinct models do they have"
    assert [(text[a:b], m) for a, b, m in idioms(text) if m == "second"] == [("how many", "second")]
    text = "how many papers and models are there in X"
    assert [(text[a:b], m) for a, b, m in idioms(text) if m == "second"] == [("and", "second")]
    assert not [m for _, _, m in idioms("how many models do X papers have") if m == "second"]


def test_a_count_of_things_not_asked_is_never_composed(fixture_kg: OxigraphKG) -> None:
    done = _review("how many papers and models are there in Natural Language Processing", fixture_kg)
    assert done.sparql is None


def test_both_scores_of_two_models_is_no_both_of_two_datasets() -> None:

    text = "A vs B on X by Y, give me both scores"
    assert [(text[a:b], m) for a, b, m in idioms(text)] == [("both scores", "link")]


def test_all_and_a_count_said_again_is_a_link_but_a_year_is_not() -> None:

    text = "how many contributions per design, across all 4 comparisons"
    assert [(text[a:b], m) for a, b, m in idioms(text) if m == "link"] == [("all 4 comparisons", "link")]
    assert not idioms("all the 2022 papers, across every comparison")
