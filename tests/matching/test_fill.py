"""Which words of a question could be names: known labels, and runs of name-like words outside them."""
from __future__ import annotations

import pytest

from pipeline.matching.fill import name_runs

GENERIC = frozenset({"top", "benchmark", "dataset", "score", "model", "models", "metric", "evaluated"})


def runs(text: str) -> list[str]:
    return [text[a:b] for a, b in name_runs(text, [], GENERIC)]


@pytest.mark.parametrize(("text", "names"), [
    ("which model is best on squad 1.1 in terms of F1", ["squad 1.1", "F1"]),  # typed in lowercase, version after
    ("what is the EM score of xlnet on squad 2.0?", ["EM", "squad 2.0"]),
    ("results of resnet 50 on ImageNet", ["resnet 50", "ImageNet"]),
    ("Which model is best on SQuAD 1.1?", ["SQuAD 1.1"]),  # a capitalised name runs on as before
])
def test_a_version_number_names_the_word_before_it(text: str, names: list[str]) -> None:
    assert runs(text) == names


@pytest.mark.parametrize(("text", "names"), [
    ("papers published in 2019 on ImageNet", ["2019", "ImageNet"]),  # a stopword is not a name
    ("the top 10 accuracy on ImageNet", ["10", "ImageNet"]),  # nor a word of the stored questions' own wording
    ("what is on squad, 1.1 or 2.0?", ["1.1", "2.0"]),  # nor a word the clause ends at
    ("which models score above 60 macro-f1 on pharmavigil-22", ["macro-f1", "pharmavigil-22"]),  # a bound, no name
    ("Show me Birdsong papers published after 2021.", ["Birdsong"]),
    ("models with at least 40 EM on HopTrail-3k", ["EM", "HopTrail-3k"]),
])
def test_a_number_does_not_pull_in_a_word_that_cannot_be_a_name(text: str, names: list[str]) -> None:
    assert runs(text) == names


def test_a_word_inside_a_known_label_is_not_taken_again() -> None:
    text = "scores on story cloze 2.0 please"
    found = [(10, 21, "dataset")]  # 'story cloze' known
    assert [text[a:b] for a, b in name_runs(text, found, GENERIC)] == ["2.0"]
