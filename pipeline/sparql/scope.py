"""Which variables a query's WHERE clause can bind (SPARQL 1.1's variable scope, section 18.2.1), read from its
tokens, and the projected variables nothing binds: a query that selects ``?model`` but never mentions it in a
pattern answers with nothing bound, whatever the graph holds.

A variable is in scope when a triple pattern (or a blank-node list or collection in one) holds it, or ``BIND(… AS
?v)``, ``VALUES``, ``GRAPH ?g`` or a sub-SELECT's projection binds it, through ``OPTIONAL`` and ``UNION``; not when it
appears only in a ``FILTER`` (``EXISTS`` patterns included), a ``MINUS`` or inside a sub-SELECT that does not
project it. ``(… AS ?v)`` in the projection or in ``GROUP BY`` binds ``?v``; ``SELECT *``, ``ASK`` and the other
forms project nothing to check. Lenient like ``pipeline.sparql.shape``: what it cannot read binds everything, so it
never flags a query it does not understand."""
from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.sparql.text import Token, tokenize

_FORMS = frozenset({"SELECT", "ASK", "CONSTRUCT", "DESCRIBE"})
_PROJECTION_END = frozenset({"WHERE", "FROM"})
_MODIFIERS = frozenset({"GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET"})


class _Unreadable(Exception):
    """The tokens do not read as a query this module understands: nothing is flagged."""


@dataclass
class _Select:
    """A SELECT's projection read: its plain variables, the variables its expressions name, and ``*``."""

    plain: list[str] = field(default_factory=list)
    aliases: set[str] = field(default_factory=set)
    star: bool = False


def unbound_projection(query: str) -> list[str]:
    """The outer SELECT's plain projected variables that nothing in the query can bind, in projection order."""
    toks = tokenize(query)
    i = _after_prologue(toks)
    if i >= len(toks) or toks[i].text.upper() != "SELECT":
        return []
    try:
        unbound, _, end = _select(toks, i)
        if end < len(toks) and toks[end].text.upper() == "VALUES":  # a trailing VALUES binds the outer query's
            unbound = [v for v in unbound if _key(v) not in _values(toks, end)[0]]
    except (_Unreadable, IndexError):
        return []
    return unbound


def selected_but_unbound(query: str) -> str:
    """The defect in words ("?model is selected but never bound in WHERE"), "" when there is none."""
    unbound = unbound_projection(query)
    if not unbound:
        return ""
    names = " and ".join([", ".join(unbound[:-1]), unbound[-1]] if len(unbound) > 1 else unbound)
    return f"{names} {'is' if len(unbound) == 1 else 'are'} selected but never bound in WHERE"


def _key(var: str) -> str:
    """``$x`` and ``?x`` are one variable."""
    return "?" + var[1:]


def _after_prologue(toks: list[Token]) -> int:
    i = 0
    while i < len(toks) and toks[i].kind == "word" and toks[i].text.upper() in ("PREFIX", "BASE"):
        i += 3 if toks[i].text.upper() == "PREFIX" else 2
    return i


def _select(toks: list[Token], i: int) -> tuple[list[str], set[str], int]:
    """The SELECT at ``i``: (its plain projected variables nothing binds, the variables it makes visible outside,
    the index after it and its solution modifiers)."""
    projection, i = _projection(toks, i + 1)
    while i < len(toks) and toks[i].text.upper() == "FROM":  # FROM [NAMED] <iri>
        i += 3 if i + 1 < len(toks) and toks[i + 1].text.upper() == "NAMED" else 2
    if i < len(toks) and toks[i].text.upper() == "WHERE":
        i += 1
    if i >= len(toks) or toks[i].text != "{":
        raise _Unreadable
    bound, i = _group(toks, i)
    i, grouped = _modifiers(toks, i)
    bound |= projection.aliases | grouped
    unbound = [v for v in dict.fromkeys(projection.plain) if _key(v) not in bound]
    visible = bound if projection.star else {_key(v) for v in projection.plain if _key(v) in bound} | \
        projection.aliases
    return unbound, visible, i


def _projection(toks: list[Token], i: int) -> tuple[_Select, int]:
    out = _Select()
    while i < len(toks) and toks[i].text != "{" and toks[i].text.upper() not in _PROJECTION_END:
        t = toks[i]
        if t.kind == "var":
            out.plain.append(t.text)
        elif t.text == "*":
            out.star = True
        elif t.text == "(":  # (expression AS ?v)
            i = _closing(toks, i, "(", ")")
            out.aliases |= _alias(toks, i)
        elif t.kind == "word" and t.text.upper() == "AS" and i + 1 < len(toks):  # Virtuoso: COUNT(?x) AS ?n
            out.aliases.add(_key(toks[i + 1].text))
            i += 1
        elif t.kind in ("word", "pname", "iri") and t.text.upper() not in ("DISTINCT", "REDUCED") and \
                i + 1 < len(toks) and toks[i + 1].text == "(":
            i = _closing(toks, i + 1, "(", ")")  # Virtuoso: an expression without parentheses binds nothing
        i += 1
    return out, i


