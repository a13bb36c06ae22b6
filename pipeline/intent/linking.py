"""The question's words linked to the labels of the graph's comparisons and of the properties their contributions
carry: a word is a label's word, an ending or a typo away (two for long words), its initials ('pce'), an abbreviation
of a comparison's word ('oa'), or a place asked ('where') of a property that says a place. Each word goes to one
thing: a property named whole keeps its words from the comparison's name ('materials' of 'blade materials')."""
from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from pipeline.intent.account import FILLER, meanings, words
from pipeline.intent.comparisons import Comparisons
from pipeline.matching.wording import within_edits, word_sim

Word = tuple[int, int, str]
# the words that ask for a kind of thing every comparison has (its papers, their problems, fields and years)
KIND_WORDS = {"paper": "paper papers article articles publication publications study studies work works title titles",
              "contribution": "contribution contributions entry entries",
              "problem": "problem problems task tasks", "field": "field fields discipline disciplines",
              "year": "year years when", "comparison": "comparison comparisons",
              "venue": "venue venues journal journals conference conferences",
              "property": "property properties attribute attributes characteristics dimensions columns"}
KINDS = frozenset(w for said in KIND_WORDS.values() for w in said.split())
PROPERTY_WORDS = frozenset(KIND_WORDS["property"].split())  # 'what properties …': the comparison's own
# a label's words that name no property on their own ('has sample size': 'sample size')
_LABEL_FILLER = {"has", "have", "of", "the", "a", "an", "is", "in", "for", "and", "or", "by", "with", "to", "on"}
# the words a question asks for a place with, and the words of a label that say a place: one answers the other
_PLACE_ASKED = {"where", "located", "countries", "country", "cities", "city", "sites", "site", "places", "place",
                "regions", "region"}
SCOPE_WORDS = {"comparison", "comparisons", "review", "survey", "overview", "studies", "study", "thing", "set", "table"}
_PLACE_SAID = {"location", "locations", "country", "countries", "place", "site", "region", "city", "area"}

# nouns that only say a thing is a thing of the named kind, right after a property or a value ('data collection
# methods', 'productivity effect', 'propane systems'); units a number or a property is given in ('in months', '(%)')
_HEADS = {"method", "methods", "approach", "approaches", "type", "types", "kind", "kinds", "effect", "effects",
          "system", "systems", "device", "devices", "setup", "setups", "category", "categories", "option", "options",
          "sort", "sorts", "technique", "techniques", "values", "value", "column", "columns"}
_UNITS = {"months", "month", "weeks", "week", "days", "day", "hours", "hour", "minutes", "seconds", "percent",
          "percentage", "ev", "kw", "kwh", "mw", "mwh", "gw", "kg", "g", "mg", "m", "cm", "mm", "km", "celsius",
          "degrees", "k", "usd", "eur", "dollars", "euros", "yr", "yrs", "per", "h", "s", "c", "l", "ml", "ms", "kb",
          "mb", "gb", "tb", "db", "hz", "khz", "mhz", "ghz", "pa", "kpa", "mpa", "gpa", "kj", "mj", "ppm", "ppb", "mv",
          "ug", "um", "nm", "mol", "mmol", "wh", "gigabyte", "gigabytes", "megabyte", "megabytes", "millions",
          "million"}


def heads(word: Word, found: Sequence[Word], spans: Sequence[tuple[int, int]]) -> bool:
    """Whether ``word`` is a generic noun of a linked name's phrase (``spans``): right after it ('data collection
    methods') or before 'of' it ('kinds of bridges')."""
    if word[2] not in _HEADS:
        return False
    at = found.index(word)
    of = at + 1 < len(found) and found[at + 1][2] == "of"
    return any(0 <= word[0] - b <= 2 or (of and 0 <= a - found[at + 1][1] <= 5) for a, b in spans)


def unit(word: Word, found: Sequence[Word], text: str) -> bool:
    """Whether ``word`` is a unit: after 'in', 'per', a number or another unit, or in brackets ('(m/yr)')."""
    at = found.index(word)
    if word[2] not in _UNITS or at == 0:
        return False
    before = found[at - 1][2]
    bracketed = text.rfind("(", 0, word[0]) > text.rfind(")", 0, word[0])
    return bracketed or before in ("in", "per") or before.replace(".", "").isdigit() or before in _UNITS


