"""The comparison a question names: by its label's words (plurals, typos, shortenings, abbreviations, a word
between two of them), or in other words by meaning (the sentence encoder over the comparisons' labels); widened to
the words around them that name it too, and narrowed to one run of words where its words stand apart."""
from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache

from pipeline.intent.account import FILLER, OPERATORS, filler, meanings, words
from pipeline.intent.comparison_asked import WH
from pipeline.intent.comparisons import Comparisons
from pipeline.intent.linking import (
    KIND_WORDS,
    KINDS,
    SCOPE_WORDS,
    Word,
    claim,
    content,
    full_label,
    letters_of,
    near,
    prefix_of,
    suffix_of,
)
from pipeline.intent.operators import TABLE


def _abbreviates(short: str, word: str) -> bool:
    """Whether ``short`` (2–4 letters) abbreviates ``word``: its first letter, then the others in order ('oa':
    'osteoarthritis')."""
    return 2 <= len(short) <= 4 and len(word) >= 2 * len(short) and short not in FILLER and letters_of(short, word)


def _shortens(word: str, label: str) -> bool:
    """Whether ``word`` shortens the comparison's ``label``: one of its words abbreviated ('oa'), or the initials of
    two to four of its words in a row ('ngs': 'next-generation sequencing')."""
    said = content(label)
    return any(_abbreviates(word, t) for t in said if t not in SCOPE_WORDS) or \
        (len(word) >= 2 and word in _initials(label) and word not in FILLER)


def _abbreviation(word: str, label: str) -> bool:
    """Whether ``word`` alone says the label: the initials of two to four of its words in a row, or two letters
    abbreviating one of its words ('tb'); longer letters picked from a word say too many words ('ski', 'snakebite')."""
    return (2 <= len(word) <= 4 and word in _initials(label)) or (
        len(word) == 2 and any(_abbreviates(word, t) for t in content(label) if t not in SCOPE_WORDS))


@lru_cache(maxsize=65536)
def _initials(label: str) -> frozenset[str]:
    """The initials of each two to four of the label's words in a row (read once per label: every question is held
    against the same labels)."""
    said = content(label)
    out = {"".join(w[0] for w in said[i:i + n]) for n in (2, 3, 4) for i in range(len(said) - n + 1)}
    # and of three or four of all its words, a small one inside ('alan': 'artificial light at night')
    every = [w for _, _, w in words(label) if w.isalpha()]
    out |= {"".join(w[0] for w in every[i:i + n]) for n in (3, 4) for i in range(len(every) - n + 1)
            if every[i] in said and every[i + n - 1] in said}
    return frozenset(out)


def _by_initials(free: Sequence[Word], facts: Comparisons) -> tuple[str, list[Word]] | None:
    """The one comparison a word of three letters or more names alone by its initials ('the NGS comparison'), no
    other comparison's label having them; None when no word does, or two do."""
    hits = {(iri, w) for w in free if len(w[2]) >= 3 and w[2].isalpha() and w[2] not in FILLER and not meanings(w[2])
            for iri, label in facts.labels.items() if w[2] in _initials(label)}
    if len({iri for iri, _ in hits}) != 1 or len({w for _, w in hits}) != 1:
        return None
    iri, word = next(iter(hits))
    return iri, [word]


def scope_named(free: Sequence[Word], facts: Comparisons) -> tuple[str, list[Word]] | None:
    """The comparison the question names by words of its label (two or more, or one no other comparison's label
    has), and the words that name it: with a word between two of them ('the coastal *erosion* comparison') and its
    abbreviations ('oa'); a word that names one of its properties whole and stands apart from the others is left to
    the property ('materials' in 'which materials did the wind turbine studies use'). None when none is named, or two
    as well."""
    own = {iri: {w for w in content(label) if w not in SCOPE_WORDS} for iri, label in facts.labels.items()}
    scored = []
    for iri, mine in own.items():
        got = [w for w in free if w[2] not in SCOPE_WORDS and any(near(w[2], t) or prefix_of(w[2], t) or
                                                                  suffix_of(w[2], t) for t in mine)]
        props = [c for p in facts.carried(iri) if full_label(c := claim(free, facts.property_labels[p]),
                                                        facts.property_labels[p])]
        got = [w for w in got if not any(w in c for c in props) or _beside(w, got, free)]
        # a short abbreviation of this label's words alone ('tb' for 'tuberculosis', 'chw' for 'community health
        # worker'), no word of the question's own ('ski' abbreviates 'snakebite' as well: only two letters so)
        # (its initials before a word of another label abbreviated: 'ci' is 'cochlear implantation', no
        # 'cultivation')
        got += [w for w in free if w not in got and w[2].isalpha() and w[2] not in FILLER and not meanings(w[2])
                and ((2 <= len(w[2]) <= 4 and w[2] in _initials(facts.labels[iri])
                      and not any(w[2] in _initials(facts.labels[o]) for o in own if o != iri))
                     or (_abbreviation(w[2], facts.labels[iri])
                         and not any(_abbreviation(w[2], facts.labels[o]) for o in own if o != iri)))]
        unique = any(not any(near(w[2], t) for o, theirs in own.items() if o != iri for t in theirs) for w in got)
        if len(got) >= 2 or (got and unique):
            scored.append((len(got) + len({w[2] for w in got}) / len(mine), iri, got, props))
    scored.sort(key=lambda s: -s[0])
    if not scored:
        return _by_initials(free, facts)
    if len(scored) > 1 and scored[1][0] == scored[0][0]:
        return None
    iri, got, props = scored[0][1], scored[0][2], scored[0][3]
    # an abbreviation of its words, not a word naming one of its properties whole ('cost' is no 'combustion')
    got = sorted(got + [w for w in free if w not in got and _shortens(w[2], facts.labels[iri])
                        and not any(w in c for c in props)])
    between = [w for i, w in enumerate(free) if w not in got and 0 < i < len(free) - 1 and w[2].isalpha()
               and _in_name(free[i - 1], got) and _in_name(free[i + 1], got) and not meanings(w[2]) & {"not"}]
    return iri, sorted(got + between)


