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
        return _problem_of(str(exc), query)
    except Exception:  # an engine limit (an unsupported function), not the grammar's
        return None
    return None


def _problem_of(message: str, query: str) -> SyntaxProblem:
    first = " ".join(message.split())
    at = _AT.match(first)
    line, column = (int(at.group(1)), int(at.group(2))) if at else (0, 0)
    return SyntaxProblem(_reason(first[at.end():] if at else first, query, line, column), line, column)


_ESCAPES = "'t' | 'b' | 'n'"
# Oxigraph also parses SPARQL 1.2 drafts and extensions of its own: never suggest what SPARQL 1.1 has not.
_BEYOND_SPARQL_1_1 = frozenset({"LATERAL", "{|", "|}", "~", "<<", ">>", "LANGDIR", "hasLang", "hasLangDir",
                                "STRLANGDIR", "SUBJECT", "PREDICATE", "OBJECT", "isTRIPLE", "TRIPLE", "VERSION",
                                "SERVICE"})  # (and SERVICE, which the gate refuses)
_TOKEN_ALTERNATIVE = re.compile(r'^(?:"[^"]*"|[A-Za-z_]+)$')


def _reason(expected: str, query: str, line: int, column: int) -> str:
    """Oxigraph's "expected one of ..." in words: its rule when it names one, else what may come at that place."""
    alternatives = expected.removeprefix("expected one of ").removeprefix("expected ").split(", ")
    rules = [a.rstrip(".") for a in alternatives if " " in a and a[:1] not in "[\"'" and "=" not in a]
    if rules:
        return "; ".join(r[:1].lower() + r[1:] if r[1:2].islower() else r for r in rules)
    if _ESCAPES in expected:
        return "a string holds an escape SPARQL does not have (only \\t \\b \\n \\r \\f \\\" \\' \\\\ and \\u, \\U)"
    near = _near(query, line, column)
    if alternatives == ["[_]"]:  # a static rule without a message of its own: in SPARQL 1.1 that is BIND's scope
        return "a variable is assigned (BIND or AS) where it is already in scope" + near
    tokens = [a for a in alternatives if _TOKEN_ALTERNATIVE.match(a) and a.strip('"') not in _BEYOND_SPARQL_1_1]
    unexpected = f"unexpected {near.strip(' ()') or 'end of query'}"
    return f"{unexpected}; expected {', '.join(tokens[:8])}{', ...' if len(tokens) > 8 else ''}" if tokens \
        else unexpected


def _near(query: str, line: int, column: int) -> str:
    """`` (at "text")``: what stands at the place (1-based), up to the end of its line; '' past the end."""
    lines = query.split("\n")
    if not 1 <= line <= len(lines):
        return ""
    rest = lines[line - 1][column - 1:].strip()
    return f' (at "{rest[:30]}")' if rest else ""
