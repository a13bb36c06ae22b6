"""The one operator table: each entry found by its phrasings, the more specific phrasing first."""
from __future__ import annotations

import pytest

from pipeline.intent.operators import TABLE, operators_in


@pytest.mark.parametrize(("question", "names"), [
    ("how many locations are there", ["count"]),
    ("whats the most common method", ["most"]),
    ("which treatment comes up most often", ["most"]),
    ("the most recent paper", ["latest"]),
    ("the highest efficiency", ["max"]),
    ("the shortest follow-up", ["min"]),
    ("the 2nd highest cost", ["kth"]),
    ("whats the third-lowest ph", ["kth_lowest"]),
    ("papers per venue", ["count"]),
    ("which papers per venue", []),  # a list for each: no count
    ("avg biomass change", ["average"]),
    ("does any study use gravel", ["yesno"]),
    ("are there studies in kenya", []),
    ("which papers are from 2015", []),
    ("difference between the heaviest and the lightest weight", ["spread"]),  # how far apart, no 'max' nor 'min'
    ("gap between lowest and highest cost", ["spread"]),
    ("whats the spread of memory (max minus min)", ["spread", "spread"]),  # said twice, one operator
    ("the lowest and the highest cost", ["range"]),  # both ends listed, no spread
])
def test_operators_are_found_by_their_phrasings(question: str, names: list[str]) -> None:
    assert [op.name for op, _ in operators_in(question)] == names


def test_an_operator_takes_all_of_its_words() -> None:
    """'used most often' is one phrasing: no word of it is left for the reading to place."""
    question = "the intervention used most often"
    [(op, (a, b))] = operators_in(question)
    assert op.name == "most" and question[a:b] == "used most often"


def test_a_place_is_read_from_its_ordinal() -> None:
    from pipeline.intent.operators import place_of

    assert [place_of(said) for said in ("2nd highest", "third lowest", "highest")] == [2, 3, 1]


def test_every_entry_says_what_it_does_and_has_a_shape() -> None:
    for op in TABLE.values():
        assert "{what}" in op.says or "{by}" in op.says
        assert op.name == "list" or op.phrasings
        assert not (op.ask and (op.aggregate or op.order))


@pytest.mark.parametrize(("question", "names"), [
    ("total number of participants across the studies", ["count", "sum"]),  # the reader keeps 'number of' a label's
    ("what is the sum of the yields", ["sum"]),
    ("how many papers are there in total", ["count"]),
    ("if you add up the yields what do you get", ["sum"]),
])
def test_a_sum_is_one_entry_of_the_table(question: str, names: list[str]) -> None:
    assert sorted(op.name for op, _ in operators_in(question)) == names
