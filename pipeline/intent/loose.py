"""Names people shorten: a metric abbreviated ('acc', 'cer', 'loc error'), a research field or problem said by one
word of its label in another form ('speleology papers' for 'Speleological Survey Mapping'). Each is linked only where
exactly one label of the graph fits: a shortened name that fits two is no name (``pipeline.intent.named``)."""
from __future__ import annotations

import re
from collections.abc import Iterable

from pipeline.intent.account import FILLER, meanings
from pipeline.matching.wording import STOPWORDS
from pipeline.names.index import LabelIndex, unmarked
from pipeline.records import Kind

_PARENTHESISED = re.compile(r"\([^)]*\)")
_ABBREVIATIONS: dict[int, tuple[int, dict[str, list[str]], list[tuple[tuple[str, ...], str]]]] = {}


def _metric_words(index: LabelIndex) -> tuple[dict[str, list[str]], list[tuple[tuple[str, ...], str]]]:
    """The graph's metrics by their initials (of two words or more), and each metric's words — the label's
    parenthesised part left out ('Equal Error Rate (%)': 'eer'; equal, error, rate) — kept while the index is."""
    held = _ABBREVIATIONS.get(id(index))
    if held is not None and held[0] == len(index):
        return held[1], held[2]
    initials: dict[str, list[str]] = {}
    worded: list[tuple[tuple[str, ...], str]] = []
    for label in index.labels(Kind.METRIC):
        words = tuple(re.findall(r"[^\W_]+", unmarked(_PARENTHESISED.sub(" ", label)).lower()))
        if words:
            worded.append((words, label))
            if len(words) >= 2 and all(w.isalpha() for w in words):
                initials.setdefault("".join(w[0] for w in words), []).append(label)
    _ABBREVIATIONS[id(index)] = (len(index), initials, worded)
    return initials, worded


def abbreviated(key: str, index: LabelIndex, generic: frozenset[str] = frozenset()) -> str | None:
    """The one metric of the graph ``key`` abbreviates: its initials ('cer' for 'Character Error Rate', 'eer' for
    'Equal Error Rate (%)'), or its words each cut short to three letters or more ('acc' for 'Accuracy', 'loc error'
    for 'Localization Error (m)'); None when none or several do, or for filler, a word with a meaning of its own or
    the stored questions' own words (people shorten a metric's name; a shortened name of anything else is a guess)."""
    typed = re.findall(r"[^\W_]+", unmarked(key).lower())
    unit = re.fullmatch(r"(.+?)\s+in\s+(\S+)", " ".join(typed))  # 'loc error in m': its unit said after it
    if unit:
        typed = unit.group(1).split()
    if not typed or not all(w.isalpha() for w in typed) or \
            any(w in FILLER or w in generic or w in STOPWORDS or meanings(w) for w in typed):
        return None
    initials, worded = _metric_words(index)
    hits = list(initials.get(typed[0], ())) if len(typed) == 1 and 2 <= len(typed[0]) <= 5 else []
    hits += [label for words, label in worded if len(words) == len(typed) and list(words) != typed
             and all(len(t) >= 3 and w.startswith(t) for t, w in zip(typed, words))]
    if unit:  # the unit must be the label's own
        hits = [h for h in hits if f"({unit.group(2)})" in h.lower().replace(" ", "")]
    found = list(dict.fromkeys(hits))
    return found[0] if len(found) == 1 else None


_FIELD_WORDS: dict[int, tuple[int, dict[str, set[tuple[str, str]]]]] = {}
_STEM = 6  # letters a word and a label's word must share at their start, at least


def _label_words(index: LabelIndex) -> dict[str, set[tuple[str, str]]]:
    """Each word of six letters or more of the graph's labels (papers' titles aside), by its first six letters: the
    words, with the label and kind each comes from; kept while the index is."""
    held = _FIELD_WORDS.get(id(index))
    if held is not None and held[0] == len(index):
        return held[1]
    out: dict[str, set[tuple[str, str]]] = {}
    for kind in (k for k in Kind if k not in (Kind.PAPER,)):
        for label in index.labels(kind):
            for word in re.findall(r"[^\W\d_]+", unmarked(label).lower()):
                if len(word) >= _STEM:
                    out.setdefault(word[:_STEM], set()).add((word, f"{kind}\t{label}"))
    _FIELD_WORDS[id(index)] = (len(index), out)
    return out


def field_word(key: str, index: LabelIndex, generic: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """The one research field or problem ``key`` — one word of eight letters or more, not filler, a word with a
    meaning of its own or the stored questions' own — names by a word of its label in another form ('speleology' for
    'Speleological Survey Mapping', 'palaeography' for 'Computational Palaeography'): (label, kind); None when the
    word is of no label, of several, or of a label of another kind too."""
    typed = re.findall(r"[^\W\d_]+", unmarked(key).lower())
    if len(typed) != 1 or len(typed[0]) < 8 or typed[0] in FILLER or typed[0] in generic or meanings(typed[0]):
        return None
    word = typed[0]
    common = max(_STEM, len(word) - 3)  # 'speleology' and 'speleological': all but an ending
    hits = {owner for other, owner in _label_words(index).get(word[:_STEM], ())
            if other[:common] == word[:common] or other == word}
    if len(hits) != 1:
        return None
    kind, label = next(iter(hits)).split("\t", 1)
    return (label, kind) if kind in (Kind.RESEARCHFIELD, Kind.PROBLEM) else None


def shortened(key: str, index: LabelIndex, generic: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """The one label ``key`` shortens, and its kind: a field or problem by a word of its label (``field_word``), a
    metric abbreviated (``abbreviated``); None for none."""
    metric = abbreviated(key, index, generic)
    return field_word(key, index, generic) or ((metric, Kind.METRIC) if metric is not None else None)


def with_shortened(graph: dict[str, tuple[str, set[str]]], keys: Iterable[str], index: LabelIndex | None,
                   generic: frozenset[str] = frozenset()) -> dict[str, tuple[str, set[str]]]:
    """``graph`` with the keys it lacks that shorten one label of the graph (``shortened``)."""
    if index is None:
        return graph
    out = dict(graph)
    for key in sorted(set(keys) - out.keys()):
        hit = shortened(key, index, generic)
        if hit is not None:
            out[key] = (hit[0], {hit[1]})
    return out
