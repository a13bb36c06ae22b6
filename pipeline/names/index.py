"""A label index by kind (Dataset, Model, Metric, Problem, ResearchField, Paper) and the lookup of a typed name in it:
exact, equal up to case/blanks/hyphens/apostrophes/version spacing, close by edit distance (rapidfuzz), or not known."""
from __future__ import annotations

import math
import re
import unicodedata
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from rapidfuzz import fuzz, process, utils
from rapidfuzz.distance import OSA

from pipeline.names.grams import Grams
from pipeline.names.spelling import a_slip, spelled_closest, versions, words_agree
from pipeline.records import Kind, Match, Resolution

KINDS = tuple(Kind)  # every kind, in the order a lookup of any kind tries them
CLASSES = {kind: kind.orkg_class for kind in Kind}  # ORKG class local names (orkgc:)
_ALIASES = {"datasets": Kind.DATASET, "benchmark": Kind.DATASET, "models": Kind.MODEL, "metrics": Kind.METRIC,
            "problems": Kind.PROBLEM, "research_problem": Kind.PROBLEM, "research_problems": Kind.PROBLEM,
            "research_field": Kind.RESEARCHFIELD, "research_fields": Kind.RESEARCHFIELD, "rf": Kind.RESEARCHFIELD,
            "field": Kind.RESEARCHFIELD, "papers": Kind.PAPER, "venues": Kind.VENUE}
# Calibrated on the seed-1 loose-name tuning set (docs/results/quality.md, "Names typed loosely"): the lowest
# rapidfuzz ratio (0-100, on squashed text) at which a close label is taken; below it the name is unknown and the
# closest labels are listed.
THRESHOLD = 85.0
MARGIN = 4.0  # a runner-up of the same kind this close to the best makes the choice a question for the user
SUGGEST = 5
SUGGEST_MIN = 50.0  # an unknown name's suggestions: the closest labels scoring at least this
SLIP_LONG = 14  # from this length on, one slip keeps rapidfuzz's ratio above 92: no separate slip search
PREFIX_MIN = 6  # a name this long (squashed) may stand for the one label it begins
_VERSION = re.compile(r"\bversion\s*(?=\d)|\bv\.\s*(?=\d)", re.IGNORECASE)
_UNIT = re.compile(r"\s*\([^()]{1,12}\)$")  # a metric's unit after its name: 'MAPE (%)', 'RMSE (µg/m³)'
_DROP = re.compile(r"[\s\-‐‑–—_'’`´]+")
_PUNCTUATION = re.compile(r"[\W_]+")


def kind_of(name: str) -> Kind | Literal[""]:
    """The Kind of a class local name or a variable stem ('Dataset', 'research_fields'); "" for anything else."""
    low = name.lower()
    return Kind(low) if low in CLASSES else _ALIASES.get(low) or ""


_UNMARKED = str.maketrans({"ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ß": "ss", "æ": "ae",
                           "Æ": "AE", "œ": "oe", "Œ": "OE", "ı": "i"})


def unmarked(text: str) -> str:
    """The text without accents and marks ('Fjällröst Øst' as 'Fjallrost Ost'): how names are typed on a keyboard
    that lacks them."""
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text.translate(_UNMARKED)) if not unicodedata.combining(c))


def squeeze(text: str) -> str:
    """Lowercase letters and digits only, without accents: names equal up to punctuation, blanks and case
    ('NCBI-disease' ~ 'NCBI Disease', 'StoryLM-large' ~ 'storylm large'), which may still be two names of the graph."""
    return _PUNCTUATION.sub("", unmarked(text).lower().replace("&", "and"))


def squash(text: str) -> str:
    """The text lowercased and without accents, 'version 2'/'v. 2' as 'v2', without blanks, hyphens, underscores and
    apostrophes."""
    return _DROP.sub("", _VERSION.sub("v", unmarked(text))).lower().replace("&", "and")  # 'A & B' is 'A and B'


