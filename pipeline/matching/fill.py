"""Which words of a question fill a form's slots: the tolerant alignment when the wording lines up, else the names
in the question matched to the slots by kind. Shared by retrieval (to score a form) and the adapter (to fill it)."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.matching.align import Alignment, align_form
from pipeline.matching.forms import Form, Labels
from pipeline.matching.wording import STOPWORDS

ALIGN_MIN = 0.55  # below this an alignment's spans are not trusted on their own
ALIGN_SURE = 0.8  # from here the alignment's spans are taken as they are
_CONNECTORS = frozenset({"-", "+", "&", "/", "–"})
_VERSION = re.compile(r"v?\d+(?:\.\d+)*")  # "1.1", "2.0", "v2": a version that belongs to the word before it
# a number after these is compared with ('above 60', 'after 2021'), not a version of a name typed in lowercase
_NUMBER = re.compile(r"\d+(?:\.\d+)?%?")
_COMPARING = frozenset({"above", "over", "under", "below", "after", "before", "since", "until", "than", "least", "most",
                        "exceeding", "beyond"})
Name = tuple[int, int, str]  # (start, end, kind or "")


@dataclass(frozen=True)
class Filling:
    """The text filling each slot of a form (None: not found), how it was found, and how name-like it is."""

    values: tuple[str | None, ...]
    alignment: Alignment
    by_kind: bool  # True: names matched to slots by kind; False: the alignment's spans
    plausible: float  # 0..1: known labels of the right kind score high, lowercase phrases low


def names_in(text: str, labels: Labels, generic: frozenset[str]) -> list[Name]:
    """Known labels (with their kinds) and other runs of name-like words, in text order; a run right next to a
    known label joins it ('Sandwich' + 'Transformer') and the whole is a name of unknown kind."""
    found = labels.find(text, generic)
    merged: list[Name] = []
    for a, b, kind in sorted(found + [(a, b, "") for a, b in name_runs(text, found, generic)]):
        if merged and not text[merged[-1][1]:a].strip():
            pa, _, _pkind = merged[-1]
            merged[-1] = (pa, b, labels.kind(text[pa:b]) if text[pa:b] in labels else "")
        else:
            merged.append((a, b, kind))
    return merged


def name_runs(text: str, found: Sequence[Name], generic: frozenset[str]) -> list[tuple[int, int]]:
    """Spans that look like names (capitals or digits, not form words) outside the known labels."""
    out: list[tuple[int, int]] = []
    run: list[tuple[int, int]] = []
    pending: tuple[int, int] | None = None  # a connector ('-', '+', '&', '/') that may join two name parts
    before: tuple[int, int] | None = None  # the word just before, when a version number after it would name it
    last = ""  # the word before, lowercased
    for m in re.finditer(r"\S+", text):
        word = m.group().strip("?!.,;:\"'")
        low, compared, last = word.lower(), last in _COMPARING and _NUMBER.fullmatch(word) is not None, word.lower()
        inside = any(s <= m.start() < e for s, e, _ in found)
        namey = (any(c.isupper() or c.isdigit() for c in word[1:]) or (word[:1].isupper() and m.start() > 0)) \
            and low not in generic and low not in STOPWORDS and not compared
        if namey and not inside:
            if pending is not None:
                run.append(pending)
            elif not run and before is not None and _VERSION.fullmatch(word):
                run.append(before)  # 'squad 1.1', 'resnet 50': a name typed in lowercase, its version after it
            run.append((m.start(), m.start() + len(m.group().rstrip("?!.,;:\"'"))))
            pending = None
            if m.group()[-1:] in "?!,;:":  # a name does not run on past the end of a clause
                out.append((run[0][0], run[-1][1]))
                run = []
        elif run and word in _CONNECTORS and pending is None:
            pending = (m.start(), m.end())
        elif run:
            out.append((run[0][0], run[-1][1]))
            run, pending = [], None
        before = (m.start(), m.end()) if (word == m.group() and word.isalpha() and word.islower() and not inside
                                          and low not in generic and low not in STOPWORDS
                                          and low not in _COMPARING) else None
    if run:
        out.append((run[0][0], run[-1][1]))
    return out


def plausibility(value: str | None, kind: str, labels: Labels) -> float:
    """How much ``value`` looks like a label of ``kind``: a stored label of that kind 1, of another kind 0.6,
    else by the share of its words with capitals, digits or symbols, less for long phrases."""
    if not value:
        return 0.0
    if value in labels:
        return 1.0 if labels.kind(value) == kind else 0.6
    words = value.split()
    namey = sum(1 for w in words if any(not c.isalpha() or c.isupper() for c in w)) / len(words)
    return max(0.0, min(1.0, 0.3 + 0.6 * namey - 0.15 * max(0, len(words) - 5)))


def by_kind(form: Form, text: str, names: Sequence[Name]) -> list[str | None]:
    """Fill slots with the names found: a name of the slot's kind first, then unclaimed names in order."""
    out: list[str | None] = [None] * len(form.kinds)
    free = list(names)
    for i, kind in enumerate(form.kinds):
        hit = next((n for n in free if n[2] == kind), None)
        if hit is not None:
            out[i] = text[hit[0]:hit[1]]
            free.remove(hit)
    for i in range(len(out)):
        if out[i] is None and free:
            hit = next((n for n in free if not n[2]), free[0])
            out[i] = text[hit[0]:hit[1]]
            free.remove(hit)
    return out


def fill(form: Form, text: str, labels: Labels, generic: frozenset[str], names: Sequence[Name],
         alignment: Alignment | None = None) -> Filling:
    """Fill ``form``'s slots from ``text``: by alignment when it lines up, else by the kinds of the names found."""
    al = alignment or align_form(form.pieces, text, generic)
    aligned = [text[s[0]:s[1]] if s else None for s in al.spans]
    plausible = _plausible(aligned, form, text, names, labels)
    if not form.kinds or (al.score >= ALIGN_SURE and all(aligned)):
        return Filling(tuple(aligned), al, False, plausible)
    guessed = by_kind(form, text, names)
    guessed = [g if g is not None else a for g, a in zip(guessed, aligned)]
    guess_plausible = _plausible(guessed, form, text, names, labels)
    if al.score >= ALIGN_MIN and all(aligned) and plausible >= guess_plausible:
        return Filling(tuple(aligned), al, False, plausible)
    return Filling(tuple(guessed), al, True, guess_plausible)


def _plausible(values: Sequence[str | None], form: Form, text: str, names: Sequence[Name], labels: Labels) -> float:
    """Mean plausibility of the values, less 0.2 for each known name of a wanted kind that no value uses."""
    if not form.kinds:
        return 1.0
    score = sum(plausibility(v, k, labels) for v, k in zip(values, form.kinds)) / len(form.kinds)
    used = " ".join(v for v in values if v)
    unused = sum(1 for a, b, k in names if k in form.kinds and text[a:b] not in used)
    return max(0.0, score - 0.2 * unused)
