"""Aligning a new question with a stored one to find the spans that fill the stored query's label literals."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from pipeline.sparql.text import string_literals
from pipeline.matching.wording import STOPWORDS, norm_word, word_sim

_WORD = re.compile(r"\S+")
_EDGE_PUNCT = " \t?.!,;:\"'`“”‘’"
_QUOTES = "\"'`“”‘’"


@dataclass(frozen=True)
class Slot:
    """A label literal of an example's SPARQL and where it stands in the example's question."""

    literal: str
    start: int
    end: int


def norm_label(text: str) -> str:
    """A label as a user wrote it, with blanks collapsed and stray edge punctuation removed."""
    return " ".join(text.split()).strip(_EDGE_PUNCT)


def slots(question: str, sparql: str) -> list[Slot]:
    """The SPARQL's string literals that occur in the question as whole words (case-insensitive), in question order."""
    found: list[Slot] = []
    lower = question.lower()
    for lit in sorted(set(string_literals(sparql)), key=len, reverse=True):
        if len(lit.strip()) < 2:
            continue
        for m in re.finditer(r"(?<!\w)" + re.escape(lit.lower()) + r"(?!\w)", lower):
            if not any(s.start < m.end() and m.start() < s.end for s in found):
                found.append(Slot(lit, m.start(), m.end()))
                break
    return sorted(found, key=lambda s: s.start)


def _fixed_pattern(text: str) -> str:
    return r"\s+".join(re.escape(w) for w in text.split())


def pieces_of(example_q: str, found: Sequence[Slot]) -> list[str]:
    """The fixed text of a question before, between and after its slots."""
    pieces, pos = [], 0
    for s in found:
        pieces.append(example_q[pos:s.start])
        pos = s.end
    return pieces + [example_q[pos:]]


def pattern_spans(pieces: Sequence[str], question: str) -> list[tuple[int, int]] | None:
    """Where the slots lie when ``question`` has exactly the form's fixed wording (up to case and blanks)."""
    if len(pieces) < 2:
        return None
    tail = pieces[-1].rstrip(_EDGE_PUNCT + " ")
    pattern = ""
    for i, piece in enumerate(pieces[:-1]):
        fixed = _fixed_pattern(piece)
        if i == 0:
            pattern += (fixed + r"\s*" if fixed else "^\\s*") + r"(.+?)"
        else:
            pattern += (r"\s*" + fixed + r"\s*" if fixed else r"\s+") + r"(.+?)"
    if tail:
        pattern += r"\s*" + _fixed_pattern(tail)
    m = re.search(pattern + r"\s*[?.]*\s*$", question, re.IGNORECASE | re.DOTALL)
    if not m:
        return None
    spans = [_clip(question, m.span(g + 1)) for g in range(len(pieces) - 1)]
    return None if any(s is None for s in spans) else [s for s in spans if s is not None]


# -- tolerant alignment of a question with a form: typos, missing or extra words, words around the question ---------

MISSING_SLOT = 2.0  # cost of a slot the question does not fill
EDGE = 0.25  # an extra word before or after the whole form costs this share of a word inside it
GENERIC_IN_SLOT = 0.2  # a lowercase form word ("benchmark", "dataset") swallowed by a slot costs this share


@dataclass(frozen=True)
class Alignment:
    """How a question lines up with a form: the character span filling each slot (None: unfilled) and a score in
    [0, 1] (1: every fixed word of the form found, exactly, and nothing else outside the slots)."""

    spans: tuple[tuple[int, int] | None, ...]
    score: float
    typos: tuple[tuple[str, str], ...] = ()  # (form word, question word) matched approximately


@dataclass(frozen=True)
class _Word:
    start: int
    end: int
    norm: str
    weight: float
    final: bool  # ends a sentence: a slot does not reach past it
    generic: bool


def _words(text: str, generic: frozenset[str]) -> list[_Word]:
    out = []
    for m in _WORD.finditer(text):
        raw, norm = m.group(), norm_word(m.group())
        weight = 0.0 if not norm else (0.5 if norm in STOPWORDS else 1.0)
        out.append(_Word(m.start(), m.end(), norm, weight, raw.endswith(("?", "!")),
                         norm in generic and raw == raw.lower()))
    return out


@lru_cache(maxsize=8192)
def _items(pieces: tuple[str, ...]) -> tuple[_Word | None, ...]:
    """A form's fixed words, None for each slot between its pieces (the same for every question: read once)."""
    items: list[_Word | None] = []
    for n, piece in enumerate(pieces):
        items += [w for w in _words(piece, frozenset()) if w.norm]
        if n < len(pieces) - 1:
            items.append(None)
    return tuple(items)


@lru_cache(maxsize=256)
def _question_words(question: str, generic: frozenset[str]) -> tuple[_Word, ...]:
    """A question's words (read once for all the forms it is aligned with)."""
    return tuple(_words(question, generic))