_UNIT_FORMS = {"s": "s sec secs second seconds", "min": "min mins minute minutes", "h": "h hr hrs hour hours",
               "d": "d day days", "ms": "ms millisecond milliseconds", "%": "% percent percentage pct",
               "yr": "yr yrs year years", "month": "month months", "week": "week weeks"}
_UNIT_OF = {form: unit for unit, forms in _UNIT_FORMS.items() for form in forms.split()}
_UNIT_LIKE = _UNITS | set(_UNIT_OF)

def unit_after(found: Sequence[Word], end: int) -> tuple[str, int] | None:
    """The unit written right after a number ending at ``end`` ('2 min', '40 MPa'), and where it ends."""
    nxt = next((w for w in found if w[0] >= end), None)
    return (nxt[2], nxt[1]) if nxt is not None and nxt[0] - end <= 1 and nxt[2] in _UNIT_LIKE else None


# each scaled unit (as ``_UNIT_OF`` writes it) as (its quantity, a multiple of that quantity's base): a number typed
# in one is compared in the unit a property's label gives ('5 years' against 'Follow up (months)': 60)
_DAY, _YEAR = 86400.0, 31557600.0
_SCALE = {"ms": ("time", 0.001), "s": ("time", 1.0), "min": ("time", 60.0), "h": ("time", 3600.0), "d": ("time", _DAY),
          "week": ("time", 7 * _DAY), "month": ("time", _YEAR / 12), "yr": ("time", _YEAR),
          "nm": ("length", 1e-9), "um": ("length", 1e-6), "mm": ("length", 0.001), "cm": ("length", 0.01),
          "m": ("length", 1.0), "km": ("length", 1000.0), "mg": ("mass", 0.001), "g": ("mass", 1.0),
          "kg": ("mass", 1000.0)}


def measured_in(typed: str, labels: dict[str, str]) -> list[str]:
    """The properties (IRI -> label) whose label gives a unit of the quantity ``typed`` is a unit of ('5 years':
    'Follow up (months)')."""
    mine = _SCALE.get(_UNIT_OF.get(typed, typed))
    out = []
    for p, label in labels.items():
        given = re.search(r"\(([^)]*)\)", label)
        theirs = _SCALE.get(_UNIT_OF.get(u, u)) if given and (u := given.group(1).strip().lower()) else None
        if mine is not None and theirs is not None and theirs[0] == mine[0]:
            out.append(p)
    return out


def in_unit(number: str, typed: str, label: str) -> str | None:
    """``number``, typed with the unit ``typed`` (may be ""), in the unit a property's label gives in brackets
    ('Response time (s)'): as it is in the same unit or none, converted from another scale of the same quantity
    ('2 min' -> 120 s), None when it cannot be told (a unit of several scales, 'weeks', against a label that gives
    none: a percentage or degrees are taken as they are)."""
    given = re.search(r"\(([^)]*)\)", label)
    mine = _UNIT_OF.get(typed, typed)
    if not typed or given is None:  # '0.1 km' against 'has spatial resolution': in metres, or in kilometres?
        return None if mine in _SCALE else number
    theirs = given.group(1).strip().lower()
    theirs = _UNIT_OF.get(theirs, theirs)
    if mine == theirs:
        return number
    if mine in _SCALE and theirs in _SCALE and _SCALE[mine][0] == _SCALE[theirs][0]:
        return f"{float(number) * _SCALE[mine][1] / _SCALE[theirs][1]:.6g}"
    return None


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
    """A label's words that name something: not its filler, not a linking verb ('has been evaluated in the City':
    'city')."""
    return list(_content(label))


@lru_cache(maxsize=8192)
def _content(label: str) -> tuple[str, ...]:
    """``content``, read once per label: each question is matched against the same labels (issue 53's bench)."""
    said = [w for _, _, w in words(label) if w not in _LABEL_FILLER]
    return tuple([w for w in said if w not in FILLER and "link" not in meanings(w)] or said)


