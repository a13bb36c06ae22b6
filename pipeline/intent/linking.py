"""The question's words linked to the labels of the graph's comparisons and of the properties their contributions
carry: a word is a label's word, an ending or a typo away (two for long words), its initials ('pce'), an abbreviation
of a comparison's word ('oa'), or a place asked ('where') of a property that says a place. Each word goes to one
thing: a property named whole keeps its words from the comparison's name ('materials' of 'blade materials')."""
from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.intent.account import FILLER, words
from pipeline.intent.comparisons import Comparisons
from pipeline.matching.wording import word_sim

Word = tuple[int, int, str]
# the words that ask for a kind of thing every comparison has (its papers, their problems, fields and years)
KIND_WORDS = {"paper": "paper papers article articles publication publications study studies work works title titles "
                       "contribution contributions entry entries",
              "problem": "problem problems task tasks", "field": "field fields discipline disciplines",
              "year": "year years when", "comparison": "comparison comparisons",
              "venue": "venue venues journal journals conference conferences"}
KINDS = frozenset(w for said in KIND_WORDS.values() for w in said.split())
# a label's words that name no property on their own ('has sample size': 'sample size')
_LABEL_FILLER = {"has", "have", "of", "the", "a", "an", "is", "in", "for", "and", "or", "by", "with", "to", "on"}
# the words a question asks for a place with, and the words of a label that say a place: one answers the other
_PLACE_ASKED = {"where", "located", "countries", "country", "cities", "city", "sites", "site", "places", "place",
                "regions", "region"}
SCOPE_WORDS = {"comparison", "comparisons", "review", "survey", "overview", "studies", "study"}
_PLACE_SAID = {"location", "locations", "country", "countries", "place", "site", "region", "city", "area"}

# nouns that only say a thing is a thing of the named kind, right after a property or a value ('data collection
# methods', 'productivity effect', 'propane systems'); units a number or a property is given in ('in months', '(%)')
_HEADS = {"method", "methods", "approach", "approaches", "type", "types", "kind", "kinds", "effect", "effects",
          "system", "systems", "device", "devices", "setup", "setups", "category", "categories", "option", "options",
          "sort", "sorts", "technique", "techniques", "values", "value"}
_UNITS = {"months", "month", "weeks", "week", "days", "day", "hours", "hour", "minutes", "seconds", "percent",
          "percentage", "ev", "kw", "kwh", "mw", "mwh", "gw", "kg", "g", "mg", "m", "cm", "mm", "km", "celsius",
          "degrees", "k", "usd", "eur", "dollars", "euros"}


def heads(word: Word, found: Sequence[Word], spans: Sequence[tuple[int, int]]) -> bool:
    """Whether ``word`` is a generic noun right after a linked name (``spans``), part of that name's phrase."""
    return word[2] in _HEADS and any(0 <= word[0] - b <= 2 for _, b in spans)


def unit(word: Word, found: Sequence[Word]) -> bool:
    """Whether ``word`` is a unit, after 'in' or a number."""
    at = next((i for i, w in enumerate(found) if w == word), -1)
    return word[2] in _UNITS and at > 0 and (found[at - 1][2] == "in" or found[at - 1][2].replace(".", "").isdigit())


def label_runs(found: Sequence[Word], facts: Comparisons) -> list[tuple[int, int]]:
    """Where the question writes a property's label word for word ('number of participants')."""
    out = []
    for label in set(facts.property_labels.values()):
        theirs = [w for _, _, w in words(label)]
        n = len(theirs)
        for i in range(len(found) - n + 1):
            if n > 1 and all(near(found[i + j][2], t) for j, t in enumerate(theirs)):
                out.append((found[i][0], found[i + n - 1][1]))
    return out


def content(label: str) -> list[str]:
    return [w for _, _, w in words(label) if w not in _LABEL_FILLER]


def near(a: str, b: str) -> bool:
    """The same word, an ending or a typo away (two for long words: 'treatmnets', 'grasland')."""
    return word_sim(a, b) >= (0.75 if min(len(a), len(b)) >= 7 else 0.85)


def _initials(label: str) -> str:
    """A label's initials, its parenthesised part left out ('Power conversion efficiency (%)': 'pce')."""
    return "".join(w[0] for w in content(re.sub(r"\([^)]*\)", " ", label)) if w.isalpha())


