"""A list's query asked as yes or no: 'is there any paper on X before 2016?' is whether the list of those papers has
one; or counted: 'how many papers on X before 2016?' is how many things that list holds. Only a plain list is asked
so: a ranking, a count or a cut (ORDER BY, LIMIT, GROUP BY, an aggregate, a sub-select) answers something else than
whether any exist or how many."""
from __future__ import annotations

import re

_NOT_A_LIST = re.compile(r"\b(?:ORDER\s+BY|LIMIT|OFFSET|GROUP\s+BY|HAVING|COUNT|SUM|AVG|MIN|MAX|SAMPLE|"
                         r"GROUP_CONCAT)\b", re.I)
_HEAD = re.compile(r"\bSELECT\s+(?:DISTINCT\s+|REDUCED\s+)?(?P<vars>(?:\?\w+\s*)+)WHERE\s*\{", re.I)


def _listed(sparql: str) -> re.Match[str] | None:
    """The head of ``sparql`` when it is a plain list (one SELECT of variables, nothing ranked, cut or aggregated)."""
    if _NOT_A_LIST.search(sparql) or len(re.findall(r"\bSELECT\b", sparql, re.I)) != 1:
        return None
    return _HEAD.search(sparql)


def whether(sparql: str) -> str | None:
    """``sparql``, a plain list (one SELECT of variables), as an ASK of the same pattern; None for anything else."""
    head = _listed(sparql)
    return None if head is None else sparql[:head.start()] + "ASK WHERE {" + sparql[head.end():]


def counted(sparql: str) -> str | None:
    """``sparql``, a plain list of one kind of thing (its variable, and that variable's label beside it), as the
    count of the distinct things; None for anything else (a list of two things, or of a thing and its score, counts
    nothing one number says)."""
    head = _listed(sparql)
    if head is None:
        return _held_groups(sparql)
    names = head.group("vars").split()
    if not (len(names) == 1 or (len(names) == 2 and names[1] == names[0] + "_lbl")):
        return None
    return sparql[:head.start()] + f"SELECT (COUNT(DISTINCT {names[0]}) AS ?count) WHERE {{" + sparql[head.end():]


_CUT = re.compile(r"\b(?:ORDER\s+BY|LIMIT|OFFSET)\b", re.I)
_HAVING = re.compile(r"\bGROUP\s+BY\b[^{}]*\bHAVING\b", re.I)


def _held_groups(sparql: str) -> str | None:
    """A list of things each held to a bound on its own count ('papers with more than 1 contribution': grouped, with a
    HAVING), nothing ranked or cut, counted as the number of its rows; None for anything else."""
    selects = [m.start() for m in re.finditer(r"\bSELECT\b", sparql, re.I)]
    if len(selects) != 1 or _CUT.search(sparql) or not _HAVING.search(sparql):
        return None
    return sparql[:selects[0]] + "SELECT (COUNT(*) AS ?count) WHERE {\n" + sparql[selects[0]:] + "\n}"
