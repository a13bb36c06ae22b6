"""What a question about comparisons asks, from its words: the thing the answer lists and what is shown beside it
(``asked_of``), a second thing joined by a sign (``joined_at``), the grouping 'per' or 'each' says (``grouped_by``),
and two values said with 'or' (``either``)."""
from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

from pipeline.intent.account import filler, meanings
from pipeline.intent.comparisons import STRUCTURAL, Comparisons
from pipeline.intent.linking import KIND_WORDS, SCOPE_WORDS, Word, near
from pipeline.intent.negated import negation
from pipeline.intent.operators import TABLE, Operator
from pipeline.intent.record import Condition
from pipeline.sparql.direction import direction_known, lower_is_better

GROUPS = {"year", "venue", "field", "problem", "comparison"}  # kinds a count or an aggregate is given per
OF_PAPER = {"year", "venue", "field", "problem"}  # a paper's own things
ALSO = {"and", "plus", "its", "their", "with", "give", "include", "including"}  # "… ? pls give years too"
WH = {"which", "what", "whats", "list", "name", "many", "show", "give"}


def asked_of(found: Sequence[Word], kinds: Sequence[tuple[Word, str]], open_props: Sequence[str],
             props: Sequence[tuple[str, list[Word]]], op: tuple[str, int], scoped: bool,
             joined: Collection[int] = ()) -> tuple[str, str, list[str]]:
    """What the answer lists (a kind, or a property's IRI) and what an operator ranks or aggregates by: the kind or
    unconditioned property right after 'which', 'what', 'how many' (else the first the question names; 'comparison'
    names the one it is asked of, when one is named)."""
    before = {w[0]: [v[2] for v in found[max(i - 3, 0):i]] for i, w in enumerate(found)}
    things = [(w[0], w[1], k) for w, k in kinds if k != "comparison" or not scoped]
    things += [(ws[0][0], ws[-1][1], p) for p, ws in props if p in open_props]
    # 'for each study, city + design': the papers are what the answer is given for, not what it asks
    each = [t for t in things if t[2] in KIND_WORDS and before.get(t[0], [""])[-1:] in (["each"], ["every"], ["per"])]
    firsts = [t for t in things if t not in each or len(things) == 1]
    # 'what size did each paper heal': one value asked, each shown with its paper
    shown = [each[0][2]] if len(firsts) == 1 and len(each) == 1 and TABLE[op[0]].name == "list" else []
    wh = next((w[0] for w in found if w[2] in WH), None)  # what follows the first 'which' / 'what' is asked
    firsts.sort(key=lambda f: (wh is None or f[0] < wh, f[0]))
    operator, at = op
    if not firsts:
        return "", "", []
    asked = firsts[0][2]
    # 'the paper and its year', 'and what year was it published', 'city + study design'
    also = [k for i, (a, _, k) in enumerate(firsts[1:], 1) if k != asked and (
        set(before.get(a, [])) & ALSO or a in joined or (
        firsts[i - 1][1] <= a and not any(firsts[i - 1][1] <= w[0] < a for w in found)))] + shown
    firsts_ = [(a, k) for a, _, k in firsts]
    numeric = TABLE[operator].numeric
    if TABLE[operator].by_year:
        return (asked if asked in STRUCTURAL.values() and asked != "year" else "paper"), "year", also
    if numeric:  # by the property the operator's words stand before ('the least response time'), else the first
        after = sorted((ws[0][0], p) for p, ws in props if p in open_props and 0 <= ws[0][0] - at <= 30)
        by = after[0][1] if after else next((p for _, p in firsts_ if p.startswith("orkgp:")), "")
        also = [a for a in also if a != by]
        return (by, by, also) if asked == by else (asked, by, also)
    return asked, "", also


_JOINED = re.compile(r"[+&]")


def joined_at(text: str, found: Sequence[Word]) -> set[int]:
    """Where a thing asked after a '+' or '&' begins ('the newest paper + where was it published')."""
    return {next((w[0] for w in found if w[0] > m.start() and not filler(w[2])), -1) for m in _JOINED.finditer(text)}


def grouped_by(w: Word, found: Sequence[Word]) -> bool:
    """Whether the word stands right after 'per', 'each' or 'every' ('how many … per country'), or one word of its
    own after it ('per research field', 'per publication year', 'per capture method'), or 'each of the': a
    grouping."""
    i = found.index(w)
    grouping = ("per", "each", "every")
    # ('each of the comparisons')
    of_the = i > 2 and found[i - 1][2] == "the" and found[i - 2][2] == "of" and found[i - 3][2] in ("each", "every")
    return of_the or (i > 0 and found[i - 1][2] in grouping) or (i > 1 and found[i - 1][2].isalpha() and
                                                                 found[i - 2][2] in grouping)


