"""Names people shorten: a metric abbreviated ('acc', 'cer', 'loc error'), a research field or problem said by one
word of its label in another form ('speleology papers' for 'Speleological Survey Mapping'). Each is linked only where
exactly one label of the graph fits: a shortened name that fits two is no name (``pipeline.intent.named``)."""
from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

from pipeline.intent.account import FILLER, meanings
from pipeline.intent.linking import initials, letters_of
from pipeline.matching.wording import STOPWORDS
from pipeline.names.index import LabelIndex, unmarked
from pipeline.records import Kind

_PARENTHESISED = re.compile(r"\([^)]*\)")
_T = TypeVar("_T")
_DERIVED: WeakKeyDictionary[LabelIndex, dict[str, tuple[int, Any]]] = WeakKeyDictionary()


def _derived(index: LabelIndex, build: Callable[[LabelIndex], _T]) -> _T:
    """What ``build`` derives from ``index``'s labels, kept while the index lives and holds as many labels (it only
    grows: ``LabelIndex.add``)."""
    held = _DERIVED.setdefault(index, {})
    size, value = held.get(build.__name__, (-1, None))
    if size != len(index):
        size, value = len(index), build(index)
        held[build.__name__] = (size, value)
    return value  # type: ignore[no-any-return]


def _metric_words(index: LabelIndex) -> tuple[dict[str, list[str]], list[tuple[tuple[str, ...], str]]]:
    """The graph's metrics by their initials (``linking.initials``: 'Equal Error Rate (%)': 'eer'), and each metric's
    words, the label's parenthesised part left out (equal, error, rate)."""
    by_initials: dict[str, list[str]] = {}
    worded: list[tuple[tuple[str, ...], str]] = []
    for label in index.labels(Kind.METRIC):
        words = tuple(re.findall(r"[^\W_]+", unmarked(_PARENTHESISED.sub(" ", label)).lower()))
        if words:
            worded.append((words, label))
        if len(said := initials(label)) >= 2:
            by_initials.setdefault(said, []).append(label)
    return by_initials, worded


def abbreviated(key: str, index: LabelIndex, generic: frozenset[str] = frozenset()) -> str | None:
    """The one metric of the graph ``key`` abbreviates: its initials ('cer' for 'Character Error Rate', 'eer' for
    'Equal Error Rate (%)'), its words each cut short to three letters or more ('acc' for 'Accuracy', 'loc error'
    for 'Localization Error (m)'), or its last words ('latency' for 'Inference Latency (ms)'); None when none or
    several do, or for filler, a word with a meaning of its own or the stored questions' own words (people shorten a
    metric's name; a shortened name of anything else is a guess)."""
    typed = re.findall(r"[^\W_]+", unmarked(key).lower())
    unit = re.fullmatch(r"(.+?)\s+in\s+(\S+)", " ".join(typed))  # 'loc error in m': its unit said after it
    if unit:
        typed = unit.group(1).split()
    by_initials, worded = _derived(index, _metric_words)
    # a one-word metric said by some of its letters, its first and others in order ('pplx' for 'Perplexity'; not a
    # word of the question's own: 'ppl' are people as often as a perplexity)
    skeleton = [label for words, label in worded if len(typed) == 1 and len(words) == 1 and len(typed[0]) >= 3
                and len(words[0]) >= 2 * len(typed[0]) and typed[0].isalpha() and letters_of(typed[0], words[0])]
    if len(skeleton) == 1 and typed[0] not in generic and typed[0] not in FILLER and not meanings(typed[0]):
        return skeleton[0]
    if not typed or not all(w.isalpha() for w in typed) or \
            any(w in FILLER or w in generic or w in STOPWORDS for w in typed):
        return None
    hits = list(by_initials.get(typed[0], ())) if len(typed) == 1 and 2 <= len(typed[0]) <= 5 and \
        not meanings(typed[0]) else []
    # each word cut short, or the label's own word whole: 'mean abs error' ('mean' means an average elsewhere)
    hits += [label for words, label in worded if len(words) == len(typed) and list(words) != typed
             and all(len(t) >= 3 and w.startswith(t) and (t == w or not meanings(t)) for t, w in zip(typed, words))]
    # its last words, the name's head ('latency' for 'Inference Latency (ms)', 'dating error', 'kappa')
    hits += [label for words, label in worded if len(words) > len(typed) and list(words[-len(typed):]) == typed
             and all(len(t) >= 4 and not meanings(t) for t in typed)]
    if unit:  # the unit must be the label's own
        hits = [h for h in hits if f"({unit.group(2)})" in h.lower().replace(" ", "")]
    found = list(dict.fromkeys(hits))
    return found[0] if len(found) == 1 else None


_STEM = 6  # letters a word and a label's word must share at their start, at least


def _label_words(index: LabelIndex) -> dict[str, set[tuple[str, str, str]]]:
    """Each word of six letters or more of the graph's labels (papers' titles aside), by its first six letters: the
    word, and the kind and label it comes from."""
    out: dict[str, set[tuple[str, str, str]]] = {}
    for kind in (k for k in Kind if k is not Kind.PAPER):
        for label in index.labels(kind):
            for word in re.findall(r"[^\W\d_]+", unmarked(label).lower()):
                if len(word) >= _STEM:
                    out.setdefault(word[:_STEM], set()).add((word, kind, label))
    return out


