"""Question forms: a stored question with its label literals masked, the kind of thing each slot names, and the
query skeleton; plus the vocabulary of labels the stored queries use. Derived from the pairs alone (any source)."""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from pipeline.matching.align import Slot, slots
from pipeline.records import Example
from pipeline.sparql.parsed import parse
from pipeline.sparql.shape import read
from pipeline.sparql.text import canonical

MASK = "X"  # what a slot reads as when a masked form is embedded


@dataclass(frozen=True)
class Form:
    """A question form: fixed text around slots, the slots' kinds, the query skeleton, the pairs that have it."""

    pieces: tuple[str, ...]  # fixed text before, between and after the slots (len = slots + 1)
    kinds: tuple[str, ...]  # per slot, e.g. "dataset", "metric", "model", "problem", "researchfield"
    skeleton: str
    examples: tuple[Example, ...] = field(compare=False, default=())

    @property
    def masked(self) -> str:
        return " ".join(f" {MASK} ".join(self.pieces).split())

    @property
    def key(self) -> tuple[str, ...]:
        return tuple(" ".join(p.lower().split()) for p in self.pieces) + (self.skeleton,)


@lru_cache(maxsize=8192)
def _analyse(question: str, sparql: str) -> tuple[tuple[Slot, ...], tuple[str, ...], str]:
    found = tuple(slots(question, sparql))
    shape = read(sparql)
    kinds = tuple(shape.kind_of_literal(s.literal) or "thing" for s in found)
    return found, kinds, skeleton(sparql, {s.literal: k for s, k in zip(found, kinds)})


def skeleton(sparql: str, slot_kinds: dict[str, str]) -> str:
    """The canonical query with each slot literal replaced by its kind: equal for queries of one kind."""
    text = canonical(sparql)
    for literal, kind in slot_kinds.items():
        body = literal.replace('"', '\\"')
        text = text.replace(f'"{body}"', f'"<{kind}>"')
    return text


def form_of(example: Example) -> Form:
    """The form of one stored pair."""
    found, kinds, skel = _analyse(example.question, example.sparql)
    q, pieces, pos = example.question, [], 0
    for s in found:
        pieces.append(q[pos:s.start])
        pos = s.end
    pieces.append(q[pos:])
    return Form(tuple(pieces), kinds, skel, (example,))


def slot_values(example: Example) -> list[tuple[str, str]]:
    """(literal as the question writes it, kind) for each slot of a stored pair."""
    found, kinds, _ = _analyse(example.question, example.sparql)
    return [(s.literal, k) for s, k in zip(found, kinds)]


def group_forms(examples: Iterable[Example]) -> list[Form]:
    """Distinct forms, each with every pair that has it, in first-seen order."""
    groups: dict[tuple[str, ...], list[Example]] = defaultdict(list)
    first: dict[tuple[str, ...], Form] = {}
    for ex in examples:
        f = form_of(ex)
        groups[f.key].append(ex)
        first.setdefault(f.key, f)
    return [Form(f.pieces, f.kinds, f.skeleton, tuple(groups[k])) for k, f in first.items()]


_WORD = re.compile(r"\S+")
_TRIM_END = "?!.,;:\"'“”’)"
_TRIM_START = "\"'“‘("


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """A word's span without quotes and sentence punctuation at its edges (a closing ')' stays when it closes)."""
    while start < end - 1 and text[start] in _TRIM_START and not (text[start] == "(" and ")" in text[start:end]):
        start += 1
    while end > start + 1 and text[end - 1] in _TRIM_END and not (text[end - 1] == ")" and "(" in text[:end]):
        end -= 1
    return start, end


class Labels:
    """Label literals of the stored queries: their usual casing and the kinds of thing they name."""

    def __init__(self, examples: Iterable[Example] = ()) -> None:
        self.casing: dict[str, Counter[str]] = defaultdict(Counter)
        self.kinds: dict[str, Counter[str]] = defaultdict(Counter)
        self.longest = 0
        self.add(examples)

    def add(self, examples: Iterable[Example]) -> None:
        for ex in examples:
            for literal, kind in slot_values(ex):
                key = " ".join(literal.lower().split())
                if len(key) < 2:
                    continue
                self.casing[key][literal] += 1  # the graph's own spelling, blanks and all
                self.kinds[key][kind] += 1
                self.longest = max(self.longest, len(key.split()))

    def __contains__(self, text: str) -> bool:
        return " ".join(text.lower().split()) in self.casing

    def kind(self, text: str) -> str:
        counts = self.kinds.get(" ".join(text.lower().split()))
        return counts.most_common(1)[0][0] if counts else ""

    def spelling(self, text: str) -> str | None:
        """The stored spelling of a label the user wrote with other blanks, or all in lowercase; None when the
        store knows no such label, knows it as written, or knows several spellings that could be meant."""
        spellings = self.casing.get(" ".join(text.lower().split()))
        if not spellings or text in spellings:
            return None
        flat = " ".join(text.split())
        same_case = [s for s in spellings if " ".join(s.split()) == flat]
        if len(same_case) == 1:
            return same_case[0]
        if same_case or text != text.lower() or not any(ch.isalpha() for ch in text):
            return None
        if len({" ".join(s.split()) for s in spellings}) != 1:
            return None
        return spellings.most_common(1)[0][0]

    def find(self, text: str, common: frozenset[str] = frozenset()) -> list[tuple[int, int, str]]:
        """Known labels in ``text`` (whole words, longest first, not overlapping) as (start, end, kind); matched
        case-insensitively, except labels that are also ``common`` words ('score'), which must match a stored casing."""
        words = [_trimmed(text, m.start(), m.end()) for m in _WORD.finditer(text)]
        lower = text.lower()
        found: list[tuple[int, int, str]] = []
        taken = [False] * len(words)
        for size in range(min(self.longest, len(words)), 0, -1):
            for i in range(len(words) - size + 1):
                if any(taken[i:i + size]):
                    continue
                start, end = words[i][0], words[i + size - 1][1]
                key = " ".join(lower[start:end].split())
                if key not in self.casing or len(key) < 2:
                    continue
                if (key in common or key in _COMMON) and " ".join(text[start:end].split()) not in self.casing[key]:
                    continue
                found.append((start, end, self.kind(key)))
                for j in range(i, i + size):
                    taken[j] = True
        return sorted(found)


_COMMON = frozenset({"yes", "no", "t", "the", "a", "on", "in", "for", "of", "and", "or", "to"})


def vocabulary(examples: Sequence[Example]) -> set[str]:
    """Prefixed names used by the stored queries (``orkgp:HAS_DATASET``, ``orkgc:Model``, ...)."""
    return {name for ex in examples for name in parse(ex.sparql).pnames}
