"""Virtuoso's SPARQL dialect (what ORKG accepts, and SciQA's handcrafted gold queries use) made SPARQL 1.1.

One named normalisation, applied only to a query the SPARQL 1.1 grammar refuses, and kept only when its result
parses: a valid query is never touched. Each relaxation is one name, one rewrite of tokens:

- ``projection commas``: ``SELECT ?a, ?b`` → ``SELECT ?a ?b``;
- ``projection without parentheses``: ``SELECT COUNT(?x) AS ?n`` → ``SELECT (COUNT(?x) AS ?n)``, and an aggregate
  with no name, ``SELECT ?l COUNT(?l)``, named after what it computes: ``(COUNT(?l) AS ?count_l)``;
- ``implied GROUP BY``: aggregates (projected, in HAVING or ORDER BY) beside plain projected variables and no GROUP
  BY: Virtuoso groups by those variables, so the query says so: ``SELECT ?x ... ORDER BY DESC(COUNT(?x))`` →
  ``... GROUP BY ?x ORDER BY DESC(COUNT(?x))``.

Nothing here reads keywords a gate cares about: the read-only gate runs on the result as on any query."""
from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.sparql.brackets import closing
from pipeline.sparql.grammar import syntax_problem
from pipeline.sparql.lexer import matches
from pipeline.sparql.parsed import AGGREGATES
from pipeline.sparql.text import PREFIXES