def singular(word: str) -> str:
    """A plural's singular, roughly ('batteries': 'battery', 'apps': 'app', 'processes': 'process')."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


@lru_cache(maxsize=65536)
def near(a: str, b: str) -> bool:
    """The same word, a plural, an ending or a typo away (two for long words: 'treatmnets', 'grasland'); a word of
    four letters or fewer only itself: one letter off, it is another word as often as a slip ('lane', 'lake'); a
    longer word with another first letter neither ('methanol', 'ethanol')."""
    a, b = singular(a), singular(b)
    if min(len(a), len(b)) <= 4:  # two letters swapped still ('rnig')
        return a == b or (len(a) == len(b) == 4 and sorted(a) == sorted(b) and within_edits(a, b))
    if a != b and a[0] != b[0] and a[:2] != b[1::-1]:  # a slip keeps the first letter: 'methanol' is no 'ethanol'
        return False
    return word_sim(a, b) >= (0.75 if min(len(a), len(b)) >= 7 else 0.85)


def letters_of(short: str, word: str) -> bool:
    """Whether ``short`` is ``word``'s first letter and others of its letters in order ('oa': 'osteoarthritis',
    'pplx': 'perplexity')."""
    rest = iter(word[1:])
    return bool(short) and short[0] == word[:1] and all(c in rest for c in short[1:])


def prefix_of(short: str, word: str) -> bool:
    """A word cut short ('vocab': 'vocabulary', 'coast' of 'coastal': 'coasts')."""
    a, b = singular(short), singular(word)
    a, b = (a, b) if len(a) <= len(b) else (b, a)
    return len(a) >= 4 and len(b) >= len(a) + 2 and b.startswith(a)


def suffix_of(short: str, word: str) -> bool:
    """The last word of a compound said alone ('phage' of 'bacteriophage', 'wave' no: five letters or more)."""
    a, b = singular(short), singular(word)
    return len(a) >= 5 and len(b) >= len(a) + 3 and b.endswith(a)


def unparenthesised(label: str) -> str:
    """A label without its parenthesised part, its unit mostly ('Sample size (n)': 'Sample size')."""
    return re.sub(r"\([^)]*\)", " ", label)


@lru_cache(maxsize=8192)
def initials(label: str) -> str:
    """A label's initials, its parenthesised part left out ('Power conversion efficiency (%)': 'pce')."""
    return "".join(w[0] for w in content(unparenthesised(label)) if w.isalpha())


def acronym(label: str) -> str:
    """The first letters of all a label's words but its filler, its parenthesised part left out ('Case fatality rate':
    'cfr', where 'case' is no content word)."""
    return "".join(w[0] for w in re.findall(r"[^\W\d_]+", unparenthesised(label).lower())
                   if w not in _LABEL_FILLER)


def _shorts(label: str) -> set[str]:
    """The short forms of a label that name it: its initials and its acronym, of two letters or more, none a word of
    its own ('is' of 'Investigated species')."""
    return {s for s in (initials(label), acronym(label)) if len(s) >= 2 and s not in FILLER and not meanings(s)}


def claim(free: Sequence[Word], label: str) -> list[Word]:
    """The question's free words a label accounts for: its content words (a kind's word only when that is all it
    has: 'Study location' is not asked by 'study'), its initials ('pce'), a place asked ('where') of a place."""
    theirs = content(label)
    own = [t for t in theirs if t not in KINDS] or theirs
    shorts = _shorts(label)
    place = bool(set(theirs) & _PLACE_SAID)
    got = [w for w in free if any(_said(w[2], t) for t in own) or w[2] in shorts
           or (place and w[2] in _PLACE_ASKED)]
    # the label's own kind word right beside its other words, or a label's filler between ('study designs' is
    # 'Study design', 'country of study' is 'Country of study', not papers)
    at = {w: i for i, w in enumerate(free)}

    def beside(w: Word, g: Word) -> bool:
        i, j = sorted((at[w], at[g]))
        run = free[i:j + 1]
        return all(0 <= b[0] - a[1] <= 1 for a, b in zip(run, run[1:])) and \
            all(m[2] in _LABEL_FILLER and m[2] in theirs_all for m in run[1:-1]) and len(run) <= 3

    theirs_all = {t for _, _, t in words(label)}
    return sorted(got + [w for w in free if w not in got and w[2] in KINDS and any(near(w[2], t) for t in theirs)
                         and any(beside(w, g) for g in got)])