def _claim(free: Sequence[Word], label: str) -> list[Word]:
    """The question's free words a label accounts for: its content words (a kind's word only when that is all it
    has: 'Study location' is not asked by 'study'), its initials ('pce'), a place asked ('where') of a place."""
    theirs = content(label)
    own = [t for t in theirs if t not in KINDS] or theirs
    initials = _initials(label)
    place = bool(set(theirs) & _PLACE_SAID)
    got = [w for w in free if any(near(w[2], t) for t in own) or (len(initials) >= 2 and w[2] == initials)
           or (place and w[2] in _PLACE_ASKED)]
    # the label's own kind word right beside its other words ('study designs' is 'Study design', not papers)
    return sorted(got + [w for w in free if w not in got and w[2] in KINDS and any(near(w[2], t) for t in theirs)
                         and any(0 <= g[0] - w[1] <= 1 or 0 <= w[0] - g[1] <= 1 for g in got)])


def _strong(got: Sequence[Word], label: str) -> bool:
    """Whether the words claimed name the property: half its content words or more, two of them, or its
    initials."""
    said = {w[2] for w in got}
    acronyms = {w.lower() for w in re.findall(r"\b[A-Z]{2,}\b", label)}  # 'COP' of 'Coefficient of performance COP'
    return len(said) >= min(2, len(content(label))) or len(got) * 2 >= len(content(label)) or \
        _initials(label) in said or bool(said & acronyms)


def _full(got: Sequence[Word], label: str) -> bool:
    """Whether the words claimed are every content word of the label (its kind words aside) or its initials."""
    said = {w[2] for w in got}
    own = [t for t in content(label) if t not in KINDS] or content(label)
    return bool(got) and (all(any(near(w, t) for w in said) for t in own) or _initials(label) in said)


def _abbreviates(short: str, word: str) -> bool:
    """Whether ``short`` (2–4 letters) abbreviates ``word``: its first letter, then the others in order ('oa':
    'osteoarthritis')."""
    if not 2 <= len(short) <= 4 or len(word) < 2 * len(short) or short[0] != word[0] or short in FILLER:
        return False
    rest = iter(word[1:])
    return all(c in rest for c in short[1:])


def scope_named(free: Sequence[Word], facts: Comparisons) -> tuple[str, list[Word]] | None:
    """The comparison the question names by words of its label (two or more, or one no other comparison's label
    has), and the words that name it; a word that names one of its properties whole is left to it ('materials' of
    'blade materials' where a property is 'Material'). None when none is named, or two as well."""
    own = {iri: {w for w in content(label) if w not in SCOPE_WORDS} for iri, label in facts.labels.items()}
    scored = []
    for iri, mine in own.items():
        props = [got for p in facts.carried(iri) if _full(got := _claim(free, facts.property_labels[p]),
                                                           facts.property_labels[p])]
        kept = [w for w in free if not any(w in got for got in props)]
        got = [w for w in kept if w[2] not in SCOPE_WORDS and any(near(w[2], t) for t in mine)]
        unique = any(not any(near(w[2], t) for o, theirs in own.items() if o != iri for t in theirs) for w in got)
        if len(got) >= 2 or (got and unique):
            scored.append((len(got) + len({w[2] for w in got}) / len(mine), iri, got))
    scored.sort(key=lambda s: -s[0])
    if not scored or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    iri, got = scored[0][1], scored[0][2]
    short = [w for w in free if w not in got and any(_abbreviates(w[2], t) for t in own[iri])]
    return iri, sorted(got + short)


def properties_named(free: Sequence[Word], facts: Comparisons, scope: str) -> list[tuple[str, list[Word]]]:
    """The properties the question names by their labels' words (those of ``scope``'s contributions first), each word
    given to the property it names best."""
    out: list[tuple[str, list[Word]]] = []
    for held in ([scope, ""] if scope else [""]):
        best: dict[Word, tuple[float, str]] = {}
        carried = facts.carried(held)
        for p in carried:
            label = facts.property_labels[p]
            got = _claim(free, label)
            if not got or not (_strong(got, label) or _distinct(got, p, carried, facts)):
                continue
            share = len(got) / max(len(content(label)), 1)
            for w in got:
                if share > best.get(w, (0.0, ""))[0]:
                    best[w] = (share, p)
        for w, (_, p) in sorted(best.items()):
            hit = next((o for o in out if o[0] == p), None)
            if hit is None:
                out.append((p, [w]))
            else:
                hit[1].append(w)
        if out:
            break
    return sorted(out, key=lambda o: o[1][0][0])


def _distinct(got: Sequence[Word], p: str, carried: Sequence[str], facts: Comparisons) -> bool:
    """Whether one word claimed for ``p`` is a word no other property's label has ('efficiency')."""
    return len(got) == 1 and len(got[0][2]) > 4 and not any(
        near(got[0][2], t) for o in carried if o != p for t in content(facts.property_labels[o]))


def inside(w: Word, spans_: Sequence[tuple[int, int]]) -> bool:
    return any(a <= w[0] and w[1] <= b for a, b in spans_)


