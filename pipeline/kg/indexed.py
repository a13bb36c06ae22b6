"""Rewrites that let pyoxigraph answer a query from its indexes instead of scanning, each keeping the query's meaning.

- A label test ``FILTER(str(?l) = "x")`` (or ``?l = "x"``) is a scan of every literal: pyoxigraph evaluates the
  triple pattern binding ``?l`` for all labels, then the filter. When a triple pattern of the same group binds ``?l``
  (so ``?l`` is bound in every solution the filter sees), a ``VALUES ?l { … }`` of the literal forms the store holds
  with that text — ``"x"``, ``"x"^^xsd:string``, ``"x"@en``, ``"x"^^other`` for ``str()``; the plain form for ``=`` —
  joined into the group gives exactly the solutions the filter keeps, found by the object index. The filter stays.
- ``OPTIONAL { two or more triple patterns }`` is evaluated by pyoxigraph as a hash join over every match of its
  patterns in the whole graph; ``LATERAL { OPTIONAL { … } }`` evaluates it once per solution of the left side with
  its variables bound (SEP-0006), which gives the same solutions: an optional part of plain triple patterns is
  matched per left solution either way.
- Triple patterns after an OPTIONAL move before it (``pipeline.sparql.reorder``).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from pipeline.sparql.brackets import closing
from pipeline.sparql.reorder import Span, spans, triples_before_optionals

Forms = Callable[[str, bool], list[str]]  # (text, any datatype or language) -> the literal forms the store holds
_TRIPLE_KINDS = frozenset({"var", "iri", "pname", "string", "number", "lang"})
_ESCAPES = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}
_ECHAR = re.compile(r"\\(.)")


def for_index(query: str, forms: Forms) -> str:
    """``query`` rewritten so that pyoxigraph's indexes answer its label tests and optional parts."""
    return lateral_optionals(triples_before_optionals(label_values(query, forms)))


def label_values(query: str, forms: Forms) -> str:
    """A ``VALUES`` of the store's literal forms before each label equality test whose variable a triple pattern of
    the same group binds."""
    toks = spans(query)
    inserts: list[tuple[int, str]] = []
    for i, tok in enumerate(toks):
        if tok.kind != "word" or tok.text.upper() != "FILTER" or i + 1 >= len(toks) or toks[i + 1].text != "(":
            continue
        close = closing(toks, i + 1)
        test = _equality(toks[i + 2:close]) if close is not None else None
        if test is None:
            continue
        var, text, any_form = test
        group = _group(toks, i)
        if group is None or not _bound_by_triples(toks, group, var):
            continue
        found = forms(text, any_form)
        inserts.append((tok.start, f"VALUES {var} {{ {' '.join(found)} }} "))
    for at, text in reversed(inserts):
        query = query[:at] + text + query[at:]
    return query


def _equality(inner: Sequence[Span]) -> tuple[str, str, bool] | None:
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


def _lexical(tok: Span) -> str | None:
    """The text of a double-quoted one-line string token, else None (long and single-quoted strings are left)."""
    t = tok.text
    if tok.kind != "string" or len(t) < 2 or t[0] != '"' or t.startswith('"""') or t[-1] != '"':
        return None
    body = t[1:-1]
    if any(m.group(1) not in _ESCAPES for m in _ECHAR.finditer(body)):
        return None
    return _ECHAR.sub(lambda m: _ESCAPES[m.group(1)], body)


def _group(toks: Sequence[Span], i: int) -> tuple[int, int] | None:
    """The braces of the innermost group holding token ``i``."""
    depth = 0
    for j in range(i - 1, -1, -1):
        if toks[j].text == "}":
            depth += 1
        elif toks[j].text == "{":
            if depth == 0:
                end = closing(toks, j)
                return (j, end) if end is not None else None
            depth -= 1
    return None


def _bound_by_triples(toks: Sequence[Span], group: tuple[int, int], var: str) -> bool:
    """Whether ``var`` is a term of a triple pattern of the group itself (not of a sub-group, a FILTER, a BIND or
    a VALUES), in a group that is no sub-SELECT's."""
    j, end = group[0] + 1, group[1]
    found = False
    while j < end:
        t = toks[j]
        if t.text in ("{", "("):
            j = (closing(toks, j) or end) + 1
            continue
        if t.kind == "word" and t.text.upper() in ("SELECT", "VALUES", "BIND"):
            return False  # a sub-SELECT's modifiers or an inline binding: not read here
        if t.kind == "var" and "?" + t.text[1:] == var:
            found = True
        j += 1
    return found


def lateral_optionals(query: str) -> str:
    """``OPTIONAL { P }`` as ``LATERAL { OPTIONAL { P } }`` when P is two or more plain triple patterns."""
    toks = spans(query)
    wraps: list[tuple[int, int]] = []
    for i, tok in enumerate(toks):
        if tok.kind != "word" or tok.text.upper() != "OPTIONAL" or i + 1 >= len(toks) or toks[i + 1].text != "{":
            continue
        close = closing(toks, i + 1)
        if close is None:
            return query
        body = toks[i + 2:close]
        plain = all(t.kind in _TRIPLE_KINDS or t.text in (".", ";", ",", "^^", "a") for t in body)
        if plain and sum(t.text in (".", ";") for t in body[:-1]) >= 1:
            wraps.append((tok.start, toks[close].end))
    for start, end in reversed(wraps):
        query = query[:start] + "LATERAL { " + query[start:end] + " }" + query[end:]
    return query
