"""The negations of a comparison question's reading: a condition turned around by the negation word before it ('did
not use tai chi'), or a property given for none ('didnt report any follow-up', 'w/o a venue')."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from pipeline.intent.account import meanings
from pipeline.intent.linking import Word
from pipeline.intent.record import Condition

# ('the studies outside the US', 'apart from the ones at V')
NEGATIONS = {"not", "no", "without", "never", "dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent", "havent",
             "hasnt", "hadnt", "except", "excluding", "lacking", "missing", "outside", "apart", "aside", "neither",
             "nor"}


def negated(conditions: Sequence[Condition], free: Sequence[Word], text: str) -> tuple[list[Condition], list[Word]]:
    """The conditions a negation word stands right before (within five words, no other condition between: 'did not
    use tai chi', 'without clay', 'not in 2015') turned around — with the values listed right after on the same
    property ('not in kenya or india': neither) — and the negation words so read. 'other than X' is a value that is
    not X (op 'other': 'a method other than X' may be one of a study that used X too), not 'did not use X'."""
    out, used = list(conditions), []
    for i, w in enumerate(free):
        # 'other than X', 'rather than X': X left out, as 'not X'
        than = w[2] in ("other", "rather") and i + 1 < len(free) and free[i + 1][2] == "than" and \
            free[i + 1][0] - w[1] <= 1
        if not negation(w) and not than:
            continue
        after = sorted((c for c in out if c.op == "=" and 0 <= c.span[0] - w[1] <= 40), key=lambda c: c.span)
        if not after:
            continue
        used += [w, free[i + 1]] if than else [w]
        last = after[0]
        for c in after:
            if c is not last and (c.on != last.on or not _LISTED.fullmatch(text[last.span[1]:c.span[0]])):
                break
            out[out.index(c)] = replace(c, op="other" if than else "!=")
            last = c
    return out, used


_LISTED = re.compile(r"\s*(?:,|/|\b(?:or|nor|and)\b)\s*(?:(?:in|from|on|at)\s+)?", re.I)  # 'kenya, india or ghana'


def absent(conditions: Sequence[Condition], free: Sequence[Word],
            props: Sequence[tuple[str, list[Word]]]) -> tuple[list[Condition], list[Word]]:
    """A negation word right before a property no condition holds ('didnt report any follow-up') or the word
    'venue' ('w/o a venue'): that property given for none of them; and the words so read."""
    out, used = list(conditions), []
    held = {c.on for c in conditions}
    for w in free:
        if not negation(w):
            continue
        after = [(ws[0][0], p, ws[-1]) for p, ws in props if p not in held and 0 <= ws[0][0] - w[1] <= 30
                 and not any(w[1] <= v[0] < ws[0][0] and v[2] in _ASKING for v in free)]  # 'not X - which Y
        after += [(v[0], "orkgp:HAS_VENUE", v) for v in free if v[2] in ("venue", "venues") and 0 <= v[0] - w[1] <= 30]
        if after:
            at, on, last = min(after)
            out.append(Condition((w[0], last[1]), on, "absent", ""))
            held.add(on)
            used += [w] + [v for v in free if v[0] == at and v[2] in ("venue", "venues")]
    return out, used


_ASKING = {"which", "what", "whats", "how", "where", "who", "list"}  # a new ask begins: no negation reaches past it


def negation(w: Word) -> bool:
    return w[2] in NEGATIONS and "not" in meanings(w[2])


def first_negation(found: Sequence[Word]) -> int | None:
    """Where the question's first negation word stands ('never', 'dont', 'w/o', 'outside'), None when it has none."""
    return next((w[0] for w in found if negation(w)), None)


# verbs that say a contribution carries a value of a property ('which comparisons *report* an effect size')
_CARRY = frozenset({"report", "reports", "reported", "reporting", "record", "records", "recorded", "give", "gives",
                    "gave", "given", "have", "has", "had", "include", "includes", "included", "list", "lists",
                    "listed", "provide", "provides", "provided", "mention", "mentions", "mentioned", "measure",
                    "measures", "measured", "state", "states", "stated"})
_BETWEEN = {"a", "an", "any", "the", "some", "its", "their"}


def carried(found: Sequence[Word], props: Sequence[tuple[str, list[Word]]], left: Sequence[str]) -> list[str]:
    """The properties of ``left`` (named, and neither asked, ranked by nor held to) said as what the things asked
    carry ('papers that *report a* sample size', 'comparisons *recording a* country'): the verb right before the
    property's words, an article aside."""
    out = []
    for p, ws in props:
        if p not in left:
            continue
        i = found.index(ws[0]) - 1
        while i >= 0 and found[i][2] in _BETWEEN:
            i -= 1
        if i >= 0 and found[i][2] in _CARRY:
            out.append(p)
    return out
