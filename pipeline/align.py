"""Aligning a new question with a stored one to find the spans that fill the stored query's label literals."""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from pipeline.sparql import string_literals

_WORD = re.compile(r"\S+")
_EDGE_PUNCT = " \t?.!,;:\"'`“”‘’"


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
    """The SPARQL's string literals that occur in the question (case-insensitive), in question order."""
    found: list[Slot] = []
    lower = question.lower()
    for lit in sorted(set(string_literals(sparql)), key=len, reverse=True):
        if not lit.strip():
            continue
        for m in re.finditer(re.escape(lit.lower()), lower):
            if not any(s.start < m.end() and m.start() < s.end for s in found):
                found.append(Slot(lit, m.start(), m.end()))
                break
    return sorted(found, key=lambda s: s.start)


def _fixed_pattern(text: str) -> str:
    words = text.split()
    return r"\s+".join(re.escape(w) for w in words)


def fill_by_pattern(example_q: str, found: list[Slot], question: str) -> dict[str, str] | None:
    """Match the example's fixed wording around the slots; the slots become the new labels."""
    if not found:
        return None
    pieces, pos = [], 0
    for s in found:
        pieces.append(example_q[pos:s.start])
        pos = s.end
    tail = example_q[pos:].rstrip(_EDGE_PUNCT + " ")
    parts = [_fixed_pattern(p) for p in pieces]
    pattern = ""
    for i, fixed in enumerate(parts):
        sep = r"\s*" if not fixed else (r"\s*" + fixed + r"\s*")
        if i == 0:
            sep = (fixed + r"\s*") if fixed else ""
        pattern += sep + r"(.+?)"
    if tail:
        pattern += r"\s*" + _fixed_pattern(tail)
    m = re.search(("^" if not parts[0] else "") + pattern + r"\s*[?.!]*\s*$", question, re.IGNORECASE | re.DOTALL)
    if not m:
        return None
    values = [norm_label(g) for g in m.groups()]
    if any(not v for v in values):
        return None
    return {s.literal: v for s, v in zip(found, values)}


def fill_by_alignment(example_q: str, found: list[Slot], question: str) -> dict[str, str] | None:
    """Word-level alignment for reworded questions: a slot maps to what lies between its aligned neighbours."""
    if not found:
        return None
    ex_words = [(m.start(), m.end(), m.group().lower().strip(_EDGE_PUNCT)) for m in _WORD.finditer(example_q)]
    new_words = [(m.start(), m.end(), m.group().lower().strip(_EDGE_PUNCT)) for m in _WORD.finditer(question)]
    matcher = difflib.SequenceMatcher(None, [w[2] for w in ex_words], [w[2] for w in new_words], autojunk=False)
    pairs = {i: j for a, b, n in matcher.get_matching_blocks() for i, j in zip(range(a, a + n), range(b, b + n))}
    out: dict[str, str] = {}
    for s in found:
        inside = [i for i, w in enumerate(ex_words) if w[0] < s.end and s.start < w[1]]
        if not inside:
            return None
        first, last = inside[0], inside[-1]
        before = [pairs[i] for i in range(first - 1, -1, -1) if i in pairs][:1]
        after = [pairs[i] for i in range(last + 1, len(ex_words)) if i in pairs][:1]
        lo = before[0] + 1 if before else 0
        hi = after[0] if after else len(new_words)
        if lo >= hi:
            return None
        value = norm_label(question[new_words[lo][0]:new_words[hi - 1][1]])
        if not value:
            return None
        out[s.literal] = value
    return out
