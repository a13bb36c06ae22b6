"""Rankings that keep ties: the best (or lowest) score and every row that has it, written as the intent pairs write
it — ``FILTER(?score = ?tied)`` beside a sub-select ``{ SELECT (MAX(?tied_score) AS ?tied) WHERE { … } }``, or for a
count ``GROUP BY ?x ?tied HAVING(COUNT(?y) = ?tied)`` — in place of ``ORDER BY DESC(?score) LIMIT 1``, which keeps one
of two models tied at the top. What reads a query's shape (its sentence, the leaderboard beside it) reads such a
ranking as the best-of ranking it is (``untied``)."""
from __future__ import annotations

import re

from pipeline.sparql.brackets import closing
from pipeline.sparql.parsed import parse

TIED = "tied"  # the sub-select's answer variable, by which the form is known
# '{ SELECT ?dataset (MIN(?each_score) AS ?best) … GROUP BY ?dataset } FILTER(?score = ?best)': on each dataset, the
# things holding its lowest score
_BEST_OF_EACH = re.compile(r"\{\s*SELECT\s+(\?\w+)\s+\(\s*(MIN|MAX)\s*\([^)]*\)\s+AS\s+(\?\w+)\s*\).*?"
                           r"GROUP\s+BY\s+\1\s*\}.*?FILTER\s*\(\s*\?\w+\s*=\s*\3\s*\)", re.I | re.S)


def best_of_each(sparql: str) -> tuple[str, str] | None:
    """(the variable grouped by, MIN or MAX) of a query keeping each group's lowest or highest; None otherwise."""
    found = _BEST_OF_EACH.search(sparql)
    return (found.group(1), found.group(2).upper()) if found else None


def tied(sparql: str) -> str:
    """'MAX' or 'MIN' for a ranking that keeps ties; "" for any other query."""
    query = parse(sparql)
    if TIED not in query.variables:
        return ""
    toks = query.tokens
    for i, tok in enumerate(toks[:-3]):
        if tok.text.upper() in ("MAX", "MIN") and toks[i + 1].text == "(" and \
                any(t.text == f"?{TIED}" for t in toks[i + 2:i + 8]):
            return tok.text.upper()
    return ""


def untied(sparql: str) -> str:
    """A ranking that keeps ties read as the best-of ranking it is: its sub-select and its filter on ``?tied`` left
    out and ``LIMIT 1`` after its ordering; any other query as it is."""
    if not tied(sparql):
        return sparql
    toks = parse(sparql).tokens
    cut: list[tuple[int, int]] = []
    i = 0
    while i < len(toks) - 1:  # the sub-select and the filter naming ``?tied``, each cut whole, nothing inside twice
        opens = (toks[i].text == "{" and toks[i + 1].text.upper() == "SELECT") or \
            (toks[i].text.upper() in ("FILTER", "HAVING") and toks[i + 1].text == "(")
        end = closing(toks, i if toks[i].text == "{" else i + 1) if opens else None
        if end is not None and any(t.text == f"?{TIED}" for t in toks[i:end + 1]):
            cut.append((toks[i].start, toks[end].end))
            i = end
        elif toks[i].text == f"?{TIED}":  # grouped by, to be compared in HAVING: 'GROUP BY ?field ?tied'
            cut.append((toks[i].start, toks[i].end))
        i += 1
    out = sparql
    for start, end in reversed(cut):
        out = out[:start] + out[end:]
    return out.rstrip() + " LIMIT 1"
