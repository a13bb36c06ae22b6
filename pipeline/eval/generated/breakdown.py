"""Verdicts of a generated set's run by how its names look and how they were typed: whether a name with
parentheses, punctuation or non-ASCII letters fares as a plain one, typed as the graph has it or loosely."""
from __future__ import annotations

import string
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pipeline.eval.generated.build import NAMED, STYLES
from pipeline.eval.grade import Grade

_PUNCTUATION = set(string.punctuation) - {"-", ".", "(", ")"}  # hyphens and versions are what plain names have
SPELLINGS = {"as_is": "as the graph has them", "lower": "lowercased", "tight": "no blank before a parenthesis",
             "spaced": "doubled blanks"}


def looks(name: str) -> str:
    """The most unusual thing about a name: parentheses, non-ASCII letters, other punctuation, or plain."""
    if "(" in name:
        return "parentheses"
    if not name.isascii():
        return "non-ASCII"
    return "punctuation" if _PUNCTUATION & set(name) else "plain"


def spelling(question: Mapping[str, Any]) -> str:
    """How the question's names were typed: the first loose spelling among them, else as the graph has them."""
    for slot, name in question["names"].items():
        typed = question["typed"][slot]
        if slot in NAMED and typed != name:
            return next(s.__name__ for s in STYLES if s(name) == typed)
    return "as_is"


Table = dict[str, dict[str, Counter[str]]]


def breakdown(questions: Sequence[Mapping[str, Any]], verdicts: Mapping[str, str]) -> Table:
    """{"names": {look: verdict counts}, "typed": {spelling: verdict counts}} over the questions with a verdict; a
    question counts under the most unusual look of its names (parentheses first)."""
    order = ("parentheses", "non-ASCII", "punctuation", "plain")
    out: Table = {"names": {k: Counter() for k in order}, "typed": {k: Counter() for k in SPELLINGS}}
    for q in questions:
        if q["id"] not in verdicts:
            continue
        seen = {looks(n) for slot, n in q["names"].items() if slot in NAMED}
        out["names"][next((k for k in order if k in seen), "plain")][verdicts[q["id"]]] += 1
        out["typed"][spelling(q)][verdicts[q["id"]]] += 1
    return out


def breakdown_lines(table: Table) -> list[str]:
    """The breakdown as two markdown tables."""
    lines = []
    for part, title in (("names", "names that hold"), ("typed", "names typed")):
        lines += [f"| {title} | n | " + " | ".join(v.value for v in Grade) + " |", "|---|---|---|---|---|---|"]
        for key, counts in table[part].items():
            label = SPELLINGS.get(key, key)
            lines.append(f"| {label} | {sum(counts.values())} | " + " | ".join(str(counts[v.value]) for v in Grade)
                         + " |")
        lines.append("")
    return lines