def field_word(key: str, index: LabelIndex, generic: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """The one research field or problem ``key`` — one word of six letters or more, not filler, a word with a meaning
    of its own or the stored questions' own — names by a word of its label in another form ('speleology' for
    'Speleological Survey Mapping', 'palaeography' for 'Computational Palaeography'), the field before the problems
    when one field has it: (label, kind); None when the word is of no label, of several fields or problems, or of a
    label of another kind too."""
    typed = re.findall(r"[^\W\d_]+", unmarked(key).lower())
    if 2 <= len(typed) <= 4:
        return _field_part(typed, index, generic)
    if len(typed) != 1 or len(typed[0]) < _STEM or typed[0] in FILLER or typed[0] in generic or \
            meanings(typed[0]):
        return None
    word = typed[0]
    common = max(_STEM, len(word) - 3)  # 'speleology' and 'speleological': all but an ending
    # a model's or dataset's name compounded of the word ('LichenNet-24') is not the word in another form; its plural
    # ('Icequakes of Greenland', two letters more at most) is
    hits = {(kind, label) for other, kind, label in _derived(index, _label_words).get(word[:_STEM], ())
            if other[:common] == word[:common] and (kind in (Kind.RESEARCHFIELD, Kind.PROBLEM)
                                                    or abs(len(other) - len(word)) <= 2)}
    if not hits or any(kind not in (Kind.RESEARCHFIELD, Kind.PROBLEM) for kind, _ in hits):
        return None
    # a topic said by one word is its research field where one field has it ('lichen papers': the field, not the
    # problem 'Lichen Species Identification' inside it); otherwise the one problem that has it
    fields = {hit for hit in hits if hit[0] == Kind.RESEARCHFIELD}
    if len(fields or hits) != 1:
        return None
    kind, label = next(iter(fields or hits))
    return label, kind


def _field_words(index: LabelIndex) -> dict[str, set[tuple[str, str, int]]]:
    """Each word of the graph's research fields' and problems' labels: the kind and label it is a word of, and how
    many words that label has."""
    out: dict[str, set[tuple[str, str, int]]] = {}
    for kind in (Kind.RESEARCHFIELD, Kind.PROBLEM):
        for label in index.labels(kind):
            words = re.findall(r"[^\W\d_]+", unmarked(label).lower())
            for word in words:
                out.setdefault(word, set()).add((kind, label, len(words)))
    return out


def _field_part(typed: list[str], index: LabelIndex, generic: frozenset[str]) -> tuple[str, str] | None:
    """The one research field or problem whose label holds every word typed (``field_parts``): 'the textile weave
    field' for 'Historical Textile Weave Analysis'; None when none or several do."""
    hits = _field_hits(typed, index, generic)
    if len(hits) != 1:
        return None
    kind, label = next(iter(hits))
    return label, kind


def field_parts(key: str, index: LabelIndex, generic: frozenset[str] = frozenset()) -> list[str]:
    """The labels of the research fields and problems that hold every word of ``key`` (two to four words, three
    letters or more, one of five or more, none filler, a word with a meaning of its own or the stored questions'),
    and more words besides: 'volcanic ash' for a field and a problem alike, asked back which."""
    typed = re.findall(r"[^\W\d_]+", unmarked(key).lower())
    return sorted({label for _, label in _field_hits(typed, index, generic)}) if 2 <= len(typed) <= 4 else []


def _field_hits(typed: list[str], index: LabelIndex, generic: frozenset[str]) -> set[tuple[str, str]]:
    if any(len(w) < 3 or w in FILLER or w in generic or w in STOPWORDS or meanings(w) for w in typed) or \
            max(map(len, typed)) < 5:
        return set()
    by_word = _derived(index, _field_words)
    held = [by_word.get(w, set()) | by_word.get(w[:-1], set()) if w.endswith("s") else by_word.get(w, set())
            for w in typed]
    # a word cut short ('math education' for 'Mathematics Education'): the whole label said in shorter words
    cut = [_longer(w, index) if len(w) >= 4 else set() for w in typed]
    whole = {(kind, label) for kind, label, n in set.intersection(*[h | c for h, c in zip(held, cut)])
             if n == len(typed) and any(c for c in cut)}
    return {(kind, label) for kind, label, n in set.intersection(*held) if n > len(typed)} | whole


def _longer(word: str, index: LabelIndex) -> set[tuple[str, str, int]]:
    """The fields' and problems' words that begin with ``word`` and go on ('mathematics' for 'math'), found in the
    sorted words by bisection, not by reading all of them for every question."""
    words = _derived(index, _sorted_field_words)
    by_word = _derived(index, _field_words)
    out: set[tuple[str, str, int]] = set()
    for other in words[bisect.bisect_right(words, word):]:
        if not other.startswith(word):
            break
        out |= by_word[other]
    return out


def _sorted_field_words(index: LabelIndex) -> list[str]:
    return sorted(_derived(index, _field_words))


def _field_initials(index: LabelIndex) -> dict[str, set[tuple[str, str]]]:
    """The graph's research fields and problems of two words or more by their initials, of their content words and
    of all their words ('State of Health Estimation': 'she' and 'sohe'; 'Named Entity Recognition': 'ner'), and by
    the initials of their first words with the others whole ('soh estimation')."""
    out: dict[str, set[tuple[str, str]]] = {}
    for kind in (Kind.RESEARCHFIELD, Kind.PROBLEM):
        for label in index.labels(kind):
            said = [w.lower() for w in re.findall(r"[^\W\d_]+", _PARENTHESISED.sub(" ", label))]
            if len(said) >= 2:
                keys = {"".join(w[0] for w in said), initials(label)}
                keys |= {"".join(w[0] for w in said[:j]) + " " + " ".join(said[j:]) for j in range(2, len(said))}
                for key in keys:
                    out.setdefault(key, set()).add((kind, label))
    return out


def _other_words(index: LabelIndex) -> frozenset[str]:
    """Every word of the graph's venues' and datasets' names, which people shorten to one ('CCS' of 'ACM CCS'; not
    a paper title's, whose words are any words)."""
    return frozenset(w.lower() for kind in (Kind.VENUE, Kind.DATASET) for label in index.labels(kind)
                     for w in re.findall(r"[^\W_]+", label))


def initialled(key: str, index: LabelIndex, generic: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """The one research field or problem ``key`` — a word of two to five letters, not filler, a word with a meaning
    of its own or the stored questions' own, then any of the label's last words whole — gives the initials of
    ('ner', 'NLP', 'soh estimation'): (label, kind), the field where the label is both; None for none or several,
    or for a word that is a word of a venue's or a dataset's name too."""
    typed = re.findall(r"[^\W_]+", unmarked(key).lower())
    if not typed or not all(w.isalpha() for w in typed) or not 2 <= len(typed[0]) <= 5 or typed[0] in FILLER or \
            typed[0] in generic or typed[0] in STOPWORDS or meanings(typed[0]):
        return None
    if len(typed) == 1 and typed[0] in _derived(index, _other_words):  # 'ccs': a word of 'ACM CCS' as much
        return None
    hits = _derived(index, _field_initials).get(" ".join(typed), set())
    labels = {label for _, label in hits}
    if len(labels) != 1:
        return None
    kinds = {kind for kind, _ in hits}
    return next(iter(labels)), Kind.RESEARCHFIELD if Kind.RESEARCHFIELD in kinds else Kind.PROBLEM


def shortened(key: str, index: LabelIndex, generic: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """The one label ``key`` shortens, and its kind: a field or problem by a word of its label (``field_word``) or
    by its initials (``initialled``), a metric abbreviated (``abbreviated``); None for none."""
    metric = abbreviated(key, index, generic)
    return field_word(key, index, generic) or ((metric, Kind.METRIC) if metric is not None else None) or \
        initialled(key, index, generic)


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


# the words that rank by speed, and the words of a metric that measures it (a time taken: lower is faster)
_SPEED = {"fastest", "quickest", "slowest", "faster", "quicker", "slower", "speed", "speediest"}
_TIMED = {"latency", "time", "runtime", "duration", "delay", "speed", "throughput"}


def pointed(text: str, metrics: Sequence[str], dataset: str = "") -> tuple[str, str] | None:
    """The one metric of ``metrics`` a word of ``text`` says without naming it, and the question asking by it: an
    adjective of its label's word ('the least acurate': 'the least Accuracy'; not a word with a meaning of its own,
    'models', nor one of the ``dataset``'s name), or a speed ('the slowest') of the one metric that measures time
    taken ('the slowest … by Latency (ms)'); None when no word, or several metrics, fit."""
    named = set(re.findall(r"[a-z]+", dataset.lower()))
    found = [(m, m.group().lower()) for m in re.finditer(r"[A-Za-z]+", text)]
    typed = [(m, _single(w)) for m, w in found if len(w) >= 6 and w not in FILLER and w not in named
             and not meanings(w)]
    hits: dict[str, str] = {}
    for metric in metrics:
        words = [_single(w) for w in re.findall(r"[a-z]+", _PARENTHESISED.sub(" ", metric).lower())]
        said = next((m for m, t in typed if any(len(w) >= 5 and w[:5] == t[:5] for w in words)), None)
        if said is not None:
            hits[metric] = text[:said.start()] + metric + text[said.end():]
        elif any(w in _SPEED for _, w in found) and set(words) & _TIMED:
            hits[metric] = f"{text.rstrip(' ?.!')} by {metric}?"
    return next(iter(hits.items())) if len(hits) == 1 else None


def _single(word: str) -> str:
    """``word`` with each doubled letter once ('accuracy': 'acuracy'), as a slip often types it."""
    return re.sub(r"(.)\1+", r"\1", word)
