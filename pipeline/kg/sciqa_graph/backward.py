"""The handcrafted gold queries' facts, found by reading each query backwards from its recorded answer.

No shape is modelled one by one: a query's algebra (rdflib's) is walked, each projected variable is bound to the
recorded value of each answer row, the bindings are carried back through BIND (casts, ``IF``), aggregates (a COUNT
of n is n copies of the pattern; SUM, AVG, MAX, MIN of one value is that value) and FILTERs (a REGEX, ``=``, ``>``
and ``<`` against a constant), and the basic graph patterns are written out with fresh witness nodes for what is
still unbound. Only triples whose query then returns the recorded answer exactly are kept (``Backward.add``)."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pyoxigraph as ox
from rdflib import BNode, Literal, URIRef, Variable
from rdflib.plugins.sparql import prepareQuery
from rdflib.plugins.sparql.parserutils import CompValue

from pipeline.kg.sciqa_graph.facts import Fact
from pipeline.kg.sciqa_graph.witness import INVENTED, LABEL
from pipeline.sparql.dialect import normalise
from pipeline.sparql.reorder import triples_before_optionals
from pipeline.sparql.text import PREFIXES, add_prefixes

Triple = tuple[str, str, str, bool]  # as Witness holds them: (s, p, o, o is a literal)
Term = Any  # an rdflib term or pattern node


@dataclass(frozen=True)
class Reading:
    """Which parts of a query the instance writes out: OPTIONAL groups, subqueries, the first or second UNION branch."""

    optional: bool = True
    subqueries: bool = True
    branch: int = 0


READINGS = (Reading(), Reading(subqueries=False), Reading(optional=False), Reading(branch=1),
            Reading(optional=False, subqueries=False))


@dataclass
class _Parts:
    patterns: list[tuple[Term, Term, Term]] = field(default_factory=list)
    optionals: list[list[tuple[Term, Term, Term]]] = field(default_factory=list)  # each OPTIONAL group's own
    extends: list[tuple[Variable, Any]] = field(default_factory=list)
    filters: list[Any] = field(default_factory=list)
    aggregates: list[Any] = field(default_factory=list)
    projected: list[Variable] = field(default_factory=list)


def _walk(node: Any, reading: Reading, out: _Parts, inner: bool = False) -> None:
    if isinstance(node, list):
        for item in node:
            _walk(item, reading, out, inner)
        return
    if not isinstance(node, CompValue):
        return
    name = node.name
    if name == "BGP":
        out.patterns += list(node.triples)
        return
    if name == "Project" and not out.projected:
        out.projected = list(node.PV)
    elif name in ("Project", "ToMultiSet") and inner and not reading.subqueries:
        return
    if name == "LeftJoin":
        _walk(node.p1, reading, out, inner)
        if reading.optional:
            group = _Parts(projected=out.projected)
            _walk(node.p2, reading, group, inner)
            out.optionals.append(group.patterns)
            out.extends += group.extends
            out.filters += group.filters
            out.aggregates += group.aggregates
        return
    if name == "Union":
        _walk(node.p2 if reading.branch else node.p1, reading, out, inner)
        return
    if name in ("Minus", "Builtin_NOTEXISTS"):
        return
    if name == "Extend":
        out.extends.append((node.var, node.expr))
    elif name == "Filter":
        out.filters.append(node.expr)
    elif name == "AggregateJoin":
        out.aggregates += list(node.A)
    for key in ("p", "p1", "p2"):
        if key in node:
            _walk(node[key], reading, out, inner or (name in ("Join", "ToMultiSet") and key != "p"))


def _var(expr: Any) -> Variable | None:
    """The variable an expression reads as it is (``?x``, ``STR(?x)``, ``xsd:int(?x)``)."""
    if isinstance(expr, Variable):
        return expr
    if isinstance(expr, CompValue) and expr.name in ("Builtin_STR", "Function"):
        arg = (expr["arg"] if "arg" in expr else None) if expr.name == "Builtin_STR" else expr.expr  # noqa: SIM401
        return _var(arg[0] if isinstance(arg, list) and len(arg) == 1 else arg)
    return None


def _matching(pattern: str, flags: str) -> str:
    """A string the REGEX ``pattern`` matches (its first alternative with the operators taken out)."""
    candidate = re.sub(r"\(([^|()]*)\|[^()]*\)", r"\1", pattern)
    candidate = re.sub(r"\[([^\]])[^\]]*\]", r"\1", candidate)
    candidate = re.sub(r"\\(.)", r"\1", re.sub(r"[\^$*+?()]", "", candidate))
    ok = re.search(pattern, candidate, re.I if "i" in flags else 0) is not None
    return candidate if ok else pattern


def _constraints(expr: Any, bound: dict[str, Term]) -> None:
    """Bind what a FILTER pins down: ``?x = "c"``, ``?x > 10``, ``REGEX(?x, "p")``."""
    if not isinstance(expr, CompValue):
        return
    if expr.name == "ConditionalAndExpression":
        for part in [expr.expr] + list(expr.other or []):
            _constraints(part, bound)
    elif expr.name == "Builtin_REGEX" or expr.name == "Builtin_CONTAINS":
        var = _var(expr.text if expr.name == "Builtin_REGEX" else expr.arg1)
        pattern = str(expr.pattern if expr.name == "Builtin_REGEX" else expr.arg2)
        flags = str(expr.get("flags") or "") if expr.name == "Builtin_REGEX" else ""
        if var is not None and str(var) not in bound:
            bound[str(var)] = Literal(_matching(pattern, flags) if expr.name == "Builtin_REGEX" else pattern)
    elif expr.name == "RelationalExpression" and isinstance(expr.other, Literal):
        var = _var(expr.expr)
        if var is not None and str(var) not in bound:
            bound[str(var)] = Literal(_beside(str(expr.other), expr.op))


def _beside(value: str, op: str) -> str:
    """A value that satisfies ``?x op value``."""
    if op in ("=", "<=", ">=") or not re.fullmatch(r"-?\d+(\.\d+)?", value):
        return value
    number = float(value) + (1 if op == ">" else -1)
    return str(int(number)) if number.is_integer() else str(number)


def _back(parts: _Parts, bound: dict[str, Term]) -> int:
    """Carry bindings back through BIND and aggregates; returns how many copies of the pattern a COUNT asks for."""
    copies = 1
    for _ in range(4):
        for var, expr in parts.extends:
            value = bound.get(str(var))
            if value is None:
                continue
            source = _var(expr)
            if source is not None:
                bound.setdefault(str(source), Literal(str(value)) if not isinstance(expr, Variable) else value)
            elif isinstance(expr, CompValue) and expr.name == "Builtin_IF":
                _back_if(expr, value, bound)
        for agg in parts.aggregates:
            value = bound.get(str(agg.res))
            if value is None:
                continue
            if agg.name == "Aggregate_Count":
                copies = int(float(str(value))) if re.fullmatch(r"\d+(\.0+)?", str(value)) else copies
            elif isinstance(agg.vars, Variable):
                bound.setdefault(str(agg.vars), value)
    return copies


def _back_if(expr: Any, value: Term, bound: dict[str, Term]) -> None:
    test = expr.arg1
    if isinstance(test, CompValue) and test.name == "Builtin_BOUND":
        if isinstance(expr.arg2, Variable):
            bound.setdefault(str(expr.arg2), value)
    elif isinstance(test, CompValue) and test.name == "RelationalExpression" and isinstance(test.other, Literal):
        var = _var(test.expr)
        if var is not None and str(var) not in bound:
            same = str(value) == str(expr.arg2)
            bound[str(var)] = Literal(str(test.other) if same else f"not {test.other}")


def _term(node: Term, bound: dict[str, Term], fresh: str, literal: bool) -> Term:
    if isinstance(node, (Variable, BNode)):
        value = bound.get(str(node))
        if value is not None:
            return value
        return Literal(f"{node}") if literal else URIRef(f"{fresh}{node}")
    return node


def algebra(sparql: str) -> Any:
    """The query's algebra as rdflib translates it (None when it cannot): parsed once, read in several ways."""
    try:
        return prepareQuery(normalise(sparql).query, initNs=PREFIXES).algebra
    except Exception:
        return None