_COUNTING = {"counting", "including", "incl"}  # 'not counting', 'not including'


def left_out(free: Sequence[Word], kinds: Sequence[tuple[Word, str]], props: Sequence[tuple[str, list[Word]]],
             labels: Mapping[str, str]) -> tuple[list[Condition], list[Word]]:
    """The properties a list of a comparison's properties leaves out ('excluding research problem', 'apart from
    country'): each property or paper's thing named right after a negation word, and the words so read."""
    out: list[Condition] = []
    used: list[Word] = []
    for i, w in enumerate(free):
        if not negation(w):
            continue
        after = free[i + 1:i + 2] if i + 1 < len(free) and free[i + 1][2] in _COUNTING | {"from", "than"} else []
        start = (after[0] if after else w)[1]
        named = [(ws[0], p, ws) for p, ws in props if 0 <= ws[0][0] - start <= 20]
        named += [(k, p, [k]) for k, kind in kinds for p, said in STRUCTURAL.items()
                  if said == kind and kind != "paper" and 0 <= k[0] - start <= 20]
        if named:
            _, p, ws = min(named)
            out.append(Condition((w[0], ws[-1][1]), "property", "!=", labels.get(p, STRUCTURAL.get(p, p)), p))
            used += [w, *after, *ws]
    return out, used


_OR = re.compile(r"\s*(?:,\s*)?(?:or|/)\s*", re.I)


def either(conditions: Sequence[Condition], text: str) -> list[Condition]:
    """Two values of one property said with 'or' between them ('in nepal or bangladesh'): one condition, either."""
    out: list[Condition] = []
    for c in conditions:
        at = next((i for i, p in enumerate(out) if p.on == c.on and p.op in ("=", "in") and c.op == "=" and p.iri
                   and c.iri and _OR.fullmatch(text, p.span[1], c.span[0])), None)
        if at is None:
            out.append(c)
            continue
        p = out[at]
        out[at] = Condition((p.span[0], c.span[1]), c.on, "in", f"{p.value} or {c.value}", f"{p.iri} {c.iri}")
    return out


# a word of the operator table that ranks by merit, and whether it asks for the bottom
_JUDGED = {"best": False, "worst": True}


def directed(operator: Operator, said: Sequence[str], by: str, facts: Comparisons, unplaced: list[str]) -> Operator:
    """A ranking said by merit ('the best', 'the worst' recovery time) in the way the property's label says is
    better (a time taken: lower; an efficiency: higher); the word left unplaced where the label does not say."""
    judged = [w for w in said if w in _JUDGED]
    if not judged or operator.name not in ("max", "min") or not by.startswith("orkgp:"):
        return operator
    label = facts.property_labels.get(by, "")
    if not direction_known(label):
        unplaced.append(judged[0])
        return operator
    return TABLE["min" if lower_is_better(label) != _JUDGED[judged[0]] else "max"]


def after_the(w: Word, found: Sequence[Word]) -> bool:
    """Whether a stopword stands where a name does, right after 'the' ('from the us': a country, not 'us')."""
    i = found.index(w)
    return i > 0 and found[i - 1][2] == "the"


def scaffold(word: str) -> bool:
    """A word the question's scaffolding holds: filler, a linking verb ('used', 'reported'), a kind the reading
    implies."""
    said = meanings(word)
    return filler(word) or word in ("compared", "compare", "compares") or any(near(word, t) for t in SCOPE_WORDS) or \
        (bool(said & {"link", "value", "every"}) and not said & {"not"})


PUBLISHED = re.compile(r"\b(?:published|publish|appeared|came\s+out|come\s+out)\b", re.I)
WHICH_ONE = re.compile(r"^\W*(?:is|are)\s+there\s+(?:a|an|any)\s+\w+(?:\s+\w+)?\s+(?:that|which|who)\b", re.I)
MOST_THINGS = re.compile(r"\b(most|fewest|least)\s+(?:(?P<contribution>contributions|entries)|(?P<paper>papers|"
                          r"studies|publications))\b", re.I)
ANY = re.compile(r"\b(?:anything|something|any)\b", re.I)
