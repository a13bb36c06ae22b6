"""A query read once into its groups (SPARQL 1.1's group graph patterns, section 18.2), from its tokens: each
group's triple patterns, FILTERs, BINDs and VALUES blocks in order, its sub-groups and their kind (OPTIONAL,
UNION, MINUS, GRAPH, EXISTS, a sub-SELECT with its projection and solution modifiers).

The checks are written over it: ``pipeline.sparql.scope`` (projected variables nothing binds) and
``pipeline.sparql.joins`` (which parts of a query are joined). Lenient, it never raises: what does not read by the
grammar is read as far as it goes and counted in ``Groups.faults``, so that a check that must not guess stands back.
Terms are token indices into ``Groups.tokens``."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.sparql.brackets import closing
from pipeline.sparql.lexer import Token
from pipeline.sparql.triples import GROUP_WORDS, MODIFIERS, TERM, Triples, triples

_FORMS = frozenset({"SELECT", "ASK", "CONSTRUCT", "DESCRIBE"})
_KINDS = {"OPTIONAL": "optional", "UNION": "union", "MINUS": "minus", "EXISTS": "exists", "LATERAL": "lateral"}


@dataclass(frozen=True)
class Expression:
    """A FILTER, BIND, HAVING or projected expression: its variables and constants (function names and datatypes
    left out), the EXISTS patterns in it, and ``?v`` of a closing ``AS ?v``."""

    kind: str  # filter, bind, having; projected, call (without parentheses around), named (Virtuoso's AS ?v)
    terms: tuple[int, ...]
    groups: tuple[Group, ...] = ()
    alias: int | None = None


@dataclass(frozen=True)
class Values:
    """A VALUES block: the variables it binds and the terms of its head and data."""

    variables: tuple[int, ...]
    terms: tuple[int, ...]


@dataclass(frozen=True)
class Group:
    """A group graph pattern's parts in order; ``loose`` the variables outside any pattern (modifiers misplaced)."""

    kind: str  # group, optional, union, minus, graph, exists, lateral, ask (an ASK's body)
    parts: tuple[Part, ...]
    loose: tuple[int, ...] = ()


@dataclass(frozen=True)
class Select:
    """A SELECT: its projection in order (a variable's token index, or an expression: ``(… [AS ?v])``, a call, or
    Virtuoso's ``… AS ?v`` as kind ``named``), ``*``, its WHERE group, the ``(… AS ?v)`` names of its GROUP BY, the
    VALUES right after its modifiers, and every part after its WHERE group."""

    projection: tuple[int | Expression, ...]
    star: bool
    where: Group
    grouped: tuple[int, ...]
    values: Values | None
    tail: tuple[Part, ...]


Part = Triples | Expression | Values | Group | Select


@dataclass(frozen=True)
class Groups:
    """A query read into its groups: a SELECT or an ASK's body (neither when it is another form or none), whether
    that form comes right after the prologue, and how many places did not read by the grammar."""

    tokens: Sequence[Token]
    select: Select | None
    ask: Group | None
    first: bool
    faults: int


def grouped(toks: Sequence[Token]) -> Groups:
    """The first SELECT or ASK of a query's tokens read into its groups (``pipeline.sparql.parsed.Query.groups``
    reads a query so once)."""
    reader = _Reader(toks)
    start = next((k for k, t in enumerate(toks) if t.kind == "word" and t.text.upper() in ("SELECT", "ASK")), None)
    if start is None:
        return Groups(toks, None, None, False, 0)
    first = start == _after_prologue(toks)
    if toks[start].text.upper() == "SELECT":
        return Groups(toks, reader.select(start, len(toks), outer=True), None, first, reader.faults)
    return Groups(toks, None, reader.group(start + 1, len(toks), "ask"), first, reader.faults)


def _after_prologue(toks: Sequence[Token]) -> int:
    i = 0
    while i < len(toks) and toks[i].kind == "word" and toks[i].text.upper() in ("PREFIX", "BASE"):
        i += 3 if toks[i].text.upper() == "PREFIX" else 2
    return i