def instances(fact: Fact, reading: Reading, seed: bool = False, tree: Any = None) -> list[Triple] | None:
    """The triples that give ``fact``'s query its recorded answer under this reading; None when it cannot be read.
    ``seed``: one copy of the pattern even for an empty or false answer (a query that is true on nothing);
    ``tree``: the query's ``algebra``, when already parsed."""
    tree = tree if tree is not None else algebra(fact.sparql)
    if tree is None:
        return None
    parts = _Parts()
    _walk(tree, reading, parts)
    # what a FILTER or a cast reads is a literal (a choice between two variables, IF(BOUND(?l), ?l, ?x), is not)
    in_expressions = {str(v) for _, e in parts.extends if getattr(e, "name", "") != "Builtin_IF"
                      for v in _vars_of(e)} | {str(v) for e in parts.filters for v in _vars_of(e)}
    projected = {str(v) for v in parts.projected}
    rows = fact.rows or ([{}] if fact.boolean or seed else [])
    out: list[Triple] = []
    for r, row in enumerate(rows):
        bound = _row_bindings(row, parts.projected)
        for expr in parts.filters:
            _constraints(expr, bound)
        copies = 1 if seed else _back(parts, bound)  # a false answer: the copy must not meet the COUNT asked
        for expr in parts.filters:  # once more: a BIND may have bound what a FILTER reads
            _constraints(expr, bound)
        for k in range(copies):
            fresh = f"{INVENTED}hq/{fact.id}/{r}-{k}/"
            # an OPTIONAL group is written only when the row binds every answer variable it has
            kept = [g for g in parts.optionals if all(str(t) in bound for tr in g for t in tr
                                                      if isinstance(t, Variable) and str(t) in projected)]
            for s, p, o in parts.patterns + [tr for g in kept for tr in g]:
                lit = str(p) == LABEL or (isinstance(o, (Variable, BNode)) and str(o) in in_expressions)
                ts, tp, to = _term(s, bound, fresh, False), _term(p, bound, fresh, False), _term(o, bound, fresh, lit)
                if isinstance(ts, Literal) or isinstance(tp, Literal):
                    return None
                out.append((str(ts), str(tp), str(to), isinstance(to, Literal)))
    return out