def align_form(pieces: Sequence[str], question: str, generic: frozenset[str] = frozenset()) -> Alignment:
    """Align ``question`` with a form (its fixed ``pieces`` around slots) by dynamic programming over words."""
    items = list(_items(tuple(pieces)))  # a fixed word, or None for a slot
    words = list(_question_words(question, generic))
    m, n = len(items), len(words)
    inf = float("inf")
    a = [[inf] * (n + 1) for _ in range(m + 1)]
    s = [[inf] * (n + 1) for _ in range(m + 1)]
    pa: list[list[tuple[str, float]]] = [[("", 0.0)] * (n + 1) for _ in range(m + 1)]
    ps: list[list[str]] = [[""] * (n + 1) for _ in range(m + 1)]
    a[0][0] = 0.0
    for i in range(m + 1):
        item = items[i - 1] if i else None
        for j in range(n + 1):
            best, how = a[i][j], pa[i][j]
            if j:
                w = words[j - 1]
                cost = a[i][j - 1] + w.weight * (EDGE if i in (0, m) else 1.0)
                if cost < best:
                    best, how = cost, ("ins", 0.0)
            if i and item is not None:
                if a[i - 1][j] + item.weight < best:
                    best, how = a[i - 1][j] + item.weight, ("del", 0.0)
                if j:
                    sim = word_sim(item.norm, words[j - 1].norm)
                    cost = a[i - 1][j - 1] + (1 - sim) * (item.weight + words[j - 1].weight)
                    if sim and cost < best:
                        best, how = cost, ("match", sim)
            elif i:
                if s[i - 1][j] < best:
                    best, how = s[i - 1][j], ("close", 0.0)
                if a[i - 1][j] + MISSING_SLOT < best:
                    best, how = a[i - 1][j] + MISSING_SLOT, ("miss", 0.0)
            a[i][j], pa[i][j] = best, how
        if i < m and items[i] is None:
            for j in range(1, n + 1):
                w = words[j - 1]
                absorb = w.weight * GENERIC_IN_SLOT if w.generic else 0.0
                s[i][j], ps[i][j] = a[i][j - 1] + absorb, "open"
                if j > 1 and not words[j - 2].final and s[i][j - 1] + absorb < s[i][j]:
                    s[i][j], ps[i][j] = s[i][j - 1] + absorb, "ext"
    return _trace(items, words, pa, ps, question)


def _trace(items: list[_Word | None], words: list[_Word], pa: list[list[tuple[str, float]]], ps: list[list[str]],
           question: str) -> Alignment:
    """Walk the DP's choices back from the end: the slots' spans, the typos, and the Dice-like score."""
    i, j = len(items), len(words)
    m = i
    matched = matched_q = outside = 0.0
    typos: list[tuple[str, str]] = []
    spans: dict[int, tuple[int, int]] = {}
    while i or j:
        how, sim = pa[i][j]
        if how == "ins":
            outside += words[j - 1].weight * (EDGE if i in (0, m) else 1.0)
            j -= 1
        elif how == "match":
            item = items[i - 1]
            assert item is not None
            matched += sim * (item.weight + words[j - 1].weight)
            matched_q += words[j - 1].weight
            if sim < 1:
                typos.append((item.norm, words[j - 1].norm))
            i, j = i - 1, j - 1
        elif how in ("del", "miss"):
            i -= 1
        elif how == "close":
            end = j
            while ps[i - 1][j] == "ext":
                j -= 1
            spans[i - 1] = (words[j - 1].start, words[end - 1].end)
            i, j = i - 1, j - 1
        else:  # unreachable: every cell but (0, 0) has a way in
            break
    fixed = sum(w.weight for w in items if w is not None)
    slot_ids = [k for k, w in enumerate(items) if w is None]
    total = fixed + matched_q + outside
    score = matched / total if total else 1.0
    score *= sum(k in spans for k in slot_ids) / len(slot_ids) if slot_ids else 1.0
    return Alignment(tuple(_clip(question, spans.get(k)) for k in slot_ids), score, tuple(reversed(typos)))


def _clip(question: str, span: tuple[int, int] | None) -> tuple[int, int] | None:
    """A slot's span without blanks, quotes and question marks at its edges; a final '.', '!' or ':' goes only at
    the end of the question (labels such as 'Atari 2600 Pitfall!' or 'Supervised:' keep theirs inside it)."""
    if span is None:
        return None
    start, end = span
    while start < end and question[start] in _QUOTES + " \t":
        start += 1
    at_end = not question[end:].strip(_EDGE_PUNCT)
    strip = _QUOTES + " \t?,;" + (".!:" if at_end else "")
    while end > start and question[end - 1] in strip:
        end -= 1
    return (start, end) if end > start else None