PROJECTION_COMMAS = "projection commas"
UNPARENTHESISED = "projection without parentheses"
IMPLIED_GROUP_BY = "implied GROUP BY"
RELAXATIONS = (PROJECTION_COMMAS, UNPARENTHESISED, IMPLIED_GROUP_BY)
_PROJECTION_END = frozenset({"WHERE", "FROM"})
_MODIFIER_START = frozenset({"GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "VALUES"})


@dataclass(frozen=True)
class Dialect:
    """A query in SPARQL 1.1 and the relaxations that made it so (none: it was already standard, or no relaxation
    makes it parse, and it is left as it came)."""

    query: str
    applied: tuple[str, ...] = ()


@dataclass
class _Tok:
    """A token and what the rewrite writes before and after it (the token itself is never changed but a comma)."""

    kind: str
    text: str
    before: str = ""
    after: str = ""

    @property
    def up(self) -> str:
        return self.text.upper() if self.kind == "word" else ""


def normalise(query: str, prefixes: dict[str, str] | None = None) -> Dialect:
    """The query as SPARQL 1.1: itself when it parses, else Virtuoso's relaxations undone when that makes it parse
    (``prefixes``: declared beforehand, the ORKG ones by default)."""
    prefixes = PREFIXES if prefixes is None else prefixes
    if syntax_problem(query, prefixes) is None:
        return Dialect(query)
    toks = [_Tok(m.lastgroup or "other", m.group()) for m in matches(query)]
    applied: list[str] = []
    for select in reversed([i for i, t in enumerate(toks) if t.up == "SELECT"]):  # inner ones first: indices hold
        applied += _standard_select(toks, select, _names(toks))
    fixed = "".join(t.before + t.text + t.after for t in toks)
    if not applied or syntax_problem(fixed, prefixes) is not None:
        return Dialect(query)
    return Dialect(fixed, tuple(r for r in RELAXATIONS if r in applied))


def _names(toks: list[_Tok]) -> set[str]:
    return {t.text[1:] for t in toks if t.kind == "var"}


def _next(toks: list[_Tok], i: int) -> int:
    """Index of the first token at or after ``i`` that is not blank or a comment (``len(toks)`` if none)."""
    while i < len(toks) and toks[i].kind in ("ws", "comment"):
        i += 1
    return i


def _close(toks: list[_Tok], i: int) -> int:
    """Index of the bracket closing the one opened at ``i`` (the last token when it never closes)."""
    end = closing(toks, i)
    return len(toks) - 1 if end is None else end


def _standard_select(toks: list[_Tok], select: int, names: set[str]) -> list[str]:
    """Undo the relaxations in one SELECT's projection and its solution modifiers, in place."""
    applied: list[str] = []
    i = _next(toks, select + 1)
    if i < len(toks) and toks[i].up in ("DISTINCT", "REDUCED"):
        i = _next(toks, i + 1)
    plain: list[str] = []
    aggregated = False
    while i < len(toks) and toks[i].up not in _PROJECTION_END and toks[i].text != "{":
        tok = toks[i]
        if tok.kind == "punct" and tok.text == ",":
            if not _between_items(toks, i):
                return []
            tok.kind, tok.text = "ws", " "
            applied.append(PROJECTION_COMMAS)
        elif tok.text == "(":
            end = _close(toks, i)
            aggregated |= _has_aggregate(toks[i:end + 1])
            i = end
        elif tok.kind == "var" and _next(toks, i + 1) < len(toks) and toks[_next(toks, i + 1)].up == "AS":
            i = _wrap(toks, i, i, names)
            applied.append(UNPARENTHESISED)
        elif tok.kind == "var":
            plain.append(tok.text)
        elif tok.kind in ("word", "pname", "iri") and tok.up != "AS":
            call = _next(toks, i + 1)
            if call >= len(toks) or toks[call].text != "(":
                return []  # not a call: leave this projection alone, the grammar will say what is wrong
            aggregated |= tok.up in AGGREGATES
            i = _wrap(toks, i, _close(toks, call), names)
            applied.append(UNPARENTHESISED)
        elif tok.kind not in ("ws", "comment") and tok.text != "*":
            return []
        i += 1
    if plain and _implies_grouping(toks, i, aggregated):
        applied.append(IMPLIED_GROUP_BY)
    return applied


def _between_items(toks: list[_Tok], comma: int) -> bool:
    """A comma after a projected item and before another (Virtuoso's list separator, nothing else)."""
    after = _next(toks, comma + 1)
    before = comma - 1
    while before > 0 and toks[before].kind in ("ws", "comment"):
        before -= 1
    return (toks[before].kind == "var" or toks[before].text == ")") and after < len(toks) and \
        ((toks[after].kind in ("var", "word", "pname", "iri") and toks[after].up not in _PROJECTION_END)
         or toks[after].text == "(")


def _wrap(toks: list[_Tok], start: int, end: int, names: set[str]) -> int:
    """Parenthesise the expression ``toks[start:end+1]`` with its ``AS ?v`` (named after it when it has none);
    the index of the last token of the wrapped expression."""
    after = _next(toks, end + 1)
    if after < len(toks) and toks[after].up == "AS" and toks[_next(toks, after + 1)].kind == "var":
        last = _next(toks, after + 1)
        toks[start].before += "("
        toks[last].after += ")"
        return last
    name = _fresh(_label(toks[start:end + 1]), names)
    toks[start].before += "("
    toks[end].after += f" AS ?{name})"
    return end


def _label(expr: list[_Tok]) -> str:
    """``count_label`` for ``COUNT(?label)``; the function's name for anything longer."""
    func = re.sub(r"\W", "_", expr[0].text.split(":")[-1].lower()) or "value"
    args = [t for t in expr[1:] if t.kind not in ("ws", "comment") and t.text not in ("(", ")")]
    return f"{func}_{args[0].text[1:]}" if len(args) == 1 and args[0].kind == "var" else func


def _fresh(name: str, names: set[str]) -> str:
    out, n = name, 1
    while out in names:
        n += 1
        out = f"{name}{n}"
    names.add(out)
    return out


def _has_aggregate(span: list[_Tok]) -> bool:
    return any(t.up in AGGREGATES for t in span)


def _implies_grouping(toks: list[_Tok], i: int, aggregated: bool) -> bool:
    """Add ``GROUP BY`` of the plain projected variables after the WHERE group starting near ``i`` when the query
    aggregates without grouping; whether it did."""
    while i < len(toks) and toks[i].text != "{":
        i += 1
    if i >= len(toks):
        return False
    where_end = _close(toks, i)
    j, modifiers_end = where_end + 1, len(toks)
    depth = 0
    for k in range(where_end + 1, len(toks)):
        t = toks[k]
        if t.text in ("(", "{"):
            depth += 1
        elif t.text in (")", "}"):
            depth -= 1
            if depth < 0:
                modifiers_end = k
                break
    modifiers = toks[j:modifiers_end]
    if any(t.up == "GROUP" for t in modifiers) or not (aggregated or _has_aggregate(modifiers)):
        return False
    plain = _plain_projection(toks, i)
    toks[where_end].after += " GROUP BY " + " ".join(plain)
    return True


def _plain_projection(toks: list[_Tok], where_open: int) -> list[str]:
    """The plain variables projected by the SELECT whose WHERE group opens at ``where_open`` (already rewritten)."""
    k = where_open
    while toks[k].up != "SELECT":
        k -= 1
    out, depth = [], 0
    for t in toks[k + 1:where_open]:
        depth += t.before.count("(") + (t.text == "(")
        if depth == 0 and t.kind == "var":
            out.append(t.text)
        depth -= t.after.count(")") + (t.text == ")")
    return out
