"""The bounds a comparison question states, read into conditions: a year bound as worded ('since 2019': inclusive,
'after 2019': not), a range of years, a number bounding a property in the unit its label gives ('under 2 min'
against 'Response time (s)': 120), and a bound on each paper's number of contributions."""
from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.intent.comparisons import Comparisons, Value
from pipeline.intent.conditions import BETWEEN
from pipeline.intent.linking import Word, in_unit, measured_in
from pipeline.intent.record import Condition

RANGE = re.compile(r"(?:\b(?:between|from)\s+(?P<low>(?:19|20)\d\d)\s*(?:and|to|-|–|until|till|through|thru)|"
                    r"\b(?P<start>(?:19|20)\d\d)\s*(?:to|-|–|until|till|through|thru))\s*"  # '2007 thru 2012'
                    r"(?P<high>(?:19|20)\d\d)\b(?:\s*,?\s*(?:both\s+(?:years?\s+|ends?\s+)?)?(?:inclusive|incl\b\.?|included))?",
                    re.I)  # ('between 2014 and 2018 inclusive': what a range of years is read as already)
BOUND = re.compile(r"\b(?P<word>before|after|since|until|till|up\s+to(?:\s+and\s+including)?|prior\s+to|"
                    r"earlier\s+than|later\s+than|newer\s+than|"
                    r"older\s+than|from|in|"
                    r"during|as\s+of|by)?\s*(?P<year>(?:19|20)\d\d)\b(?P<tail>\s+(?:or|and)\s+(?:later|after|newer|"
                    r"earlier|before|older)|\s+onwards?|\s+and\s+up)?", re.I)
NUMBER = re.compile(r"\b(?P<word>above|over|more\s+than|greater\s+than|higher\s+than|exceed(?:s|ed|ing)?|"
                     r"surpass(?:es|ed)?|break|breaks|broke|beat|beats|at\s+least|below|"
                     r"under|less\s+than|fewer\s+than|lower\s+than|at\s+most|(?:longer|bigger|larger)\s+than|"
                     r"(?:shorter|smaller)\s+than)\s+(?:(?P<n>\d+(?:\.\d+)?)\b|"
                     # 'a yield above the comparison's average': the mean of the values bounded
                     r"(?P<avg>(?:the\s+)?(?:(?:comparisons?|comp|overall|group)(?:['’]s)?\s+)?(?:average|mean|avg)\b))|"
                     # '5 years or more', '3.5 or lower': the bound said after the number (and its unit)
                     r"\b(?P<after>\d+(?:\.\d+)?)\s*(?:[^\W\d_]+\s+)?(?P<tail>or\s+(?:more|longer|greater|higher|"
                     r"above|over|less|fewer|shorter|lower|below|under))\b", re.I)
AVERAGE = "average"  # a bound at the average of the values bounded ('above the comparison's average')
# a number range on a property ('sensitivity between 80 and 90 %'): at least the one, at most the other
TOP = re.compile(r"\b(?:top|best|highest|largest|lowest|smallest|first)\s+(?P<k>[2-9]|1\d)\b(?!\s*(?:%|°))", re.I)
INCLUDED = re.compile(r"\b(?:incl|including|included|inclusive(?:\s+of)?)\.?\s*$", re.I)
OPS = {"before": "<", "up to": "<=", "up to and including": "<=",
        "prior to": "<", "earlier than": "<", "until": "<=", "till": "<=", "by": "<=", "after": ">",
        "later than": ">", "newer than": ">", "older than": "<", "since": ">=", "as of": ">=", "from": "=", "in": "=",
        "during": "=", "above": ">",
        "over": ">", "more than": ">", "greater than": ">", "higher than": ">", "exceeding": ">", "at least": ">=",
        **dict.fromkeys(("exceed", "exceeds", "exceeded", "surpass", "surpasses", "surpassed", "break", "breaks",
                         "broke", "beat", "beats"), ">"),
        "below": "<", "under": "<", "less than": "<", "fewer than": "<", "lower than": "<", "at most": "<=",
        "longer than": ">", "bigger than": ">", "larger than": ">", "shorter than": "<", "smaller than": "<",
        **dict.fromkeys(("or more", "or longer", "or greater", "or higher", "or above", "or over"), ">="),
        **dict.fromkeys(("or less", "or fewer", "or shorter", "or lower", "or below", "or under"), "<=")}
# 'papers with more than 1 contribution': a bound on how many each has
_CONTRIBUTIONS = re.compile(r"\s+(?:contributions?|entries|entry)\b", re.I)


def stated(values: Sequence[Value], props: Sequence[tuple[str, list[Word]]], bounds: Sequence[re.Match[str]],
           numbers: Sequence[re.Match[str]], units: dict[int, str], facts: Comparisons,
           carried: Sequence[str] = ()) -> list[Condition] | None:
    """The question's restrictions: each value on the property the question names it with (the one it is a value of,
    when only one); a year bounded as worded; a number bounding the nearest property named before it. None when a
    value's property cannot be told."""
    named = [p for p, _ in props]
    out = []
    for v in values:
        on = [p for p in named if p in v.properties] or sorted(v.properties)
        if len(on) != 1:
            return None
        out.append(Condition(v.span, on[0], "=", v.label, v.iri))
    for m in bounds:
        word, tail = (m.group("word") or "").lower(), (m.group("tail") or "").lower()
        op = OPS.get(" ".join(word.split()), "=")
        if tail:
            op = ">=" if any(t in tail for t in ("later", "after", "newer", "onward", "up")) else "<="
        out.append(Condition(m.span(), "year", op, m.group("year")))
    for m in numbers:
        between = m.re is BETWEEN
        if not between and _CONTRIBUTIONS.match(m.string, m.end()):  # 'papers with more than 1 contribution'
            out.append(Condition(m.span(), "contribution", OPS[" ".join(m.group("word").lower().split())],
                                 m.group("n")))
            continue
        after = [p for p, ws in props if 0 <= ws[0][0] - m.end() <= 2]  # 'fewer than 40 participants'
        before = [p for p, ws in props if ws[0][0] < m.start()]
        typed = units.get(m.start(), "")
        # no property named: the one property of the comparison measured in the unit's quantity ('tracked patients
        # for longer than 5 years': 'Follow up (months)')
        measured = measured_in(typed, {p: facts.property_labels.get(p, "") for p in carried}) if typed else []
        if not (after or before or len(measured) == 1):
            return None
        bounded = (after or before[-1:] or measured)[0]
        label = facts.property_labels.get(bounded, "")
        if between:
            ends = [(">=", in_unit(m.group("low"), typed, label)), ("<=", in_unit(m.group("high"), typed, label))]
        else:
            said = " ".join((m.group("word") or m.group("tail")).lower().split())
            ends = [(OPS[said], AVERAGE if m.group("avg") else in_unit(m.group("n") or m.group("after"), typed, label))]
        if any(number is None for _, number in ends):
            return None  # '2 kg' against 'Length (m)': no number of its unit
        out += [Condition(m.span(), bounded, op, number) for op, number in ends if number is not None]
    return out


def number_end(m: re.Match[str]) -> int:
    """Where the number of a ``NUMBER`` or ``BETWEEN`` match ends (its unit follows)."""
    return m.end("high") if m.re is BETWEEN else m.end("n") if m.group("n") else m.end("avg") if m.group("avg") \
        else m.end("after")
