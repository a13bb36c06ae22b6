"""Rewrites that let pyoxigraph answer a query from its indexes instead of scanning, each keeping the query's meaning.

- A label test ``FILTER(str(?l) = "x")`` (or ``?l = "x"``) is a scan of every literal: pyoxigraph evaluates the
  triple pattern binding ``?l`` for all labels, then the filter. When a triple pattern of the same group binds ``?l``
  (so ``?l`` is bound in every solution the filter sees), a ``VALUES ?l { … }`` of the literal forms the store holds
  with that text — ``"x"``, ``"x"^^xsd:string``, ``"x"@en``, ``"x"^^other`` for ``str()``; the plain form for ``=`` —
  joined into the group gives exactly the solutions the filter keeps, found by the object index. The filter stays.
  A case-insensitive test on a label, ``FILTER(LCASE(STR(?l)) = …)`` over ``?x rdfs:label ?l``, gets the labels
  whose lowercase is the text (from a map of the store's labels by lowercase, built once).
- ``OPTIONAL { two or more triple patterns }`` and a ``UNION`` after other patterns are evaluated by pyoxigraph as a
  hash join over every match of their patterns in the whole graph; wrapped in ``LATERAL { … }`` they are evaluated
  once per solution of the left side with its variables bound (SEP-0006), which gives the same solutions when the
  part is plain triple patterns (and, in a union's branch, filters over the branch's own variables).
- Triple patterns after an OPTIONAL move before it (``pipeline.sparql.reorder``).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from pipeline.sparql.brackets import closing, enclosing
from pipeline.sparql.lexer import Token
from pipeline.sparql.parsed import parse
from pipeline.sparql.reorder import triples_before_optionals

Forms = Callable[[str, bool], list[str] | None]  # (text, any datatype or language) -> the store's literal forms
Lowered = Callable[[list[str]], list[str]]  # lowercase texts -> the rdfs:label literals whose lowercase is one
_TRIPLE_KINDS = frozenset({"var", "iri", "pname", "string", "number", "lang"})
_ESCAPES = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}
_ECHAR = re.compile(r"\\(.)")
_LABEL = frozenset({"rdfs:label", "<http://www.w3.org/2000/01/rdf-schema#label>"})


def for_index(query: str, forms: Forms, lowered: Lowered | None = None) -> str:
    """``query`` rewritten so that pyoxigraph's indexes answer its label tests and optional parts."""
    return lateral_optionals(triples_before_optionals(label_values(query, forms, lowered)))


def label_values(query: str, forms: Forms, lowered: Lowered | None = None, label_only: bool = False) -> str:
    """A ``VALUES`` of the store's literal forms before each label equality test whose variable a triple pattern of
    the same group binds (``label_only``: as an ``rdfs:label`` object; no test where ``forms`` gives None); with
    ``lowered``, also before a case-insensitive one on an ``rdfs:label`` object (``FILTER(LCASE(STR(?l)) = "x")``,
    or ``= ?key`` with ``VALUES ?key { … }``)."""
    toks = parse(query).tokens
    inserts: list[tuple[int, str]] = []
    for i, tok in enumerate(toks):
        if tok.kind != "word" or tok.text.upper() != "FILTER" or i + 1 >= len(toks) or toks[i + 1].text != "(":
            continue
        close = closing(toks, i + 1)
        if close is None:
            continue
        group = _group(toks, i)
        test = _equality(toks[i + 2:close])
        found = forms(test[1], test[2]) if test is not None and group is not None \
            and _bound_by_triples(toks, group, test[0], label_only) else None
        if test is not None and found is not None:
            inserts.append((tok.start, f"VALUES {test[0]} {{ {' '.join(found)} }} "))
            continue
        case = _lowercase(toks[i + 2:close], toks, group) if lowered is not None and group is not None else None
        if case is not None and group is not None and lowered is not None \
                and _bound_by_triples(toks, group, case[0], label_only=True):
            inserts.append((tok.start, f"VALUES {case[0]} {{ {' '.join(lowered(case[1]))} }} "))
    for at, text in reversed(inserts):
        query = query[:at] + text + query[at:]
    return query


