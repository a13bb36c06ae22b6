"""The letter-pair filter of the fuzzy lookup: it leaves out no label the full comparison finds, and an unknown
name's look-alikes are still listed."""
from __future__ import annotations

import random

import pytest

from pipeline.names import index as index_module
from pipeline.names.grams import Grams, pairs
from pipeline.names.index import LabelIndex
from pipeline.records import Match

SYLLABLES = ["ba", "ko", "ri", "net", "lan", "vox", "te", "mi", "zo", "ru", "qa", "sel"]


def _name(rng: random.Random) -> str:
    words = ["".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 3))).capitalize()
             for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.3:
        words.append(str(rng.randint(1, 300)))
    return " ".join(words)


def _typed(label: str, rng: random.Random) -> str:
    """The label with one or two slips: a swap, a dropped, an added or a wrong letter, or another name."""
    text = label
    for _ in range(rng.randint(1, 2)):
        i = rng.randrange(len(text))
        way = rng.choice(("swap", "drop", "add", "wrong", "other"))
        if way == "swap" and i < len(text) - 1:
            text = text[:i] + text[i + 1] + text[i] + text[i + 2:]
        elif way == "drop" and len(text) > 2:
            text = text[:i] + text[i + 1:]
        elif way == "add":
            text = text[:i] + rng.choice("aeiklnrst") + text[i:]
        elif way == "wrong":
            text = text[:i] + rng.choice("aeiklnrst") + text[i + 1:]
        else:
            text = _name(rng)
    return text


@pytest.fixture(scope="module")
def labels() -> list[tuple[str, str]]:
    rng = random.Random(3)
    return list({(_name(rng), rng.choice(("dataset", "model", "metric"))) for _ in range(3000)})


def test_the_filter_finds_what_comparing_every_label_finds(labels, monkeypatch) -> None:
    """Every lookup of a mistyped name chooses, asks about or lists the same labels as a search of every label of a
    similar length (the index before the filter)."""
    rng = random.Random(5)
    queries = [(_typed(label, rng), kind) for label, kind in rng.sample(labels, 400)]
    filtered = LabelIndex(labels, threshold=85.0)
    found = [filtered.find(typed, kind) for typed, kind in queries]
    monkeypatch.setattr(index_module._Kind, "within", lambda self, key, edits, low, high: self.lengths(low, high))
    every = LabelIndex(labels, threshold=85.0)
    for (typed, kind), got in zip(queries, found):
        want = every.find(typed, kind)
        if want.match is not Match.UNKNOWN:  # an unknown name's suggestions are sought among look-alikes (below)
            assert (got.match, got.chosen, got.candidates) == (want.match, want.chosen, want.candidates), typed
    assert sum(f.match is Match.CLOSE for f in found) >= 100  # the sample holds many slips the search must find


def test_an_unknown_name_lists_labels_that_look_like_it(labels) -> None:
    ix = LabelIndex(labels + [("Penn Treebank", "dataset")], threshold=85.0)
    found = ix.find("Penguin Treebank", "dataset")
    assert found.match is Match.UNKNOWN and "Penn Treebank" in found.candidates
    assert ix.find("Wyjjuh", "dataset").candidates == ()  # no letter pair in common with any label: nothing to list


def test_a_key_too_short_for_its_edits_is_compared_with_every_label() -> None:
    grams = Grams()
    for key in ("mrpc", "mprc", "squad1.1", "bert"):
        grams.add(key)
    assert pairs("mrpc") == {"mr", "rp", "pc"}
    assert grams.sharing("mrpc", 2, 3, 5) is None  # three pairs, two edits may touch four: no label ruled out
    assert grams.sharing("squad1.1", 1, 6, 10) == [2]
    assert grams.nearest("mrpx", 0, 10) == [0]  # shares 'mr', 'rp' with mrpc, nothing with the others