def _said(word: str, label_word: str) -> bool:
    """A label's word said by a question's word: a kind's word only as itself ('fields' is never 'Yield')."""
    if word in KINDS:
        return singular(word) == singular(label_word)
    # or cut short ('temp': 'temperature')
    return near(word, label_word) or (len(word) < len(label_word) and prefix_of(word, label_word))


def _strong(got: Sequence[Word], label: str) -> bool:
    """Whether the words claimed name the property: half its content words or more, two of them, or its
    initials."""
    said = {w[2] for w in got}
    acronyms = {w.lower() for w in re.findall(r"\b[A-Z]{2,}\b", label)}  # 'COP' of 'Coefficient of performance COP'
    return len(said) >= min(2, len(content(label))) or len(got) * 2 >= len(content(label)) or \
        bool(said & _shorts(label)) or bool(said & acronyms)


def full_label(got: Sequence[Word], label: str) -> bool:
    """Whether the words claimed are every content word of the label (its kind words aside) or its initials."""
    said = {w[2] for w in got}
    own = [t for t in content(label) if t not in KINDS] or content(label)
    return bool(got) and (all(any(near(w, t) for w in said) for t in own) or bool(said & _shorts(label)))


def properties_named(free: Sequence[Word], facts: Comparisons, scope: str) -> list[tuple[str, list[Word]]]:
    """The properties the question names by their labels' words (only those of ``scope``'s contributions when one is
    named), each word given to the property it names best; a linking verb alone names none ('use' is not 'Uses
    technique')."""
    out: list[tuple[str, list[Word]]] = []
    for held in [scope]:
        best: dict[Word, tuple[tuple[float, int], str]] = {}
        tied: set[Word] = set()
        carried = facts.carried(held)
        for p in carried:
            label = facts.property_labels[p]
            got = claim(free, label)
            if not got or not (_strong(got, label) or _distinct(got, p, carried, facts)) or \
                    (all("link" in meanings(w[2]) for w in got) and not full_label(got, label)) or \
                    (len(got) == 1 and meanings(got[0][2]) & {"count", "value"} and not full_label(got, label)):
                continue  # nor a count's or a score's word alone ('just the number': no 'Number of participants')
            direct = sum(any(near(w[2], t) for t in content(label)) for w in got)  # a place asked counts less
            # as much of the label said, and then the more of the question's words ('response time': 'Response
            # time (s)', not 'Response (%)')
            # (only a place asked, 'where': every place label alike, 'Country' as 'Study location')
            share = ((direct + 0.9 * (len(got) - direct)) / max(len(content(label)), 1) if direct else 0.9, len(got))
            for w in got:
                if share > best.get(w, ((0.0, 0), ""))[0]:
                    best[w] = (share, p)
                    tied.discard(w)
                elif share == best[w][0] and best[w][1] != p:
                    tied.add(w)  # 'city' of 'Country' and of 'Study location' alike: neither
        for w in tied:
            best.pop(w, None)
        for w, (_, p) in sorted(best.items()):
            hit = next((o for o in out if o[0] == p), None)
            if hit is None:
                out.append((p, [w]))
            else:
                hit[1].append(w)
    return sorted(out, key=lambda o: o[1][0][0])


def _distinct(got: Sequence[Word], p: str, carried: Sequence[str], facts: Comparisons) -> bool:
    """Whether one word claimed for ``p`` is a word no other property's label has ('efficiency')."""
    return len(got) == 1 and len(got[0][2]) > 4 and not any(
        near(got[0][2], t) for o in carried if o != p for t in content(facts.property_labels[o]))


def inside(w: Word, spans_: Sequence[tuple[int, int]]) -> bool:
    return any(a <= w[0] and w[1] <= b for a, b in spans_)


