"""Which parts of a query are joined: its triple patterns, filters, binds and VALUES grouped by the variables they
share, and which of those parts hold a constant (a literal, a number, or an IRI that is not the class of an
``a``/``rdf:type`` pattern; predicates are relations, not constants).

Scopes as SPARQL has them: a sub-select's own variables are not the outer query's, except those it projects
(SciQA's T05 query joins its answer to the dataset inside a sub-select, and its outer metric pattern to nothing).
Read over the query's groups (``pipeline.sparql.groups``; lenient, never raises): what it cannot read it leaves out."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pipeline.sparql.groups import Expression, Group, Part, Select, Values
from pipeline.sparql.lexer import Token
from pipeline.sparql.parsed import parse
from pipeline.sparql.triples import Triples


@dataclass(frozen=True)
class Joins:
    """The query's parts: ``answer`` the outer projection; ``constants_of`` and ``with_answer`` read them."""

    answer: tuple[str, ...]
    _part: dict[str, str] = field(default_factory=dict)  # node -> the representative of its part
    _constants: dict[str, tuple[str, ...]] = field(default_factory=dict)  # representative -> its constants' texts
    _bound: frozenset[str] = frozenset()  # representatives of the parts a pattern, filter, bind or VALUES is in

    def constants_of(self, var: str) -> tuple[str, ...]:
        """The constants in the part of the query an outer variable belongs to (none when it is in no part)."""
        return self._constants.get(self._part.get(_outer(var), ""), ())

    def alone(self, var: str) -> bool:
        """Whether an outer variable is joined to nothing (in no pattern, filter or bind: never bound)."""
        return self._part.get(_outer(var)) not in self._bound

    def with_answer(self, literal: str) -> bool | None:
        """Whether a literal's part holds an answer variable; None when the query has no such literal."""
        parts = {rep for node, rep in self._part.items() if node.startswith("#") and node.split("#", 2)[2] == literal}
        if not parts:
            return None
        answers = {self._part.get(_outer(v)) for v in self.answer}
        return bool(parts & answers)

    @property
    def has_constants(self) -> bool:
        return any(self._constants.values())


class _Parts:
    """A union-find over the query's nodes: a variable per scope (a sub-select has its own), a constant per place."""

    def __init__(self, toks: Sequence[Token]) -> None:
        self.toks = toks
        self.parent: dict[str, str] = {}
        self.scopes = [0]
        self.next_scope = 1
        self.answer: list[str] = []
        self.seen: set[str] = set()  # nodes met outside the outer projection

    def node(self, at: int) -> str:
        tok = self.toks[at]
        if tok.kind in ("var", "bnode"):
            key = f"{self.scopes[-1]}|{tok.text[1:] if tok.kind == 'var' else tok.text}"
        else:
            key = f"#{at}#{_body(tok)}"
        self.parent.setdefault(key, key)
        return key

    def find(self, key: str) -> str:
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def join(self, keys: list[str], seen: bool = True) -> None:
        if seen:
            self.seen.update(keys)
        for key in keys[1:]:
            self.parent[self.find(key)] = self.find(keys[0])

    def select(self, select: Select, outer: bool) -> None:
        """A SELECT's projection, WHERE group and what follows it. A sub-select's projected variables are its
        parent scope's too."""
        for item in select.projection:
            if isinstance(item, int):
                self.project(item, outer)
            elif item.kind == "named":
                if item.alias is not None and self.toks[item.alias].kind == "var":
                    self.project(item.alias, outer)
            else:
                self.expression(item)
                if item.alias is not None:
                    inner = [self.node(k) for k in item.terms if self.toks[k].kind == "var"]
                    self.join([self.node(item.alias)] + inner)
                    self.project(item.alias, outer)
        self.group(select.where)
        self.parts(select.tail)

    def project(self, at: int, outer: bool) -> None:
        if outer:
            self.answer.append(self.toks[at].text)
            self.join([self.node(at)], seen=False)
            return
        inner = self.node(at)
        self.scopes.append(self.scopes[-2])
        self.join([inner, self.node(at)])
        self.scopes.pop()

    def group(self, group: Group) -> None:
        self.parts(group.parts)

    def parts(self, parts: Sequence[Part]) -> None:
        for part in parts:
            if isinstance(part, (Triples, Values)):
                self.join([self.node(k) for k in part.terms])
            elif isinstance(part, Expression):
                self.expression(part)
            elif isinstance(part, Group):
                self.group(part)
            else:
                self.scopes.append(self.next_scope)
                self.next_scope += 1
                self.select(part, outer=False)
                self.scopes.pop()

    def expression(self, expression: Expression) -> None:
        """A FILTER, BIND, HAVING or projected expression: its variables and constants are one part; an EXISTS
        pattern inside is read as patterns."""
        self.join([self.node(k) for k in expression.terms])
        for group in expression.groups:
            self.group(group)


def _outer(var: str) -> str:
    return f"0|{var.lstrip('?$')}"


def _body(tok: Token) -> str:
    if tok.kind == "string":
        return tok.text[3:-3] if tok.text[:3] in ('"""', "'''") else tok.text[1:-1]
    return tok.text


def joins(query: str) -> Joins:
    """The parts of ``query``; best effort on malformed text."""
    found = parse(query).groups
    reader = _Parts(found.tokens)
    if found.select is not None:
        reader.select(found.select, outer=True)
    elif found.ask is not None:
        reader.group(found.ask)
    else:
        return Joins(())
    part = {key: reader.find(key) for key in reader.parent}
    constants: dict[str, tuple[str, ...]] = {}
    for key in sorted((k for k in part if k.startswith("#")), key=lambda k: int(k.split("#", 2)[1])):
        constants[part[key]] = constants.get(part[key], ()) + (key.split("#", 2)[2],)
    bound = frozenset(part[key] for key in reader.seen)
    return Joins(tuple(dict.fromkeys(reader.answer)), part, constants, bound)
