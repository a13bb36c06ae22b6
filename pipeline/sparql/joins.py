"""Which parts of a query are joined: its triple patterns, filters, binds and VALUES grouped by the variables they
share, and which of those parts hold a constant (a literal, a number, or an IRI that is not the class of an
``a``/``rdf:type`` pattern; predicates are relations, not constants).

Scopes as SPARQL has them: a sub-select's own variables are not the outer query's, except those it projects
(SciQA's T05 query joins its answer to the dataset inside a sub-select, and its outer metric pattern to nothing).
A lenient reader over tokens (no full parse, never raises): what it cannot read it leaves out."""
from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.sparql.text import Token, tokenize

_GROUP_WORDS = frozenset({"OPTIONAL", "UNION", "MINUS", "GRAPH", "WHERE", "NOT", "EXISTS", "LATERAL"})
_MODIFIERS = frozenset({"GROUP", "ORDER", "LIMIT", "OFFSET"})
_TYPE = frozenset({"a", "rdf:type", "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"})
_TERM = frozenset({"var", "pname", "iri", "string", "number", "bnode"})


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


class _Reader:
    def __init__(self, toks: list[Token]) -> None:
        self.toks = toks
        self.parent: dict[str, str] = {}
        self.scopes = [0]
        self.next_scope = 1
        self.consts = 0
        self.answer: list[str] = []
        self.seen: set[str] = set()  # nodes met outside the outer projection

    def node(self, tok: Token) -> str:
        if tok.kind in ("var", "bnode"):
            key = f"{self.scopes[-1]}|{tok.text[1:] if tok.kind == 'var' else tok.text}"
        else:
            self.consts += 1
            key = f"#{self.consts}#{_body(tok)}"
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

    def close(self, i: int) -> int:
        """The index of the bracket closing the one at ``i``."""
        pairs = {"(": ")", "{": "}", "[": "]"}
        opening, depth = self.toks[i].text, 0
        for j in range(i, len(self.toks)):
            if self.toks[j].text == opening:
                depth += 1
            elif self.toks[j].text == pairs[opening]:
                depth -= 1
                if depth == 0:
                    return j
        return len(self.toks) - 1

    def expression(self, start: int, end: int) -> None:
        """A FILTER, BIND, HAVING or projected expression: its variables and constants are one part; an EXISTS
        pattern inside is read as patterns."""
        keys: list[str] = []
        i = start
        while i < end:
            t = self.toks[i]
            if t.text == "{":
                j = self.close(i)
                self.group(i + 1, j)
                i = j
            elif t.text == "^^":
                i += 1  # a datatype is no constant of its own
            elif t.kind in ("var", "string", "number") or \
                    (t.kind in ("pname", "iri") and (i + 1 >= end or self.toks[i + 1].text != "(")):
                keys.append(self.node(t))
            i += 1
        self.join(keys)

    def projection(self, i: int, outer: bool) -> int:
        """The projection of a SELECT at ``i``; returns the index after it. A sub-select's projected variables are
        its parent scope's too."""
        i += 1
        while i < len(self.toks) and self.toks[i].text != "{" and self.toks[i].text.upper() != "WHERE":
            t = self.toks[i]
            if t.kind == "var":
                self._project(t, outer)
            elif t.text == "(":
                end = self.close(i)
                alias = self.toks[end - 1] if self.toks[end - 2].text.upper() == "AS" else None
                self.expression(i + 1, end - 2 if alias else end)
                if alias is not None and alias.kind == "var":
                    inner = [self.node(t) for t in self.toks[i + 1:end - 2] if t.kind == "var"]
                    self.join([self.node(alias)] + inner)
                    self._project(alias, outer)
                i = end
            i += 1
        return i

    def _project(self, var: Token, outer: bool) -> None:
        if outer:
            self.answer.append(var.text)
            self.join([self.node(var)], seen=False)
            return
        inner = self.node(var)
        self.scopes.append(self.scopes[-2])
        self.join([inner, self.node(var)])
        self.scopes.pop()

    def group(self, i: int, end: int) -> None:
        """The patterns between ``i`` and ``end`` (a group's braces excluded)."""
        while i < end:
            t = self.toks[i]
            up = t.text.upper() if t.kind == "word" else ""
            if t.text == "{" and i + 1 < end and self.toks[i + 1].text.upper() == "SELECT":
                j = self.close(i)
                self.scopes.append(self.next_scope)
                self.next_scope += 1
                self.select(i + 1, j, outer=False)
                self.scopes.pop()
                i = j + 1
            elif t.text == "{":
                j = self.close(i)
                self.group(i + 1, j)
                i = j + 1
            elif up in ("FILTER", "BIND", "HAVING") and i + 1 < end and self.toks[i + 1].text == "(":
                j = self.close(i + 1)
                self.expression(i + 2, j)
                i = j + 1
            elif up == "VALUES":
                j = next((k for k in range(i, end) if self.toks[k].text == "{"), end)
                k = self.close(j) if j < end else end
                self.join([self.node(x) for x in self.toks[i + 1:k] if x.kind in ("var", "string", "number", "iri",
                                                                                   "pname")])
                i = k + 1
            elif up in _GROUP_WORDS or up == "FILTER" or t.text in (".", "}"):
                i += 1
            elif up in _MODIFIERS or up == "BY":
                i = self.modifiers(i, end)
            elif t.kind in _TERM or t.text in ("[", "("):
                i = self.statement(i, end)
            else:
                i += 1

    def modifiers(self, i: int, end: int) -> int:
        """Skip GROUP BY / ORDER BY / LIMIT / OFFSET (they order or cut rows, they tie nothing); read HAVING."""
        while i < end and self.toks[i].text.upper() != "HAVING" and self.toks[i].text not in ("{", "}"):
            i = self.close(i) + 1 if self.toks[i].text == "(" else i + 1
        return i

    def statement(self, i: int, end: int) -> int:
        """A subject and its predicate-object lists (blank-node brackets included) up to '.', one part."""
        keys: list[str] = []
        role, typed = "s", False
        brackets: list[bool] = []  # per open '[': whether it stands as a subject
        while i < end:
            t = self.toks[i]
            if t.text == "." and not brackets or t.text in ("{", "}") or \
                    (t.kind == "word" and t.text.upper() in _GROUP_WORDS | _MODIFIERS | {"FILTER", "BIND", "VALUES"}):
                break
            if role == "after" and not brackets and (t.kind in _TERM or t.text == "["):
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
                i, typed, var = self.verb(i, end)
                if var is not None:
                    keys.append(self.node(var))
                role = "o"
                continue
            elif t.text == "(":  # a collection
                j = self.close(i)
                keys += [self.node(x) for x in self.toks[i + 1:j] if x.kind in ("var", "bnode")]
                i, role = j, "p" if role == "s" else "after"
            elif t.kind in _TERM or t.text in ("true", "false"):
                if not (role == "o" and typed and t.kind in ("pname", "iri")):
                    keys.append(self.node(t))
                if t.kind == "string" and i + 1 < end and self.toks[i + 1].text == "^^":
                    i += 2
                role = "p" if role == "s" else "after"
            i += 1
        self.join(keys)
        return i

    def verb(self, i: int, end: int) -> tuple[int, bool, Token | None]:
        """A predicate or property path at ``i``: the index after it, whether it is rdf:type alone, and its
        variable (a variable predicate joins like any term)."""
        steps: list[str] = []
        var = None
        while i < end:
            while i < end and self.toks[i].text in ("^", "!"):
                i += 1
            if i >= end:
                break
            t = self.toks[i]
            i = self.close(i) + 1 if t.text == "(" else i + 1
            steps.append(t.text)
            var = t if t.kind == "var" else var
            while i < end and self.toks[i].text in ("*", "+", "?"):
                i += 1
            if not (i < end and self.toks[i].text in ("/", "|")):
                break
            i += 1
        return i, len(steps) == 1 and steps[0] in _TYPE, var

    def select(self, i: int, end: int, outer: bool) -> None:
        at = next((k for k in range(i, end) if self.toks[k].text == "{"), end)
        self.projection(i, outer)
        self.group(at + 1, self.close(at) if at < end else end)
        self.group(self.close(at) + 1 if at < end else end, end)  # HAVING after the group


def _outer(var: str) -> str:
    return f"0|{var.lstrip('?$')}"


def _body(tok: Token) -> str:
    if tok.kind == "string":
        return tok.text[3:-3] if tok.text[:3] in ('"""', "'''") else tok.text[1:-1]
    return tok.text


def joins(query: str) -> Joins:
    """The parts of ``query``; best effort on malformed text."""
    toks = tokenize(query)
    reader = _Reader(toks)
    start = next((k for k, t in enumerate(toks) if t.kind == "word" and t.text.upper() in ("SELECT", "ASK")), None)
    if start is None:
        return Joins(())
    if toks[start].text.upper() == "SELECT":
        reader.select(start, len(toks), outer=True)
    else:
        reader.group(start + 1, len(toks))
    part = {key: reader.find(key) for key in reader.parent}
    constants: dict[str, tuple[str, ...]] = {}
    for key, rep in part.items():
        if key.startswith("#"):
            constants[rep] = constants.get(rep, ()) + (key.split("#", 2)[2],)
    bound = frozenset(part[key] for key in reader.seen)
    return Joins(tuple(dict.fromkeys(reader.answer)), part, constants, bound)