def _alias(toks: list[Token], close: int) -> set[str]:
    """``?v`` of a parenthesised ``(… AS ?v)`` ending at ``close``."""
    if close >= 2 and toks[close - 2].text.upper() == "AS" and toks[close - 1].kind == "var":
        return {_key(toks[close - 1].text)}
    return set()


def _group(toks: list[Token], i: int) -> tuple[set[str], int]:
    """The variables a group graph pattern ``{ … }`` at ``i`` binds, and the index after its ``}``."""
    i += 1
    if i < len(toks) and toks[i].text.upper() == "SELECT":  # { SELECT … }: only its projection is seen outside
        _, visible, i = _select(toks, i)
        if i < len(toks) and toks[i].text.upper() == "VALUES":
            names, i = _values(toks, i)
            visible |= names
        if i >= len(toks) or toks[i].text != "}":
            raise _Unreadable
        return visible, i + 1
    bound: set[str] = set()
    while i < len(toks) and toks[i].text != "}":
        t = toks[i]
        up = t.text.upper() if t.kind == "word" else ""
        if t.text == "{":
            inner, i = _group(toks, i)
            bound |= inner
            continue
        if up == "MINUS":
            _, i = _group(toks, i + 1)
            continue
        if up == "FILTER":
            i = _constraint(toks, i + 1)
            continue
        if up == "BIND":
            i = _closing(toks, i + 1, "(", ")")
            bound |= _alias(toks, i)
        elif up == "VALUES":
            names, i = _values(toks, i)
            bound |= names
            continue
        elif t.kind == "var":
            bound.add(_key(t.text))
        i += 1
    if i >= len(toks):
        raise _Unreadable
    return bound, i + 1


def _constraint(toks: list[Token], i: int) -> int:
    """The index after a FILTER's constraint at ``i``: a bracketed expression, a function or built-in call, or
    ``[NOT] EXISTS { … }``; nothing in it binds."""
    if i < len(toks) and toks[i].text.upper() == "NOT":
        i += 1
    if i < len(toks) and toks[i].text.upper() == "EXISTS":
        return _closing(toks, i + 1, "{", "}") + 1
    if i < len(toks) and toks[i].text != "(":
        i += 1  # REGEX, CONTAINS, xsd:int, <iri>, bif:contains …
    if i >= len(toks) or toks[i].text != "(":
        raise _Unreadable
    return _closing(toks, i, "(", ")") + 1


def _values(toks: list[Token], i: int) -> tuple[set[str], int]:
    """The variables of a ``VALUES ?v { … }`` or ``VALUES (?a ?b) { … }`` block at ``i``, and the index after it."""
    i += 1
    names: set[str] = set()
    if i < len(toks) and toks[i].kind == "var":
        names.add(_key(toks[i].text))
        i += 1
    elif i < len(toks) and toks[i].text == "(":
        end = _closing(toks, i, "(", ")")
        names |= {_key(t.text) for t in toks[i + 1:end] if t.kind == "var"}
        i = end + 1
    if i >= len(toks) or toks[i].text != "{":
        raise _Unreadable
    return names, _closing(toks, i, "{", "}") + 1


def _modifiers(toks: list[Token], i: int) -> tuple[int, set[str]]:
    """The index after GROUP BY, HAVING, ORDER BY, LIMIT and OFFSET at ``i``, and the ``(… AS ?v)`` names of its
    GROUP BY."""
    grouped: set[str] = set()
    clause = ""
    while i < len(toks):
        t = toks[i]
        up = t.text.upper() if t.kind == "word" else ""
        if up in _MODIFIERS:
            clause = up
        elif t.text in ("}", "{") or up in ("VALUES", "SELECT") or up in _FORMS:
            break
        elif t.text == "(":
            end = _closing(toks, i, "(", ")")
            if clause == "GROUP":
                grouped |= _alias(toks, end)
            i = end
        i += 1
    return i, grouped


def _closing(toks: list[Token], i: int, opening: str, closing: str) -> int:
    """The index of the ``closing`` token matching the ``opening`` one at ``i``."""
    if i >= len(toks) or toks[i].text != opening:
        raise _Unreadable
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].text == opening:
            depth += 1
        elif toks[j].text == closing:
            depth -= 1
            if depth == 0:
                return j
    raise _Unreadable
