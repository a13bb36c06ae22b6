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


def _within_one(a: str, b: str) -> bool:
    """The hand-written one-pass check rapidfuzz replaced (kept here as the reference it must agree with)."""
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) > 1:
        return False
    k, n = 0, len(a)
    while k < n and a[k] == b[k]:
        k += 1
    if n < len(b):
        return a[k:] == b[k + 1:]
    return a[k + 1:] == b[k + 1:] or (a[k + 1:k + 2] == b[k:k + 1] and a[k:k + 1] == b[k + 1:k + 2]
                                      and a[k + 2:] == b[k + 2:])


def _edits(a: str, b: str, cap: int) -> int:
    """The hand-written optimal-string-alignment distance rapidfuzz replaced, giving up above ``cap``."""
    if abs(len(a) - len(b)) > cap:
        return cap + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > cap:
            return cap + 1
        prev2, prev = prev, cur
    return prev[-1]


@pytest.mark.parametrize(("a", "b"), PAIRS + [(b, a) for a, b in PAIRS])
def test_rapidfuzz_gives_the_verdicts_of_the_hand_written_distances(a: str, b: str) -> None:
    assert wording.within_edits(a, b) == _within_one(a, b) == (_edits(a, b, 1) <= 1)
    assert wording.within_edits(a, b, 2) == (_edits(a, b, 2) <= 2)


def test_every_short_pair_agrees_with_the_hand_written_distances() -> None:
    strings = ["".join(p) for n in range(6) for p in itertools.product("abc"[:2 if n > 4 else 3], repeat=n)]
    assert all(wording.within_edits(a, b) == _within_one(a, b) and
               wording.within_edits(a, b, 2) == (_edits(a, b, 2) <= 2) for a in strings for b in strings)


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_the_cached_similarity_is_the_plain_one(a: str, b: str) -> None:
    assert word_sim(a, b) == word_sim.__wrapped__(a, b) == _plain_sim(a, b)


def _plain_sim(a: str, b: str) -> float:
    """word_sim as first written: stems and the hand-written bounded edit distance, nothing cached."""
    if a == b:
        return 1.0
    if not a or not b:
        return 0.0
    if stem(a) == stem(b):
        return 0.9
    shorter = min(len(a), len(b))
    if shorter >= 4 and _edits(a, b, 1) <= 1:
        return 0.85
    if shorter >= 7 and _edits(a, b, 2) <= 2:
        return 0.75
    if shorter == 3 and _edits(a, b, 1) <= 1:
        return 0.7
    return 0.0