MEANT = 0.45  # the least cosine of a phrase to a comparison's label to read it as naming it
MARGIN = 0.1  # over the next comparison's
NAME_END = SCOPE_WORDS | {"one", "papers", "paper", "trials", "experiments", "surveys", "comparisons", "studies"}


def scope_meant(free: Sequence[Word], found: Sequence[Word], facts: Comparisons) -> tuple[str, list[Word]] | None:
    """The comparison a run of the question's words names in other words than its label's ('the remote work
    wellbeing comparison' for 'telework and employee wellbeing surveys'): the words right before 'comparison',
    'one', 'studies', … that nothing else holds, whose meaning (the sentence encoder's) is one comparison's label's
    clearly more than any other's."""
    if facts.meant is None:
        return None
    at = {w: i for i, w in enumerate(found)}
    for end in [w for w in found if w[2] in NAME_END]:
        run: list[Word] = []
        i = at[end] - 1
        while i >= 0 and found[i] in free and found[i][2].isalpha() and found[i][2] not in KINDS and \
                not _filler_or_operator(found[i][2]):
            run.insert(0, found[i])
            i -= 1
        if not run:
            continue
        ranked = facts.meant(" ".join(w[2] for w in run))
        if not ranked:
            continue
        top, margin = ranked[0][0], ranked[0][0] - (ranked[1][0] if len(ranked) > 1 else 0.0)
        if (top >= MEANT and margin >= MARGIN) or (top >= MEANT - 0.15 and margin >= 2 * MARGIN):
            return ranked[0][1], run  # 'coastal erosion' 0.63; 'erosion' alone 0.33, the next label 0.08
    return None


def widened(scoped: tuple[str, list[Word]], free: Sequence[Word], found: Sequence[Word],
            facts: Comparisons) -> tuple[str, list[Word]]:
    """A comparison named by some of its label's words, with the words right before them that name it in other
    words ('*3d printing* tensile' for 'Tensile performance of fused filament fabrication …'), and those right after
    them up to the word that ends its name ('protected *cycle lane* comparison'): taken when the whole run means that
    comparison more than any other (the sentence encoder)."""
    iri, got = scoped
    if facts.meant is None or not got:
        return scoped
    at = {w: i for i, w in enumerate(found)}

    def joins(i: int) -> bool:
        return 0 <= i < len(found) and found[i] in free and found[i] not in got and found[i][2].isalnum() and \
            found[i][2] not in KINDS and not _filler_or_operator(found[i][2])

    run, i = list(got), at[got[0]] - 1
    while joins(i):
        run.insert(0, found[i])
        i -= 1
    j = at[got[-1]] + 1
    while joins(j) and found[j][2] not in NAME_END:
        j += 1
    if j > at[got[-1]] + 1 and j < len(found) and found[j][2] in NAME_END:
        run += found[at[got[-1]] + 1:j]
    if len(run) == len(got):
        return scoped
    ranked = facts.meant(" ".join(w[2] for w in run))
    return (iri, sorted(run)) if ranked and ranked[0][1] == iri and ranked[0][0] >= MEANT - 0.15 else scoped


# words inside a name ('prevention of injuries')
_JOINS = {"of", "in", "and", "for", "on", "to", "vs", "versus", "with"}


