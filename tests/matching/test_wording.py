"""How people type: typos and word endings are forgiven."""
from __future__ import annotations

import itertools

import pytest

from pipeline.matching import wording
from pipeline.matching.wording import norm_word, stem, word_sim

@pytest.mark.parametrize(("a", "b", "low"), [
    ("evaluated", "evaluated", 1.0), ("model", "models", 0.85), ("benchmarked", "benchmarking", 0.85),
    ("evaluated", "evaluted", 0.8), ("dataset", "datsaet", 0.7), ("the", "teh", 0.6),
])
def test_typos_and_endings_are_forgiven(a: str, b: str, low: float) -> None:
    assert word_sim(a, b) >= low


@pytest.mark.parametrize(("a", "b"), [("on", "of"), ("model", "metric"), ("dataset", "database"), ("", "x")])
def test_different_words_do_not_match(a: str, b: str) -> None:
    assert word_sim(a, b) == 0.0


def test_normalised_words_drop_case_and_punctuation() -> None:
    assert norm_word("Dataset?") == "dataset"
    assert norm_word('"(metric') == "metric"
    assert stem("benchmarks") == stem("benchmarked") == "benchmark"


PAIRS = [("model", "models"), ("evaluated", "evaluting"), ("dataset", "datsaet"), ("the", "teh"), ("abc", "acb"),
         ("ab", "ba"), ("benchmarked", "benchmarking"), ("metric", "metrics"), ("score", "scores"), ("on", "of"),
         ("a", ""), ("", ""), ("abcd", "abdc"), ("abcd", "bacd"), ("abcd", "abcde"), ("abcd", "xabcd"),
         ("abcd", "acd"), ("abcd", "badc"), ("abcdefgh", "abcdefhg"), ("abcdefgh", "bacdefhg"), ("aab", "aba"),
         ("research", "reseach"), ("classification", "classifications"), ("accuracy", "accuarcy")]


@pytest.mark.parametrize(("a", "b"), PAIRS + [(b, a) for a, b in PAIRS])
def test_the_one_pass_check_is_the_bounded_edit_distance(a: str, b: str) -> None:
    assert wording._within_one(a, b) == (wording._edits(a, b, 1) <= 1)


def test_every_short_pair_agrees_with_the_bounded_edit_distance() -> None:
    strings = ["".join(p) for n in range(6) for p in itertools.product("ab", repeat=n)]
    assert all(wording._within_one(a, b) == (wording._edits(a, b, 1) <= 1) for a in strings for b in strings)


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_the_cached_similarity_is_the_plain_one(a: str, b: str) -> None:
    assert word_sim(a, b) == word_sim.__wrapped__(a, b) == _plain_sim(a, b)


def _plain_sim(a: str, b: str) -> float:
    """word_sim as first written: stems and the bounded edit distance, nothing cached."""
    if a == b:
        return 1.0
    if not a or not b:
        return 0.0
    if stem(a) == stem(b):
        return 0.9
    shorter = min(len(a), len(b))
    if shorter >= 4 and wording._edits(a, b, 1) <= 1:
        return 0.85
    if shorter >= 7 and wording._edits(a, b, 2) <= 2:
        return 0.75
    if shorter == 3 and wording._edits(a, b, 1) <= 1:
        return 0.7
    return 0.0
