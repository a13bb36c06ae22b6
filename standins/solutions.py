"""What a query means on a store, for comparing two texts of one query: its solutions as a multiset (or ASK's
boolean), the ORKG prefixes predeclared. Shared by the SPARQL tests and scripts/sparql_conformance.py."""
from __future__ import annotations

from collections import Counter

import pyoxigraph as ox

from pipeline.sparql.text import PREFIXES


def solutions(store: ox.Store, query: str) -> bool | Counter[tuple[str, ...]]:
    result = store.query(query, prefixes=PREFIXES)
    if isinstance(result, ox.QueryBoolean):
        return bool(result)
    if not isinstance(result, ox.QuerySolutions):
        raise TypeError("only SELECT and ASK queries have solutions")
    names = [v.value for v in result.variables]
    return Counter(tuple(str(s[n]) for n in names) for s in result)
