"""The SPARQL 1.1 query grammar's verdict on a query (Oxigraph's parser): where it breaks, by line and column."""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache

_ENGINE = threading.local()
_AT = re.compile(r"^error at (\d+):(\d+): ")


@dataclass(frozen=True)
class SyntaxProblem:
    """Why a query breaks the grammar and where (1-based line and column; 0 when the parser gives no place)."""

    reason: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        place = f" (line {self.line}, column {self.column})" if self.line else ""
        return f"the query does not parse{place}: {self.reason}"


def syntax_problem(query: str, prefixes: dict[str, str] | None = None) -> SyntaxProblem | None:
    """None when the query parses by the SPARQL 1.1 query grammar (with ``prefixes`` predeclared); else why not.

    Only the grammar and its static rules (scoping, grouping, VALUES arity) decide: a function the local engine
    lacks (``xsd:int(...)``) is no syntax problem. Nothing is evaluated: the query is planned on an empty store."""
    return _problem(query, tuple(sorted((prefixes or {}).items())))


@lru_cache(maxsize=8192)
def _problem(query: str, prefixes: tuple[tuple[str, str], ...]) -> SyntaxProblem | None:
    import pyoxigraph

    store = getattr(_ENGINE, "store", None)
    if store is None:
        store = _ENGINE.store = pyoxigraph.Store()
    try:
        store.query(query, prefixes=dict(prefixes))
    except SyntaxError as exc:
        return _problem_of(str(exc))
    except Exception:  # an engine limit (an unsupported function), not the grammar's
        return None
    return None


def _problem_of(message: str) -> SyntaxProblem:
    first = " ".join(message.split())
    at = _AT.match(first)
    reason = first[at.end():] if at else first
    if len(reason) > 200:
        reason = reason[:200].rsplit(",", 1)[0] + ", ..."
    return SyntaxProblem(reason, int(at.group(1)), int(at.group(2))) if at else SyntaxProblem(reason)