@dataclass
class _Kind:
    labels: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)  # squash(label), parallel to labels
    postings: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))  # word -> labels holding it
    by_key: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    by_letters: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))  # squeeze(label) -> labels
    sorted_keys: list[str] = field(default_factory=list)  # for prefix lookups (a name typed without its last words)
    by_length: dict[int, tuple[list[str], list[int]]] = field(default_factory=dict)  # len(key) -> keys, positions

    grams: Grams = field(default_factory=Grams)  # letter pairs of the keys, by position in ``labels``

    def lengths(self, low: int, high: int) -> tuple[list[str], list[int]]:
        """The keys of lengths ``low``..``high`` and their positions in ``labels``."""
        if low <= 0 and high >= max(self.by_length, default=0):
            return self.keys, list(range(len(self.keys)))
        keys: list[str] = []
        where: list[int] = []
        for size in range(max(low, 0), min(high, max(self.by_length, default=0)) + 1):
            if size in self.by_length:
                keys += self.by_length[size][0]
                where += self.by_length[size][1]
        return keys, where

    def within(self, key: str, edits: int, low: int, high: int) -> tuple[list[str], list[int]]:
        """The keys of lengths ``low``..``high`` that may be within ``edits`` edits of ``key`` (all of those, and
        in ``lengths``' order), and their positions: what a search with a score cutoff need compare."""
        where = self.grams.sharing(key, edits, low, high)
        return self.lengths(low, high) if where is None else ([self.keys[i] for i in where], where)

    def alike(self, key: str, low: int, high: int) -> tuple[list[str], list[int]]:
        """The keys sharing the most letter pairs with ``key``: where an unknown name's look-alikes are."""
        where = self.grams.nearest(key, low, high)
        return [self.keys[i] for i in where], where


