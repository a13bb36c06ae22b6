"""An intent pair's query filled with the question's names: its slots, the years and bounds the question states as
worded, its place or count in a ranking, and beating read as scoring lower on an error rate."""
from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.intent.conditions import comparisons
from pipeline.intent.named import YEAR_WORD, Name
from pipeline.intent.ranked import beats
from pipeline.intent.reading import YEAR, Intent
from pipeline.matching.forms import slot_values
from pipeline.records import Example, Kind
from pipeline.sparql.direction import lower_is_better
from pipeline.sparql.shape import replace_literals


def filled(pair: Example, chosen: Sequence[Name], intent: Intent, text: str = "") -> str:
    """The pair's query with the question's names in its slots, and its place or count in the ranking; a year the
    question ``text`` compares with ('after 2021') compared so, not matched."""
    values = {literal: name.label for (literal, _), name in zip(slot_values(pair), chosen)}
    sparql = replace_literals(pair.sparql, values)
    stated = comparisons(text)
    for year, op in stated.items():
        if any(YEAR in n.kinds and n.label == year for n in chosen):
            sparql = re.sub(rf'FILTER\s*\(\s*str\(\?(\w+)\)\s*=\s*"{year}"\s*\)',
                            rf"FILTER(xsd:integer(?\1) {op} {year})", sparql)
            # a range's end as worded: 'after 2020 but before 2023' leaves both years out
            sparql = re.sub(rf'(str\(\?\w+\)\s*)(?:>=|<=|>|<)(\s*"{year}")', rf"\1{op}\2", sparql)
    bounds = [(n, op) for n, op in stated.items() if not any(YEAR in c.kinds and c.label == n for c in chosen)]
    if len(bounds) == 1 and len(theirs := comparisons(pair.question)) == 1 and \
            bool(YEAR_WORD.fullmatch(bounds[0][0])) == bool(YEAR_WORD.fullmatch(next(iter(theirs)))):
        # 'above 60': the pair's bound, as said (a year stays a year's: 'after 2019' is no count above 2019)
        sparql = re.sub(rf"(\?\w+|\))\s*(?:>=|<=|>|<)\s*{re.escape(next(iter(theirs)))}\b",
                        rf"\1 {bounds[0][1]} {bounds[0][0]}", sparql)  # '?score > 60', 'xsd:integer(?year) > 2020'
    elif len(bounds) == 2 and len(theirs := comparisons(pair.question)) == 1 and \
            not any(YEAR_WORD.fullmatch(n) for n, _ in bounds) and not YEAR_WORD.fullmatch(next(iter(theirs))):
        # 'between 0.8 and 0.85': the pair's one bound on a score held at both ends
        ends = " && ".join(rf"\1 {op} {n}" for n, op in bounds)
        sparql = re.sub(rf"(\?\w+)\s*(?:>=|<=|>|<)\s*{re.escape(next(iter(theirs)))}\b", ends, sparql)
    if EXCLUSIVE.search(text) and not EXCLUSIVE.search(pair.question):  # 'strictly between 2014 and 2021'
        sparql = re.sub(r'([<>])=(\s*"(?:19|20)\d\d")', r"\1\2", sparql)
    if "kth" in intent.operators:
        sparql = re.sub(r"\bOFFSET\s+\d+", f"OFFSET {intent.rank - 1}", sparql)
    if "top" in intent.operators:
        sparql = re.sub(r"\bLIMIT\s+\d+", f"LIMIT {intent.rank}", sparql)
    if beats(pair.question) and any(Kind.METRIC in n.kinds and lower_is_better(n.label) for n in chosen):
        sparql = _BEATEN.sub(r"\1<\2", sparql)  # beating on an error rate is scoring lower
    return sparql


_BEATEN = re.compile(r"(\?score\s*)>(\s*\?rival_score)")
EXCLUSIVE = re.compile(r"\b(?:strictly|exclusive|exclusively)\b", re.I)  # a range's ends left out