def narrowed(scoped: tuple[str, list[Word]], found: Sequence[Word], facts: Comparisons) -> tuple[str, list[Word]]:
    """The comparison's name as the one run of words that ends it: where the words naming it stand in two runs or
    more apart ('which *sign languages* does the *sign language recognition* comparison cover', 'the *NGS* comparison:
    each *platform* with its cost'), the run right before 'comparison', 'one', 'studies', … when it names that
    comparison on its own; the other runs' words are left to what else they name (a property asked)."""
    iri, got = scoped
    at = {w: i for i, w in enumerate(found)}
    runs: list[list[Word]] = []
    for w in sorted(got):
        gap = at[w] - at[runs[-1][-1]] if runs else 0
        if runs and (gap == 1 or (gap == 2 and found[at[w] - 1][2] in _JOINS)):
            runs[-1].append(w)
        else:
            runs.append([w])
    ending = [r for r in runs if at[r[-1]] + 1 < len(found) and found[at[r[-1]] + 1][2] in NAME_END]
    if len(runs) < 2 or len(ending) != 1:
        return scoped
    kept = ending[0]
    alone = scope_named(kept, facts)
    short = all(_shortens(w[2], facts.labels[iri]) for w in kept) and \
        not any(_shortens(w[2], label) for o, label in facts.labels.items() if o != iri for w in kept)
    return (iri, kept) if (alone is not None and alone[0] == iri) or short else scoped


def repeated(kept: tuple[str, list[Word]], named: tuple[str, list[Word]], found: Sequence[Word],
             asking: Collection[str]) -> tuple[str, list[Word]]:
    """The comparison's name as the run of words that ends it (``kept``) and the other words of its label the
    question has ('the *nh3 sensors* in that metal oxide comparison'), save a word that says what is asked, right
    after a word of ``asking`` ('which *drugs* … in the cat epilepsy comparison', '… w/ the *model* they used'), unless
    it repeats one of that run's words (the first *bat* of 'the bat species in the wind turbine bat fatality
    studies')."""
    iri, run = kept
    at = {w: i for i, w in enumerate(found)}

    def asks(w: Word) -> bool:  # the one word between 'which' and a verb ('which drugs did …')
        i, j = at[w] - 1, at[w] + 1
        while i >= 0 and found[i][2] in ("the", "a", "an", "its", "their"):
            i -= 1
        return i >= 0 and found[i][2] in asking and (j == len(found) or filler(found[j][2]))

    return iri, sorted(set(run) | {w for w in named[1] if not asks(w) or any(near(w[2], k[2]) for k in run)})


def _filler_or_operator(word: str) -> bool:
    """A word that names nothing ('across'), says what is done ('strongest', 'not', 'hottest') or counts ('2'):
    never part of a name."""
    return word in FILLER or word.isdigit() or bool(meanings(word) & (OPERATORS | {"link"})) or \
        any(op.found(word) for op in TABLE.values())


def _beside(w: Word, got: Sequence[Word], free: Sequence[Word]) -> bool:
    """Whether ``w`` stands right beside another of the words naming the comparison."""
    i = free.index(w)
    return any(0 <= j < len(free) and free[j] in got and free[j] != w for j in (i - 1, i + 1))


def _in_name(w: Word, got: Sequence[Word]) -> bool:
    return w in got or w[2] in SCOPE_WORDS or w[2] in {"one", "papers", "paper", "trials", "experiments"}


PROPERTY_MEANT = 0.5  # the least cosine of the words asked for to a property's label to read them as naming it
_MARGIN = 0.1  # over the comparison's next property


def property_meant(found: Sequence[Word], free: Sequence[Word], facts: Comparisons,
                    scope: str) -> tuple[str, list[Word]] | None:
    """The property of the named comparison that the words right after 'which' / 'what' name in other words than
    its label's ('plastic types' for 'Polymer'): those words, when nothing else holds them, mean that property's
    label clearly more than any other property of the comparison (the sentence encoder)."""
    if facts.property_meant is None or not scope:
        return None
    at = next((i for i, w in enumerate(found) if w[2] in WH), None)
    run: list[Word] = []
    for w in found[at + 1:] if at is not None else ():
        if w not in free or not w[2].isalpha() or filler(w[2]) or meanings(w[2]) or \
                any(w[2] in said.split() for said in KIND_WORDS.values()):
            break
        run.append(w)
    if not run:
        return None
    mine = set(facts.carried(scope))
    ranked = [(score, p) for score, p in facts.property_meant(" ".join(w[2] for w in run)) if p in mine]
    if ranked and ranked[0][0] >= PROPERTY_MEANT and (len(ranked) == 1 or ranked[0][0] - ranked[1][0] >= _MARGIN):
        return ranked[0][1], run
    return None
