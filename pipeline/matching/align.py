"""Aligning a new question with a stored one to find the spans that fill the stored query's label literals."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat

from pipeline.matching.wording import STOPWORDS, norm_word, word_sim
from pipeline.sparql.text import string_literals

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


@dataclass(frozen=True)
class _Form:
    """A form's fixed words, None for each slot between its pieces, and what the score reads of them."""

    items: tuple[_Word | None, ...]
    fixed: float  # the fixed words' weight
    slot_ids: tuple[int, ...]  # where the slots stand among the items


@lru_cache(maxsize=8192)
def _form(pieces: tuple[str, ...]) -> _Form:
    """A form as the alignment reads it (the same for every question: read once)."""
    items: list[_Word | None] = []
    for n, piece in enumerate(pieces):
        items += [w for w in _words(piece, frozenset()) if w.norm]
        if n < len(pieces) - 1:
            items.append(None)
    return _Form(tuple(items), sum(w.weight for w in items if w is not None),
                 tuple(k for k, w in enumerate(items) if w is None))


@dataclass(frozen=True)
class _Question:
    """A question's words and their costs, shared by all the forms it is aligned with."""

    words: tuple[_Word, ...]
    norms: tuple[str, ...]
    weights: list[float]  # a word left out inside the form
    edge: list[float]  # ... before or after the whole form
    absorb: list[float]  # ... swallowed by a slot
    joins: list[bool]  # a slot may reach the word from the one before it
    sims: dict[str, list[float]]  # per form word met so far, its word_sim with each word

    def sims_of(self, norm: str) -> list[float]:
        row = self.sims.get(norm)
        if row is None:
            row = self.sims[norm] = list(map(word_sim, repeat(norm), self.norms))
        return row


@lru_cache(maxsize=256)
def _question(question: str, generic: frozenset[str]) -> _Question:
    """A question as the alignment reads it (read once for all the forms it is aligned with)."""
    words = tuple(_words(question, generic))
    return _Question(words, tuple(w.norm for w in words), [w.weight for w in words], [w.weight * EDGE for w in words],
                     [w.weight * GENERIC_IN_SLOT if w.generic else 0.0 for w in words],
                     [False] + [not w.final for w in words[:-1]], {})


_INF = float("inf")


def align_form(pieces: Sequence[str], question: str, generic: frozenset[str] = frozenset()) -> Alignment:
    """Align ``question`` with a form (its fixed ``pieces`` around slots) by dynamic programming over words."""
    form, q = _form(tuple(pieces)), _question(question, generic)
    m = len(form.items)
    row = [0.0]
    for cost in q.edge:
        row.append(row[-1] + cost)
    rows = [row]  # rows[i][j]: the least cost of the form's first i items against the question's first j words
    opened: list[list[float]] = []  # opened[i][j], item i a slot: ... with the slot open up to word j
    for i, item in enumerate(form.items, 1):
        skip = q.edge if i == m else q.weights
        if item is None:
            opened.append(_open_row(row, q.absorb, q.joins))
            row = _slot_row(row, opened[-1], skip)
        else:
            opened.append([])
            row = _word_row(row, item.weight, q.sims_of(item.norm), skip, q.weights)
        rows.append(row)
    return _trace(form, q, rows, opened, question)


def _word_row(prev: list[float], weight: float, sims: list[float], skip: list[float],
              weights: list[float]) -> list[float]:
    """The DP's row for a fixed word of the form: leave out a question word or the form word, or match the two."""
    row = [prev[0] + weight]
    append = row.append
    left, diag = row[0], prev[0]
    if not any(sims):
        for up, cost in zip(prev[1:], skip):
            left = left + cost
            if up + weight < left:
                left = up + weight
            append(left)
        return row
    for up, cost, w, sim in zip(prev[1:], skip, weights, sims):
        best = left + cost
        cost = up + weight
        if cost < best:
            best = cost
        if sim:
            cost = diag + (1 - sim) * (weight + w)
            if cost < best:
                best = cost
        append(best)
        left, diag = best, up
    return row


def _open_row(prev: list[float], absorb: list[float], joins: list[bool]) -> list[float]:
    """A slot after the row ``prev``, open up to each word: opened at that word or extended from the one before."""
    row = [_INF]
    for left, cost, join in zip(prev, absorb, joins):
        best = left + cost
        if join and row[-1] + cost < best:
            best = row[-1] + cost
        row.append(best)
    return row


def _slot_row(prev: list[float], opened: list[float], skip: list[float]) -> list[float]:
    """The DP's row for a slot: close the slot opened after the row before, or leave it unfilled."""
    row = [min(opened[0], prev[0] + MISSING_SLOT)]
    for up, closed, cost in zip(prev[1:], opened[1:], skip):
        best = row[-1] + cost
        if closed < best:
            best = closed
        if up + MISSING_SLOT < best:
            best = up + MISSING_SLOT
        row.append(best)
    return row


def _trace(form: _Form, q: _Question, rows: list[list[float]], opened: list[list[float]],
           question: str) -> Alignment:
    """Walk the DP's choices back from the end (each cell's choice found again by the DP's own comparisons, in its
    own order): the slots' spans, the typos, and the Dice-like score."""
    items, words, weights = form.items, q.words, q.weights
    i, j = len(items), len(words)
    m = i
    matched = matched_q = outside = 0.0
    typos: list[tuple[str, str]] = []
    spans: dict[int, tuple[int, int]] = {}
    while i or j:
        item, here = items[i - 1] if i else None, rows[i]
        best, how, sim = _INF, "", 0.0
        if j and here[j - 1] + (q.edge if i in (0, m) else weights)[j - 1] < best:
            best, how = here[j - 1] + (q.edge if i in (0, m) else weights)[j - 1], "ins"
        if i:
            before = rows[i - 1]
            if item is not None:
                if before[j] + item.weight < best:
                    best, how = before[j] + item.weight, "del"
                if j and (sim := q.sims_of(item.norm)[j - 1]) and \
                        before[j - 1] + (1 - sim) * (item.weight + weights[j - 1]) < best:
                    how = "match"
            else:
                if opened[i - 1][j] < best:
                    best, how = opened[i - 1][j], "close"
                if before[j] + MISSING_SLOT < best:
                    how = "miss"
        if how == "ins":
            outside += words[j - 1].weight * (EDGE if i in (0, m) else 1.0)
            j -= 1
        elif how == "match":
            assert item is not None
            matched += sim * (item.weight + words[j - 1].weight)
            matched_q += words[j - 1].weight
            if sim < 1:
                typos.append((item.norm, words[j - 1].norm))
            i, j = i - 1, j - 1
        elif how in ("del", "miss"):
            i -= 1
        elif how == "close":
            end, slot = j, opened[i - 1]
            while j > 1 and q.joins[j - 1] and slot[j - 1] + q.absorb[j - 1] < before[j - 1] + q.absorb[j - 1]:
                j -= 1  # the slot was extended to word j, not opened there
            spans[i - 1] = (words[j - 1].start, words[end - 1].end)
            i, j = i - 1, j - 1
        else:  # unreachable: every cell but (0, 0) has a way in
            break
    total = form.fixed + matched_q + outside
    score = matched / total if total else 1.0
    score *= sum(k in spans for k in form.slot_ids) / len(form.slot_ids) if form.slot_ids else 1.0
    return Alignment(tuple(_clip(question, spans.get(k)) for k in form.slot_ids), score, tuple(reversed(typos)))


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
