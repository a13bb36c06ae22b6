"""A subject's triple patterns read from a query's tokens (a part of a group: ``pipeline.sparql.groups``): which
terms they join (classes of ``a``/``rdf:type`` and predicates are relations, not terms) and which variables they hold.
Lenient: a '.' left out starts the next statement, an unclosed bracket reads to the end."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.sparql.brackets import closing
from pipeline.sparql.lexer import Token

GROUP_WORDS = frozenset({"OPTIONAL", "UNION", "MINUS", "GRAPH", "WHERE", "NOT", "EXISTS", "LATERAL"})
MODIFIERS = frozenset({"GROUP", "ORDER", "LIMIT", "OFFSET"})
TERM = frozenset({"var", "pname", "iri", "string", "number", "bnode"})
_TYPE = frozenset({"a", "rdf:type", "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"})
_END = GROUP_WORDS | MODIFIERS | {"FILTER", "BIND", "VALUES"}


@dataclass(frozen=True)
class Triples:
    """A subject's triple patterns up to '.': the terms they join and every variable in them (token indices)."""

    terms: tuple[int, ...]
    variables: tuple[int, ...]


def triples(toks: Sequence[Token], i: int, end: int) -> tuple[Triples, int]:
    """The statement at ``i`` (a subject and its predicate-object lists, blank-node brackets included, up to '.')
    and the index where it stops."""
    terms: list[int] = []
    start, role, typed = i, "s", False
    brackets: list[bool] = []  # per open '[': whether it stands as a subject
    while i < end:
        t = toks[i]
        if (t.text == "." and not brackets) or t.text in ("{", "}") or (t.kind == "word" and t.text.upper() in _END):
            break
        if role == "after" and not brackets and (t.kind in TERM or t.text == "["):
            break  # a '.' left out: the next statement starts here
        if t.text == "[":
            brackets.append(role == "s")
            role = "p"
        elif t.text == "]" and brackets:
            role = "p" if brackets.pop() else "after"
        elif t.text == ";":
            role = "p"
        elif t.text == ",":
            role = "o"
        elif role == "p":
            i, typed, var = _verb(toks, i, end)
            terms += [var] if var is not None else []
            role = "o"
            continue
        elif t.text == "(":  # a collection
            j = _close(toks, i)
            terms += [k for k in range(i + 1, j) if toks[k].kind in ("var", "bnode")]
            i, role = j, "p" if role == "s" else "after"
        elif t.kind in TERM or t.text in ("true", "false"):
            if not (role == "o" and typed and t.kind in ("pname", "iri")):
                terms.append(i)
            if t.kind == "string" and i + 1 < end and toks[i + 1].text == "^^":
                i += 2
            role = "p" if role == "s" else "after"
        i += 1
    held = tuple(k for k in range(start, min(i, end)) if toks[k].kind == "var")
    return Triples(tuple(terms), held), i


def _verb(toks: Sequence[Token], i: int, end: int) -> tuple[int, bool, int | None]:
    """A predicate or property path at ``i``: the index after it, whether it is rdf:type alone, and its variable
    (a variable predicate joins like any term)."""
    steps: list[str] = []
    var = None
    while i < end:
        while i < end and toks[i].text in ("^", "!"):
            i += 1
        if i >= end:
            break
        t = toks[i]
        var = i if t.kind == "var" else var
        i = _close(toks, i) + 1 if t.text == "(" else i + 1
        steps.append(t.text)
        while i < end and toks[i].text in ("*", "+", "?"):
            i += 1
        if not (i < end and toks[i].text in ("/", "|")):
            break
        i += 1
    return i, len(steps) == 1 and steps[0] in _TYPE, var


def _close(toks: Sequence[Token], i: int) -> int:
    j = closing(toks, i)
    return len(toks) - 1 if j is None else j
