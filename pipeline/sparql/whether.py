"""A list's query asked as yes or no: 'is there any paper on X before 2016?' is whether the list of those papers has
one. Only a plain list is asked so: a ranking, a count or a cut (ORDER BY, LIMIT, GROUP BY, an aggregate, a
sub-select) answers something else than whether any exist."""
from __future__ import annotations

import re

_NOT_A_LIST = re.compile(r"\b(?:ORDER\s+BY|LIMIT|OFFSET|GROUP\s+BY|HAVING|COUNT|SUM|AVG|MIN|MAX|SAMPLE|"
                         r"GROUP_CONCAT)\b", re.I)
_HEAD = re.compile(r"\bSELECT\s+(?:DISTINCT\s+|REDUCED\s+)?(?:\?\w+\s*)+WHERE\s*\{", re.I)


def whether(sparql: str) -> str | None:
    """``sparql``, a plain list (one SELECT of variables), as an ASK of the same pattern; None for anything else."""
    if _NOT_A_LIST.search(sparql) or len(re.findall(r"\bSELECT\b", sparql, re.I)) != 1:
        return None
    head = _HEAD.search(sparql)
    return None if head is None else sparql[:head.start()] + "ASK WHERE {" + sparql[head.end():]