class _Reader:
    def __init__(self, toks: Sequence[Token]) -> None:
        self.toks = toks
        self.faults = 0

    def up(self, i: int) -> str:
        return self.toks[i].text.upper() if i < len(self.toks) and self.toks[i].kind == "word" else ""

    def close(self, i: int, strict: bool = True) -> int:
        """The bracket closing the one at ``i``, else the last token (a fault when the grammar needs it closed)."""
        j = closing(self.toks, i)
        if j is None:
            self.faults += strict
            return len(self.toks) - 1
        return j

    def vars(self, start: int, end: int) -> tuple[int, ...]:
        return tuple(k for k in range(start, min(end, len(self.toks))) if self.toks[k].kind == "var")

    def select(self, i: int, end: int, outer: bool) -> Select:
        """The SELECT at ``i`` up to ``end``: its projection, FROM clauses, WHERE group and solution modifiers."""
        projection: list[int | Expression] = []
        star = False
        i += 1
        while i < len(self.toks) and self.toks[i].text != "{" and self.up(i) not in ("WHERE", "FROM"):
            t = self.toks[i]
            if t.kind == "var":
                projection.append(i)
            elif t.text == "*":
                star = True
            elif t.text == "(":
                j = self.close(i)
                projection.append(self.projected(i, j, "projected"))
                i = j
            elif self.up(i) == "AS" and i + 1 < len(self.toks):  # Virtuoso: COUNT(?x) AS ?n
                projection.append(Expression("named", (), (), i + 1))
                i += 1
            elif t.kind in ("word", "pname", "iri") and self.up(i) not in ("DISTINCT", "REDUCED") and \
                    i + 1 < len(self.toks) and self.toks[i + 1].text == "(":
                j = self.close(i + 1)
                projection.append(self.projected(i + 1, j, "call"))
                i = j
            i += 1
        while i < end and self.up(i) == "FROM":  # FROM [NAMED] <iri>
            i += 3 if self.up(i + 1) == "NAMED" else 2
        i += self.up(i) == "WHERE"
        if i >= end or self.toks[i].text != "{":
            self.faults += 1
            i = next((k for k in range(i, end) if self.toks[k].text == "{"), end)
        where_end = self.close(i) if i < end else end
        where = self.group_at(i, where_end) if i < end else Group("group", ())
        grouped, values, tail = self.tail(where_end + 1 if i < end else end, end, outer)
        return Select(tuple(projection), star, where, grouped, values, tail)

    def projected(self, opening: int, close: int, kind: str) -> Expression:
        """A parenthesised projection from ``opening`` to ``close``: ``(expression [AS ?v])``."""
        named = self.toks[close - 2].text.upper() == "AS"
        alias = close - 1 if named and self.toks[close - 1].kind == "var" else None
        return self.expression(opening + 1, close - 2 if named else close, kind, alias)

    def tail(self, i: int, end: int, outer: bool) -> tuple[tuple[int, ...], Values | None, tuple[Part, ...]]:
        """GROUP BY, HAVING, ORDER BY, LIMIT and OFFSET from ``i``, then a VALUES block: GROUP BY's ``(… AS ?v)``
        names, the VALUES, and the parts (HAVING's expressions, the VALUES, what else stands before ``end``)."""
        grouped: list[int] = []
        parts: list[Part] = []
        clause = ""
        while i < end:
            t, up = self.toks[i], self.up(i)
            if up in MODIFIERS or up == "HAVING":
                clause = up
            elif t.text in ("}", "{") or up in ("VALUES", "SELECT") or up in _FORMS:
                break
            elif t.text == "(":
                j = self.close(i)
                if clause == "GROUP" and self.toks[j - 2].text.upper() == "AS" and self.toks[j - 1].kind == "var":
                    grouped.append(j - 1)
                elif clause == "HAVING":
                    parts.append(self.expression(i + 1, j, "having"))
                i = j
            i += 1
        values = None
        if i < end and self.up(i) == "VALUES":
            values, i = self.values(i, end)
            parts.append(values)
        self.faults += not outer and i > end  # its brackets cross the sub-select's closing brace
        if i < end:
            faults = self.faults
            parts.extend(self.group(i, end, "group").parts)
            # what follows the outer query's modifiers is the parser's concern; inside a sub-select it is a fault
            self.faults = faults if outer else faults + 1
        return tuple(grouped), values, tuple(parts)

    def group_at(self, opening: int, close: int) -> Group:
        """The group whose braces are at ``opening`` and ``close``: a sub-SELECT's when SELECT comes first."""
        prev = self.up(opening - 1) if opening else ""
        kind = _KINDS.get(prev) or ("graph" if opening > 1 and self.up(opening - 2) == "GRAPH" else "group")
        if self.up(opening + 1) == "SELECT" and opening + 1 < close:
            return Group(kind, (self.select(opening + 1, close, outer=False),))
        return self.group(opening + 1, close, kind)

    def group(self, i: int, end: int, kind: str) -> Group:
        """The parts between ``i`` and ``end`` (a group's braces excluded)."""
        parts: list[Part] = []
        loose: list[int] = []
        while i < end:
            t, up = self.toks[i], self.up(i)
            if t.text == "{":
                j = self.close(i)
                parts.append(self.group_at(i, j))
                i = j + 1
            elif up == "FILTER":
                found, i = self.constraint(i + 1, end)
                parts += [found] if found else []
                self.faults += i > end  # its brackets cross the group's closing brace
            elif up in ("BIND", "HAVING") and i + 1 < end and self.toks[i + 1].text == "(":
                j = self.close(i + 1)
                named = up == "BIND" and self.toks[j - 2].text.upper() == "AS" and self.toks[j - 1].kind == "var"
                parts.append(self.expression(i + 2, j, up.lower(), j - 1 if named else None))
                loose += self.vars(i + 2, j) if up == "HAVING" else ()  # HAVING misplaced in a group: not a filter
                self.faults += up == "BIND" and j >= end
                i = j + 1
            elif up == "VALUES":
                found_values, i = self.values(i, end)
                parts.append(found_values)
                self.faults += i > end
            elif up in GROUP_WORDS or t.text in (".", "}"):
                self.faults += up == "MINUS" and (i + 1 >= end or self.toks[i + 1].text != "{")
                i += 1
            elif up in MODIFIERS or up == "BY":  # misplaced modifiers: they order or cut rows, they tie nothing
                j = i
                while j < end and self.toks[j].text.upper() != "HAVING" and self.toks[j].text not in ("{", "}"):
                    j = self.close(j, strict=False) + 1 if self.toks[j].text == "(" else j + 1
                loose += self.vars(i, j)
                i = j
            elif t.kind in TERM or t.text in ("[", "("):
                found_triples, i = triples(self.toks, i, end)
                parts.append(found_triples)
            else:
                self.faults += up == "BIND"  # BIND without its parentheses
                i += 1
        return Group(kind, tuple(parts), tuple(loose))

    def constraint(self, i: int, end: int) -> tuple[Expression | None, int]:
        """A FILTER's constraint at ``i``: ``[NOT] EXISTS { … }``, a function or built-in call, or a bracketed
        expression; None (a fault) when it is none of them."""
        k = i + (self.up(i) == "NOT")
        if self.up(k) == "EXISTS":
            if k + 1 < end and self.toks[k + 1].text == "{":
                j = self.close(k + 1)
                return Expression("filter", (), (self.group_at(k + 1, j),)), j + 1
        else:
            k += k < end and self.toks[k].text != "("  # REGEX, CONTAINS, xsd:int, <iri>, bif:contains …
            if k < end and self.toks[k].text == "(":
                j = self.close(k)
                return self.expression(k + 1, j, "filter"), j + 1
        self.faults += 1
        return None, i

    def expression(self, start: int, end: int, kind: str, alias: int | None = None) -> Expression:
        terms: list[int] = []
        groups: list[Group] = []
        i = start
        while i < end:
            t = self.toks[i]
            if t.text == "{":
                j = self.close(i)
                groups.append(self.group_at(i, j))
                i = j
            elif t.text == "^^":
                i += 1  # a datatype is no constant of its own
            elif t.kind in ("var", "string", "number") or \
                    (t.kind in ("pname", "iri") and (i + 1 >= end or self.toks[i + 1].text != "(")):
                terms.append(i)
            i += 1
        return Expression(kind, tuple(terms), tuple(groups), alias)

    def values(self, i: int, end: int) -> tuple[Values, int]:
        """The VALUES block at ``i`` (``VALUES ?v { … }`` or ``VALUES (?a ?b) { … }``) and the index after it."""
        data = next((k for k in range(i, end) if self.toks[k].text == "{"), end)
        close = self.close(data) if data < end else end
        terms = tuple(k for k in range(i + 1, close) if self.toks[k].kind in ("var", "string", "number", "iri",
                                                                               "pname"))
        head: tuple[int, ...] = (i + 1,)
        k = i + 2
        if i + 1 < end and self.toks[i + 1].text == "(":
            k = self.close(i + 1) + 1
            head = self.vars(i + 2, k - 1)
        elif i + 1 >= end or self.toks[i + 1].kind != "var":
            head, k = (), i + 1
        self.faults += k != data or data >= end
        return Values(head, terms), close + 1
