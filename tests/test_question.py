"""The one normaliser of a question: what is kept, and the chatter around it that peels off."""
from __future__ import annotations

import pytest

from pipeline.question import tidy

Q = "Which model has achieved the highest Accuracy score on the Story Cloze Test benchmark dataset?"


@pytest.mark.parametrize("typed", [
    f"<@U0KGQABOT> {Q}",
    f"<@U0KGQABOT|kgqa>   {Q}",
    f"@kgqa {Q}",
    f"hey, quick one: {Q} thanks!",
    f"<@U0KGQABOT> hey, quick one: {Q} thx",
    f"quick question: {Q}",
    f"hi! {Q}",
    f"Hello team, {Q} Thank you.",
    f"  {Q.replace(' ', '  ')}  ",
    f"{Q} please",
    f"ok so {Q} cheers",
])
def test_wrappers_and_blanks_peel_off(typed: str) -> None:
    assert tidy(typed) == Q


def test_a_question_that_is_only_a_greeting_stays_as_it_is() -> None:
    assert tidy("hello") == "hello"
    assert tidy("  thanks! ") == "thanks!"


def test_words_inside_the_question_stay() -> None:
    q = "What is the top benchmark result (metric and value) over the dataset Q: hey thanks?"
    assert tidy(q).startswith("What is the top benchmark result (metric and value) over the dataset")


@pytest.mark.parametrize(("typed", "read"), [
    ("what datsets has geobind3d been tested on", "what datasets has geobind3d been tested on"),
    ("papres with cetaceanet in them?", "papers with cetaceanet in them?"),
    ("best modle on claimguard auto", "best model on claimguard auto"),
])
def test_a_kind_word_typed_with_a_slip_is_read_as_the_word(typed: str, read: str) -> None:
    assert tidy(typed) == read


@pytest.mark.parametrize("kept", ["which dataset is it", "the modes of transport", "which pager", "Modle-X results",
                                  "metric of a problem"])
def test_other_words_and_names_keep_their_spelling(kept: str) -> None:
    assert tidy(kept) == kept


@pytest.mark.parametrize(("typed", "read"), [
    ("what yr did it come out", "what year did it come out"),
    ("# of papers in the aquaponics one?", "number of papers in the aquaponics one?"),
    ("studies pre-2018", "studies before 2018"), ("wat papers", "what papers"),
    ("top 3 contribs by F1", "top 3 contributions by F1"), ("which contrib is it", "which contribution is it"),
    ("no. of papers per year?", "number of papers per year?"), ("worst on X latency wise?", "worst on X by latency?"),
    ("total nr of patients", "total number of patients"),
    ("did anything hit 90% accuracy or more", "did anything hit 90 accuracy or more"), ("Top-1 (%)", "Top-1 (%)"),
    ("models above 90% on X", "models above 90 on X"),
    ("the paper with 100% OSA frequency", "the paper with 100% OSA frequency"),  # no bound: the value's own words
    ("for the slides - top 3 models on X", "top 3 models on X"), ("for my report: papers on X", "papers on X"),
    ("for the X dataset - which models", "for the X dataset - which models"),  # a name follows: no purpose
    ("wma papers from 2015 to 2019 (inclusive both ends)", "wma papers between 2015 and 2019"),
    ("did A beat B on top-5 acc on X", "did A beat B on top-5 accuracy on X"), ("ACC-Net's score", "ACC-Net's score"),
    ("worst on X latency-wise", "worst on X by latency"),
    ("papers post 2019", "papers after 2019"),
    # a range of years, its ends included, in the one wording the readings take
    ("papers pubished 2019-2021 (inclusive)", "papers pubished between 2019 and 2021"),
    ("papers from 2007 thru 2012 (incl both)", "papers between 2007 and 2012"),
    ("papers 2019 to 2021, both inclusive", "papers between 2019 and 2021"),
    ("models run on more then two datasets", "models run on more than 2 datasets"),
    ("worst on X (lower = better)", "worst on X (lower is better)"),
    # a superlative said again as best or worst: the one that says which end stays
    ("the highest i.e. worst MAPE on X", "the highest MAPE on X"), ("best, i.e. lowest rmse on X", "lowest rmse on X"),
    ("the best i.e. the top model on X", "the best i.e. the top model on X"),  # no end said: nothing dropped
    ("a paper count broken down by yr", "a number of papers per year"), ("papers w/ code", "papers with code"),
    ("papers w/o code", "papers w/o code"), ("papers w/ released code", "papers with released code"),
    ("code of BiLSTM-Attn w/ ELMo", "code of BiLSTM-Attn w/ ELMo"),  # a name's own
    ("model counts split by venue", "number of models per venue"),
    ("lowest rmse on X - which model n what was the score", "lowest rmse on X - which model and what was the score"),
    ("sample size (n) of X", "sample size (n) of X"),  # no second ask after it: a name's own
    ("how many models hav results on X", "how many models have results on X"),
    ("the diff between the best and the worst on X", "the difference between the best and the worst on X"),
    ("how many diff models on X", "how many diff models on X"),  # 'different': filler
    ("smallest sample size in the urban beekeeping comp", "smallest sample size in the urban beekeeping comparison"),
    ("papers in comp sci", "papers in comp sci"),
])
def test_shorthand_is_written_out(typed: str, read: str) -> None:
    assert tidy(typed) == read


@pytest.mark.parametrize(("typed", "read"), [
    ("which paper introduced X and what year was it published? need it for a citation",
     "which paper introduced X and what year was it published?"),
    ("which datasets report more than 1 metric? trying to figure out where we have multi-metric comparisons",
     "which datasets report more than 1 metric?"),
    ("which problems have never had code? want to flag gaps in the review", "which problems have never had code?"),
    ("best mape on X? want to know the score too", "best mape on X? want to know the score too"),  # asks more
    ("best mape on X? i think its a tie", "best mape on X? i think its a tie"),  # it says who is asked for
    ("which model is best on X? and what score?", "which model is best on X? and what score?")])
def test_a_closing_remark_on_why_it_is_asked_peels_off(typed: str, read: str) -> None:
    assert tidy(typed) == read