def _lowercase(inner: Sequence[Token], toks: Sequence[Token], group: tuple[int, int] | None
               ) -> tuple[str, list[str]] | None:
    """(?var, lowercase texts) of ``LCASE(STR(?v)) = "x"`` or ``= ?key`` with a VALUES of texts for ?key."""
    texts = [t.text.upper() if t.kind == "word" else t.text for t in inner]
    if len(inner) != 9 or texts[:4] != ["LCASE", "(", "STR", "("] or texts[5:8] != [")", ")", "="] \
            or inner[4].kind != "var":
        return None
    right = inner[8]
    if right.kind == "var" and group is not None:
        keys = _values_of(toks, group, "?" + right.text[1:])
    else:
        one = _lexical(right)
        keys = None if one is None else [one]
    if keys is None or any(":" in key for key in keys):  # an IRI label's text has a ':'
        return None
    return "?" + inner[4].text[1:], keys


def _equality(inner: Sequence[Token]) -> tuple[str, str, bool] | None:
    """(?var, text, str() used) of ``str(?v) = "text"``, ``?v = "text"`` (either side), else None."""
    texts = [t.text for t in inner]
    if len(texts) == 6 and texts[0].lower() == "str" and texts[1] == "(" and texts[3] == ")" and texts[4] == "=":
        var, lit, any_form = inner[2], inner[5], True
    elif len(texts) == 6 and texts[2] == "=" and texts[3].lower() == "str" and texts[4] == "(" and texts[-1] == ")":
        return None  # "x" = str(?v): rare; left as it is
    elif len(texts) == 3 and texts[1] == "=":
        var, lit, any_form = (inner[0], inner[2], False) if inner[0].kind == "var" else (inner[2], inner[0], False)
    else:
        return None
    text = _lexical(lit)
    if var.kind != "var" or text is None or ":" in text:  # an IRI's text has a ':': str(?iri) could equal it
        return None
    return "?" + var.text[1:], text, any_form


def _lexical(tok: Token) -> str | None:
    """The text of a double-quoted one-line string token, else None (long and single-quoted strings are left)."""
    t = tok.text
    if tok.kind != "string" or len(t) < 2 or t[0] != '"' or t.startswith('"""') or t[-1] != '"':
        return None
    body = t[1:-1]
    if any(m.group(1) not in _ESCAPES for m in _ECHAR.finditer(body)):
        return None
    return _ECHAR.sub(lambda m: _ESCAPES[m.group(1)], body)


def _group(toks: Sequence[Token], i: int) -> tuple[int, int] | None:
    """The braces of the innermost group holding token ``i``."""
    opening = enclosing(toks, i)
    end = closing(toks, opening) if opening is not None else None
    return (opening, end) if opening is not None and end is not None else None


def _bound_by_triples(toks: Sequence[Token], group: tuple[int, int], var: str, label_only: bool = False) -> bool:
    """Whether ``var`` is a term of a triple pattern of the group itself (not of a sub-group, a FILTER, a BIND or
    a VALUES), in a group that is no sub-SELECT's; ``label_only``: the object of an ``rdfs:label`` pattern."""
    j, end = group[0] + 1, group[1]
    found = False
    while j < end:
        t = toks[j]
        if t.text in ("{", "("):
            j = (closing(toks, j) or end) + 1
            continue
        if t.kind == "word" and t.text.upper() == "SELECT":
            return False  # a sub-SELECT's projection and modifiers: not read here
        if t.kind == "word" and t.text.upper() == "VALUES":
            j = _values_end(toks, j, end)
            continue
        if t.kind == "var" and "?" + t.text[1:] == var:
            found = found or not label_only or toks[j - 1].text in _LABEL
        j += 1
    return found


