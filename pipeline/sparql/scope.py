"""Which variables a query's WHERE clause can bind (SPARQL 1.1's variable scope, section 18.2.1), read over its
groups (``pipeline.sparql.groups``), and the projected variables nothing binds: a query that selects ``?model`` but
never mentions it in a pattern answers with nothing bound, whatever the graph holds; and the variables an OPTIONAL
binds that a pattern after it then requires (``required_after_optional``).

A variable is in scope when a triple pattern (or a blank-node list or collection in one) holds it, or ``BIND(… AS
?v)``, ``VALUES``, ``GRAPH ?g`` or a sub-SELECT's projection binds it, through ``OPTIONAL`` and ``UNION``; not when it
appears only in a ``FILTER`` (``EXISTS`` patterns included), a ``MINUS`` or inside a sub-SELECT that does not
project it. ``(… AS ?v)`` in the projection or in ``GROUP BY`` binds ``?v``; ``SELECT *``, ``ASK`` and the other
forms project nothing to check. Lenient like ``pipeline.sparql.shape``: a query that does not read by the grammar
binds everything, so it never flags a query it does not understand."""
from __future__ import annotations

from collections.abc import Sequence

from pipeline.sparql.groups import Expression, Group, Part, Select, Values
from pipeline.sparql.lexer import Token
from pipeline.sparql.parsed import parse
from pipeline.sparql.triples import Triples


def unbound_projection(query: str) -> list[str]:
    """The outer SELECT's plain projected variables that nothing in the query can bind, in projection order."""
    found = parse(query).groups
    if found.select is None or not found.first or found.faults:
        return []
    unbound, _ = _select(found.select, found.tokens)
    if found.select.values is not None:  # a trailing VALUES binds the outer query's
        values = _names(found.select.values.variables, found.tokens)
        unbound = [v for v in unbound if _key(v) not in values]
    return unbound


def selected_but_unbound(query: str) -> str:
    """The defect in words ("?model is selected but never bound in WHERE"), "" when there is none."""
    unbound = unbound_projection(query)
    if not unbound:
        return ""
    names = " and ".join([", ".join(unbound[:-1]), unbound[-1]] if len(unbound) > 1 else unbound)
    return f"{names} {'is' if len(unbound) == 1 else 'are'} selected but never bound in WHERE"


def filtered_but_unbound(query: str) -> str:
    """The defect in words when a FILTER reads a variable nothing in the query binds ("?metric_lbl is filtered on
    but never bound"): the FILTER is an error for every row, so the query answers with nothing. Lenient: a variable
    bound anywhere in the query, in any group or sub-SELECT, counts as bound. "" when none."""
    found = parse(query).groups
    if found.select is None or not found.first or found.faults:
        return ""
    bound: set[str] = set()
    filtered: list[str] = []
    for part in _every_part(found.select):
        if isinstance(part, (Triples, Values)):
            bound |= _names(part.variables, found.tokens)
        elif isinstance(part, Expression):
            if part.alias is not None:
                bound.add(_key(found.tokens[part.alias].text))
            if part.kind == "filter":
                filtered += [_key(found.tokens[k].text) for k in part.terms if found.tokens[k].kind == "var"]
        elif isinstance(part, Select):
            bound |= _names(part.grouped, found.tokens)
    never = [v for v in dict.fromkeys(filtered) if v not in bound]
    if not never:
        return ""
    names = " and ".join([", ".join(never[:-1]), never[-1]] if len(never) > 1 else never)
    return f"{names} {'is' if len(never) == 1 else 'are'} filtered on but never bound"


def _every_part(select: Select) -> list[Part]:
    """Every part of a SELECT, its sub-groups, sub-SELECTs and EXISTS patterns included, and the SELECTs."""
    out: list[Part] = [select, *(e for e in select.projection if isinstance(e, Expression))]
    stack: list[Part] = [select.where, *select.tail]
    while stack:
        part = stack.pop()
        out.append(part)
        if isinstance(part, Group):
            stack += part.parts
        elif isinstance(part, Select):
            stack += [part.where, *part.tail, *(e for e in part.projection if isinstance(e, Expression))]
        elif isinstance(part, Expression):
            stack += part.groups
    return out


def required_after_optional(query: str) -> str:
    """The defect in words when a variable only an OPTIONAL binds is then required by a triple pattern after it
    ("?model is bound only inside an OPTIONAL and required after it"): where the OPTIONAL finds nothing, that later
    pattern matches any ?model of the graph, so the rows mix the intended ones with unrelated things. "" when none."""
    found = parse(query).groups
    if found.select is None or not found.first or found.faults:
        return ""
    late = list(dict.fromkeys(_late(found.select.where, found.tokens, frozenset())))
    if not late:
        return ""
    names = " and ".join([", ".join(late[:-1]), late[-1]] if len(late) > 1 else late)
    return f"{names} {'is' if len(late) == 1 else 'are'} bound only inside an OPTIONAL and required after it"


def _late(group: Group, toks: Sequence[Token], before: frozenset[str]) -> list[str]:
    """Variables of ``group`` (and the groups in it) that an OPTIONAL binds, no pattern before it does, and a triple
    pattern after it in the same group uses."""
    required, optional, late = set(before), set[str](), list[str]()
    for part in group.parts:
        if isinstance(part, Triples):
            used = _names(part.variables, toks)
            late += sorted(used & optional - required)
            required |= used
        elif isinstance(part, Group) and part.kind == "optional":
            late += _late(part, toks, frozenset(required))
            optional |= _bound(part, toks) - required
        elif isinstance(part, Group) and part.kind not in ("minus", "exists"):
            late += _late(part, toks, frozenset(required))
        elif isinstance(part, Select):
            late += _late(part.where, toks, frozenset())
    return late


def _key(var: str) -> str:
    """``$x`` and ``?x`` are one variable."""
    return "?" + var[1:]


def _names(at: Sequence[int], toks: Sequence[Token]) -> set[str]:
    return {_key(toks[k].text) for k in at}


def _select(select: Select, toks: Sequence[Token]) -> tuple[list[str], set[str]]:
    """A SELECT's plain projected variables nothing binds, and the variables it makes visible outside."""
    plain = [toks[item].text for item in select.projection if isinstance(item, int)]
    aliases = _names([item.alias for item in select.projection if isinstance(item, Expression) and
                      item.kind in ("projected", "named") and item.alias is not None], toks)
    bound = _bound(select.where, toks) | aliases | _names(select.grouped, toks)
    unbound = [v for v in dict.fromkeys(plain) if _key(v) not in bound]
    visible = bound if select.star else {_key(v) for v in plain if _key(v) in bound} | aliases
    return unbound, visible


def _bound(group: Group, toks: Sequence[Token]) -> set[str]:
    """The variables a group binds: its patterns', BINDs', VALUES' and sub-groups' (a MINUS's are not its own)."""
    bound = _names(group.loose, toks)
    for part in group.parts:
        if isinstance(part, Triples):
            bound |= _names(part.variables, toks)
        elif isinstance(part, Expression) and part.kind == "bind" and part.alias is not None:
            bound.add(_key(toks[part.alias].text))
        elif isinstance(part, Values):
            bound |= _names(part.variables, toks)
        elif isinstance(part, Group) and part.kind != "minus":
            bound |= _bound(part, toks)
        elif isinstance(part, Select):  # only its projection (and a VALUES after it) is seen outside
            bound |= _select(part, toks)[1] | (_names(part.values.variables, toks) if part.values else set())
    return bound