class LabelIndex:
    """The graph's labels by kind, for exact, normalised and fuzzy lookup."""

    def __init__(self, pairs: Iterable[tuple[str, str]], threshold: float) -> None:
        """``pairs``: (label, kind) with kind one of KINDS (others are ignored)."""
        self.threshold = threshold
        self._kinds: dict[str, _Kind] = {k: _Kind() for k in KINDS}
        self._exact: set[str] = set()
        self._seen: set[tuple[str, str]] = set()
        self.add(pairs)

    def add(self, pairs: Iterable[tuple[str, str]]) -> int:
        """Add labels (a refresh that found new ones: the index grows in place); returns how many were new."""
        touched: set[str] = set()
        new = 0
        for label, kind in pairs:
            if kind not in self._kinds or not label.strip() or (label, kind) in self._seen:
                continue
            self._seen.add((label, kind))
            touched.add(kind)
            new += 1
            entry, key = self._kinds[kind], squash(label)
            entry.labels.append(label)
            entry.keys.append(key)
            for word in set(utils.default_process(label).split()):
                entry.postings[word].append(len(entry.labels) - 1)
            entry.by_key[key].append(label)
            unit = _UNIT.search(label) if kind == Kind.METRIC else None
            if unit and unit.start() and squash(label[:unit.start()]) != key:  # 'MAPE (%)' typed 'mape'
                entry.by_key[squash(label[:unit.start()])].append(label)
            entry.by_letters[squeeze(label)].append(label)
            entry.by_length.setdefault(len(key), ([], []))
            entry.by_length[len(key)][0].append(key)
            entry.by_length[len(key)][1].append(len(entry.labels) - 1)
            entry.grams.add(key)
            self._exact.add(label)
        for kind in touched:
            self._kinds[kind].sorted_keys = sorted(self._kinds[kind].by_key)
        return new

    def pairs(self) -> set[tuple[str, str]]:
        """Every (label, kind) held."""
        return set(self._seen)

    def __len__(self) -> int:
        return sum(len(k.labels) for k in self._kinds.values())

    def counts(self) -> dict[str, int]:
        return {kind: len(entry.labels) for kind, entry in self._kinds.items()}

    def labels(self, kind: str) -> list[str]:
        return list(self._kinds[kind].labels) if kind in self._kinds else []

    def has(self, label: str, kind: str) -> bool:
        """Whether the graph has this label, exactly as written, for a thing of this kind."""
        return kind in self._kinds and label in self._kinds[kind].by_key.get(squash(label), ())

    def cased(self, key: str) -> list[str]:
        """The labels, of any kind, whose lowercase is ``key``: what a case-insensitive label test keeps."""
        return _unique(label for entry in self._kinds.values() for label in entry.by_key.get(squash(key), ())
                       if key in (label.lower(), label.casefold()))

    def spelled_alike(self, text: str, kind: str) -> list[str]:
        """The labels of ``kind`` equal to ``text`` up to punctuation, blanks and case (``squeeze``)."""
        return list(self._kinds[kind].by_letters.get(squeeze(text), ())) if kind in self._kinds else []

    def completions(self, typed: str) -> list[str]:
        """The labels, of any kind, that begin with ``typed`` up to case, blanks and hyphens (``squash``): every
        one, for a caller to tell whether one name is meant."""
        key, found = squash(typed), []
        for entry in self._kinds.values() if key else ():
            at = bisect_left(entry.sorted_keys, key)
            while at < len(entry.sorted_keys) and entry.sorted_keys[at].startswith(key):
                found += entry.by_key[entry.sorted_keys[at]]
                at += 1
        return _unique(found)

    def knows(self, kind: str) -> bool:
        """Whether the graph has labels of this kind at all (no labels: nothing can be checked)."""
        return bool(kind in self._kinds and self._kinds[kind].labels)

    def spelled(self, typed: str, kind: str = "") -> Resolution | None:
        """``typed`` as a label exactly or up to case, blanks and punctuation (``squash``), by dictionary lookups
        alone: None when neither holds (``find`` then searches the labels for close ones, which costs time in
        proportion to their number)."""
        kinds = [kind] if kind in self._kinds else list(KINDS)
        if typed in self._exact:
            return Resolution(typed, kind, Match.EXACT, typed, 100.0)
        same: list[str] = []
        for key in [squash(typed)] + [squash(v) for v in versions(typed)]:  # 'balticsonar 1.1' for '… v1.1'
            same = spelled_closest(typed, _unique(label for k in kinds
                                                   for label in self._kinds[k].by_key.get(key, ())))
            if same:
                break
        if len(same) == 1:
            return Resolution(typed, kind, Match.NORMALISED, same[0], 100.0, tuple(same))
        if same:
            return Resolution(typed, kind, Match.AMBIGUOUS, None, 100.0, tuple(same[:SUGGEST]))
        return None

    def find(self, typed: str, kind: str = "") -> Resolution:
        """What the graph calls ``typed`` (of ``kind``, or of any kind when "")."""
        spelled = self.spelled(typed, kind)
        if spelled is not None:
            return spelled
        kinds = [kind] if kind in self._kinds else list(KINDS)
        key = squash(typed)
        close = [(label, score) for label, score in self._closest(key, kinds, self.threshold)
                 if words_agree(typed, label) and a_slip(key, squash(label))] \
            or self._completions(key, kinds) or self._containing(typed, kinds)
        if not close:
            return Resolution(typed, kind, Match.UNKNOWN, None, 0.0,
                              tuple(label for label, _ in self._closest(key, kinds, SUGGEST_MIN)
                                    or self._closest(key, kinds, 0.0)))
        best, score = close[0]
        rivals = [best] + [label for label, s in close[1:] if s > score - MARGIN]
        if len(rivals) > 1 and len({squash(r) for r in rivals}) == 1:  # one name spelled several ways
            rivals = spelled_closest(typed, rivals)
        listed = tuple(label for label, _ in close)
        if len(rivals) > 1:
            return Resolution(typed, kind, Match.AMBIGUOUS, None, score, listed)
        return Resolution(typed, kind, Match.CLOSE, rivals[0], score, listed)

    def _closest(self, key: str, kinds: list[str], cutoff: float) -> list[tuple[str, float]]:
        """Up to SUGGEST labels, best first, scoring at least ``cutoff``: rapidfuzz's ratio of the squashed texts, or,
        for one slip (a swapped, dropped, added or wrong letter: OSA distance 1), 100 - 100 / max(length, 10), so
        that one slip in a short name ('MPRC' for 'MRPC') counts as close as in a long one."""
        found: list[tuple[str, float]] = []
        n = len(key)
        slip = 100.0 - 100.0 / max(n, 10)
        # ratio = 2 * matches / (n + m) >= cutoff bounds the other length m: only those lengths are compared
        low, high = (math.ceil(n * cutoff / (200 - cutoff)), math.floor(n * (200 - cutoff) / cutoff)) if cutoff \
            else (0, 10**9)
        edits = math.floor((1 - cutoff / 100) * (n + high) + 1e-9)  # insertions and deletions within the cutoff
        for k in kinds:
            entry = self._kinds[k]
            # below the threshold (an unknown name's suggestions) no count of shared pairs is implied: look-alikes
            keys, where = entry.within(key, edits, low, high) if cutoff >= self.threshold \
                else entry.alike(key, low, high)
            for _, score, i in process.extract(key, keys, scorer=fuzz.ratio, limit=SUGGEST,
                                               score_cutoff=cutoff or None):
                found.append((entry.labels[where[i]], float(score)))
            if slip >= cutoff and 4 <= n < SLIP_LONG:  # longer names: ratio already rates one slip this high
                # one slip (a swap touches three letter pairs) is within what two edits may touch (grams.py)
                keys, where = entry.within(key, 2, n - 1, n + 1)
                for _, _, i in process.extract(key, keys, scorer=OSA.distance, limit=SUGGEST, score_cutoff=1):
                    found.append((entry.labels[where[i]], max(slip, fuzz.ratio(key, keys[i]))))
        found.sort(key=lambda pair: -pair[1])
        return _unique_pairs(found)[:SUGGEST]

    def _completions(self, key: str, kinds: list[str]) -> list[tuple[str, float]]:
        """Labels whose squashed text starts with this one (a name typed without its last words), when that is
        at least PREFIX_MIN characters long; scored by their ratio."""
        if len(key) < PREFIX_MIN:
            return []
        found: list[tuple[str, float]] = []
        for k in kinds:
            entry = self._kinds[k]
            at = bisect_left(entry.sorted_keys, key)
            while at < len(entry.sorted_keys) and entry.sorted_keys[at].startswith(key) and len(found) < SUGGEST:
                other = entry.sorted_keys[at]
                found += [(label, float(fuzz.ratio(key, other))) for label in entry.by_key[other]]
                at += 1
        return _unique_pairs(sorted(found, key=lambda pair: -pair[1]))[:SUGGEST]

    def _containing(self, typed: str, kinds: list[str]) -> list[tuple[str, float]]:
        """Labels holding every word of a name of two or more words typed with some words left out ('ObjectNet
        Box' for 'ObjectNet (Bounding Box)'); scored by their ratio."""
        words = set(utils.default_process(typed).split())
        if len(words) < 2:
            return []
        found: list[tuple[str, float]] = []
        for k in kinds:
            entry = self._kinds[k]
            lists = sorted((entry.postings.get(w, []) for w in words), key=len)
            common = set(lists[0]).intersection(*lists[1:]) if lists[0] else set()
            found += [(entry.labels[i], float(fuzz.ratio(squash(typed), entry.keys[i]))) for i in common]
        return _unique_pairs(sorted(found, key=lambda pair: -pair[1]))[:SUGGEST]



def _unique(labels: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(labels))


def _unique_pairs(pairs: list[tuple[str, float]]) -> list[tuple[str, float]]:
    seen: set[str] = set()
    out = []
    for label, score in pairs:
        if label not in seen:
            seen.add(label)
            out.append((label, score))
    return out