def _values_end(toks: Sequence[Token], j: int, end: int) -> int:
    """The token after the VALUES block starting at ``j``."""
    k = j + 1
    while k < end and toks[k].kind == "var":
        k += 1
    if k < end and toks[k].text == "(":
        k = (closing(toks, k) or end) + 1
    return (closing(toks, k) or end) + 1 if k < end and toks[k].text == "{" else k


def _values_of(toks: Sequence[Token], group: tuple[int, int], var: str) -> list[str] | None:
    """The texts a one-variable ``VALUES var { "a" "b" }`` of the group gives ``var``, else None."""
    for j in range(group[0] + 1, group[1]):
        if toks[j].text.upper() == "VALUES" and j + 2 < group[1] and "?" + toks[j + 1].text[1:] == var \
                and toks[j + 2].text == "{":
            close = closing(toks, j + 2) or group[1]
            texts = [_lexical(t) for t in toks[j + 3:close]]
            return None if any(t is None for t in texts) else [t for t in texts if t is not None]
    return None


def lateral_optionals(query: str) -> str:
    """``OPTIONAL { P }`` as ``LATERAL { OPTIONAL { P } }`` when P is two or more plain triple patterns, and
    ``{ P1 } UNION { P2 } …`` as ``LATERAL { … }`` when each branch is plain triple patterns with filters over its
    own variables only (so the left side's bindings can change no filter's outcome)."""
    toks = parse(query).tokens
    wraps: list[tuple[int, int]] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok.kind == "word" and tok.text.upper() == "OPTIONAL" and i + 1 < len(toks) and toks[i + 1].text == "{":
            close = closing(toks, i + 1)
            if close is None:
                return query
            body = toks[i + 2:close]
            if _plain(body) and sum(t.text in (".", ";") for t in body[:-1]) >= 1:
                wraps.append((tok.start, toks[close].end))
            i = close + 1
            continue
        if tok.text == "{" and i > 0 and toks[i - 1].text not in ("WHERE", "{") and toks[i - 1].kind != "word":
            end = _union_end(toks, i)
            if end is not None:
                wraps.append((tok.start, toks[end].end))
                i = end + 1
                continue
        i += 1
    for start, end in reversed(wraps):
        query = query[:start] + "LATERAL { " + query[start:end] + " }" + query[end:]
    return query


def _plain(body: Sequence[Token]) -> bool:
    return all(t.kind in _TRIPLE_KINDS or t.text in (".", ";", ",", "^^", "a") for t in body)


def _union_end(toks: Sequence[Token], i: int) -> int | None:
    """The closing brace of the last branch of a union of plain branches starting at ``i``, else None."""
    ends: list[int] = []
    j = i
    while True:
        close = closing(toks, j)
        if close is None or not _plain_branch(toks[j + 1:close]):
            return None
        ends.append(close)
        if close + 2 < len(toks) and toks[close + 1].text.upper() == "UNION" and toks[close + 2].text == "{":
            j = close + 2
            continue
        return ends[-1] if len(ends) > 1 else None


def _plain_branch(body: Sequence[Token]) -> bool:
    """Triple patterns and FILTERs whose variables the branch's own patterns bind."""
    triples: list[Token] = []
    filters: list[Token] = []
    k = 0
    while k < len(body):
        if body[k].kind == "word" and body[k].text.upper() == "FILTER" and k + 1 < len(body) \
                and body[k + 1].text == "(":
            close = closing(body, k + 1)
            if close is None:
                return False
            filters += body[k + 2:close]
            k = close + 1
            continue
        triples.append(body[k])
        k += 1
    bound = {t.text[1:] for t in triples if t.kind == "var"}
    return bool(triples) and _plain(triples) and all(t.text[1:] in bound for t in filters if t.kind == "var") \
        and not any(t.kind == "word" and t.text.upper() in ("EXISTS", "BOUND", "NOT") for t in filters)