def _vars_of(expr: Any) -> Iterator[Variable]:
    if isinstance(expr, Variable):
        yield expr
    elif isinstance(expr, CompValue):
        for value in expr.values():
            yield from _vars_of(value)
    elif isinstance(expr, list):
        for item in expr:
            yield from _vars_of(item)


def _row_bindings(row: dict[str, Any], projected: list[Variable]) -> dict[str, Term]:
    bound: dict[str, Term] = {}
    names = [str(v) for v in projected]
    for key, term in row.items():
        name = key if key in names or len(names) != 1 else names[0]  # Virtuoso's unnamed ".1" is the one column
        bound[name] = URIRef(term["value"]) if term.get("type") == "uri" else Literal(term["value"])
    return bound


def answer(store: ox.Store, sparql: str) -> set[str] | None:
    """The flat answer of a query on ``store`` (None: it does not run)."""
    try:
        result = store.query(triples_before_optionals(add_prefixes(normalise(sparql).query)))
    except (SyntaxError, OSError, ValueError, RuntimeError):  # RuntimeError: a function pyoxigraph lacks
        return None
    if isinstance(result, ox.QueryBoolean):
        return {str(bool(result)).lower()}
    if not isinstance(result, ox.QuerySolutions):
        return None
    return {term.value for solution in result for term in solution if term is not None}
