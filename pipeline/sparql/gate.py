"""The read-only gate every query passes before it reaches a knowledge graph.

In order: nothing that cannot be sent; no update, ``SERVICE`` or engine procedure (by the lexer, so it holds for a
malformed query too); the SPARQL 1.1 query grammar (the parser's reason, line and column), with Virtuoso's dialect
made standard where that is all that is wrong (``pipeline.sparql.dialect``); only SELECT and ASK. What runs is the
query itself, blanks squashed, the ORKG prefixes it uses declared and, for a SELECT without a LIMIT of its own, the
row cap added where the grammar puts it (before a trailing VALUES block; a subquery's modifiers are its own)."""
from __future__ import annotations

from functools import lru_cache

from pipeline.records import Validation
from pipeline.sparql.dialect import normalise
from pipeline.sparql.grammar import SyntaxProblem, syntax_problem
from pipeline.sparql.lexer import matches
from pipeline.sparql.parsed import parse
from pipeline.sparql.text import (
    PREFIXES,
    UPDATE_WORDS,
    add_prefixes,
    declared_prefixes,
    engine_procedures,
    forbidden_words,
    squash,
)

# Virtuoso's own full-text match: a read-only triple pattern ORKG accepts, the one engine name a read may use there.
VIRTUOSO_READS = frozenset({"bif:contains"})


def gate(query: str, row_cap: int | None = None, *, virtuoso: bool = False) -> Validation:
    """Whether ``query`` may run, and the text to send (``fixed``); ``warnings`` name any dialect undone.

    ``virtuoso``: the graph is ORKG's engine (or its recorded answers), which accepts its dialect as written and
    ``bif:contains``; elsewhere a dialect query is sent as the SPARQL 1.1 it means."""
    return _checked(query, row_cap, virtuoso)


@lru_cache(maxsize=4096)
def _checked(original: str, row_cap: int | None, virtuoso: bool) -> Validation:
    """The gate's verdict on one query (cached by its text: the same query is often asked again)."""
    if not original.strip():
        return Validation(original, "", ("the query is empty",))
    unsendable = _unsendable(original)
    if unsendable:
        return Validation(original, "", (unsendable,))
    errors = _unsafe(original, virtuoso)
    if errors:
        return Validation(original, add_prefixes(squash(original)), tuple(errors))
    query = original
    warnings: tuple[str, ...] = ()
    problem, prefixes = _grammar(original, virtuoso)
    if problem is not None:
        dialect = normalise(original, prefixes)
        if not dialect.applied:
            return Validation(original, add_prefixes(squash(original)), (f"refused: {problem}",))
        warnings = (f"written in Virtuoso's dialect ({', '.join(dialect.applied)})"
                    + ("" if virtuoso else "; run as the SPARQL 1.1 it means"),)
        query = original if virtuoso else dialect.query
    form = _form(query)
    if form not in ("SELECT", "ASK"):
        return Validation(original, add_prefixes(squash(query)),
                          (f"refused: only SELECT and ASK queries may run, not {form}",), warnings)
    fixed = add_prefixes(squash(query))
    if row_cap and form == "SELECT":
        fixed = with_row_cap(fixed, row_cap)
    return Validation(original, fixed, (), warnings)


def _unsendable(query: str) -> str:
    """Why the text cannot go over the wire as UTF-8 (an unpaired surrogate), with its place; '' if it can."""
    for n, ch in enumerate(query):
        if "\ud800" <= ch <= "\udfff":
            line, column = _place(query, n)
            return (f"refused: the query holds an unpaired surrogate (U+{ord(ch):04X}, line {line}, column {column}), "
                    "which cannot be sent")
    return ""


def _place(query: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of ``offset``."""
    return query.count("\n", 0, offset) + 1, offset - query.rfind("\n", 0, offset)


def _unsafe(query: str, virtuoso: bool) -> list[str]:
    errors = []
    bad = forbidden_words(query)
    updates = [w for w in bad if w in UPDATE_WORDS]
    if updates:
        errors.append("refused: only read-only queries may run, and this one uses " + ", ".join(updates))
    if "SERVICE" in bad:
        errors.append("refused: SERVICE (a call to another endpoint) is not allowed; only this graph is asked")
    procedures = [p for p in engine_procedures(query) if not (virtuoso and p.lower() in VIRTUOSO_READS)]
    if procedures and not virtuoso and all(p.lower() in VIRTUOSO_READS for p in procedures):
        errors.append("refused: bif:contains is Virtuoso's full-text search, which this graph does not have "
                      "(use FILTER(CONTAINS(LCASE(STR(?label)), \"word\")))")
    elif procedures:
        errors.append("refused: calls to the engine's own procedures are not allowed ("
                      + ", ".join(procedures[:3]) + ")")
    return errors


def _grammar(query: str, virtuoso: bool) -> tuple[SyntaxProblem | None, dict[str, str]]:
    """The grammar's verdict and the prefixes it assumed: the ORKG ones; on Virtuoso, which predeclares many more
    (and ``bif:``), any other prefix a query uses too, left for the endpoint to know."""
    declared = {**PREFIXES, **declared_prefixes(query)}
    unknown = _undeclared(query, declared)
    if unknown and not virtuoso:
        return unknown, PREFIXES
    extra = {p: f"urn:virtuoso:{p}:" for p in _used_prefixes(query) - declared.keys()} if virtuoso else {}
    prefixes = {**PREFIXES, **extra}
    return syntax_problem(query, prefixes), prefixes


def _used_prefixes(query: str) -> set[str]:
    return {name.split(":", 1)[0] for name in parse(query).pnames}


def _undeclared(query: str, declared: dict[str, str]) -> SyntaxProblem | None:
    """The first prefixed name whose prefix nobody declared (Oxigraph's own message for it names no prefix)."""
    missing = _used_prefixes(query) - declared.keys()
    if not missing:
        return None
    for m in matches(query):
        if m.lastgroup == "pname" and m.group().split(":", 1)[0] in missing:
            line, column = _place(query, m.start())
            return SyntaxProblem(f"the prefix {m.group().split(':', 1)[0]}: is not declared", line, column)
    return None


def _form(query: str) -> str:
    """SELECT, ASK, CONSTRUCT or DESCRIBE: the first keyword after the prologue of a query that parses."""
    for tok in parse(query).tokens:
        if tok.kind == "word" and tok.text.upper() not in ("PREFIX", "BASE"):
            return tok.text.upper()
    return ""


def with_row_cap(query: str, row_cap: int) -> str:
    """``LIMIT row_cap`` where the grammar puts it in a SELECT without a top-level LIMIT of its own: after the
    solution modifiers, before a trailing VALUES block. A subquery's LIMIT is its own and is never touched."""
    depth, values_at = 0, -1
    for m in matches(query):
        kind, text = m.lastgroup, m.group()
        if kind == "punct" and text == "{":
            depth += 1
        elif kind == "punct" and text == "}":
            depth -= 1
        elif depth == 0 and kind == "word" and text.upper() == "LIMIT":
            return query
        elif depth == 0 and kind == "word" and text.upper() == "VALUES":
            values_at = m.start()
    if values_at < 0:
        return f"{query} LIMIT {row_cap}"
    return f"{query[:values_at]}LIMIT {row_cap} {query[values_at:]}"
