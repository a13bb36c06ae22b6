"""The shape of a SPARQL query read from its tokens: triple patterns, label filters, projection, ordering, limits,
offsets.

A lenient reader (no full parse, never raises): enough to say what a query asks and which class each label literal
names. Works on malformed model output too; what it cannot read it leaves out."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from pipeline.records import REACHED_BY
from pipeline.sparql.lexer import Token, literal_text
from pipeline.sparql.literal import quoted
from pipeline.sparql.parsed import AGGREGATES, parse

_BLOCK_WORDS = frozenset({"OPTIONAL", "UNION", "MINUS", "GRAPH", "SERVICE", "WHERE", "SELECT", "DISTINCT", "REDUCED",
                          "GROUP", "ORDER", "BY", "HAVING", "LIMIT", "OFFSET", "VALUES", "ASK", "BIND", "FILTER",
                          "ASC", "DESC", "AS", "PREFIX", "BASE"})
_LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')


@dataclass(frozen=True)
class LabelFilter:
    """A FILTER comparing a variable with a string: ``str(?x_lbl) = "X"`` (op ``=``) or ``regex(?x, "X")``."""

    var: str
    op: str  # "=", "regex", "!=", "!^" (nor a variant of it), "<", ">", "<=", ">="
    literal: str


@dataclass
class Shape:
    """What a query is made of, in reading order."""

    form: str = ""  # SELECT or ASK (or whatever keyword leads)
    projection: list[str] = field(default_factory=list)  # outer variables, aliases included
    aggregates: list[tuple[str, str, str]] = field(default_factory=list)  # (function, argument var, alias)
    gaps: set[str] = field(default_factory=set)  # aliases of the highest less the lowest: '(MAX(?s) - MIN(?s) AS ?gap)'
    triples: list[tuple[str, str, str]] = field(default_factory=list)
    filters: list[LabelFilter] = field(default_factory=list)
    compared: list[LabelFilter] = field(default_factory=list)  # with a number: 'xsd:integer(?year) > 2023'
    order: list[tuple[str, str]] = field(default_factory=list)  # (ASC|DESC, var or aggregate text)
    limits: list[int] = field(default_factory=list)
    offsets: list[int] = field(default_factory=list)
    group_by: list[str] = field(default_factory=list)
    excluded: list[LabelFilter] = field(default_factory=list)  # of ``filters``, ``compared``: in NOT EXISTS / MINUS
    lacking: list[tuple[str, str, str]] = field(default_factory=list)  # of ``triples``: in NOT EXISTS / MINUS

    def classes(self) -> dict[str, str]:
        """Variable -> the local name of its ``a``/``rdf:type`` class."""
        out: dict[str, str] = {}
        for s, p, o in self.triples:
            if p in ("a", "rdf:type") and ":" in o:
                out.setdefault(s, o.split(":", 1)[1])
        return out

    def labelled(self) -> dict[str, str]:
        """Label variable -> the variable it labels (``?x rdfs:label ?x_lbl``)."""
        return {o: s for s, p, o in self.triples if p == "rdfs:label" and o.startswith("?")}

    def kind_of_var(self, var: str) -> str:
        """The class of a variable (or of the thing it labels), else the variable's stem, lowercased."""
        subject = self.labelled().get(var, var)
        return (self.classes().get(subject) or stem(subject)).lower()

    def kind_of_literal(self, literal: str) -> str:
        """The class (or, failing that, the variable's stem) of the thing a label literal names; "" if unknown. A
        label written as a triple (``?d rdfs:label "X"``) names a thing of its class, else of the kind the ORKG
        predicate that reaches it gives (``?b orkgp:HAS_DATASET ?d``: a dataset)."""
        for f in self.filters:
            if f.literal == literal:
                return self.kind_of_var(f.var)
        for s, p, o in self.triples:
            if p == "rdfs:label" and o[1:-1] == literal and o[:1] in "\"'" and s.startswith("?"):
                reached = {REACHED_BY[p2] for _, p2, o2 in self.triples if o2 == s and p2 in REACHED_BY}
                cls = self.classes().get(s)
                return cls.lower() if cls else next(iter(reached)) if len(reached) == 1 else ""
        return ""


def stem(var: str) -> str:
    """``?dataset_lbl`` -> ``dataset``; ``?research_problems_labels`` -> ``research_problems``."""
    name = var.lstrip("?$")
    for suffix in ("_labels", "_label", "_lbl", "_name", "_title"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _closing(toks: Sequence[Token], i: int) -> int:
    """Index of the ')' matching the '(' at ``i`` (or the last token)."""
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].text == "(":
            depth += 1
        elif toks[j].text == ")":
            depth -= 1
            if depth == 0:
                return j
    return len(toks) - 1


def _read_filter(toks: Sequence[Token], start: int, end: int, shape: Shape) -> None:
    inner = toks[start:end + 1]
    strings = [t for t in inner if t.kind == "string"]
    var = next((t.text for t in inner if t.kind == "var"), "")
    numbers = [t for t in inner if t.kind == "number"]
    compares = [t.text for t in inner if t.text in ("<", ">", "<=", ">=")]
    if var and numbers and compares and not strings:  # each end of a range ('?s >= 0.8 && ?s <= 0.85')
        shape.compared += [LabelFilter(var, op, n.text) for op, n in zip(compares, numbers)]
    if not strings or not var:
        return
    words = {t.text.upper() for t in inner if t.kind == "word"}
    ops = [t.text for t in inner if t.text in ("=", "!=", "<", ">", "<=", ">=")]
    op = "regex" if "REGEX" in words or "CONTAINS" in words else (ops[0] if ops else "=")
    if "STRSTARTS" in words and len(inner) > 1 and inner[1].text == "!":
        op = "!^"  # not it nor a variant of it ('WeaveNet', 'WeaveNet++'): ``intent.reach._other_than``
    shape.filters.append(LabelFilter(var, op, literal_text(strings[0].text)))


def _read_projection(toks: Sequence[Token], i: int, shape: Shape) -> int:
    """Read the outer SELECT's variables and aggregates; returns the index after them."""
    while i < len(toks) and toks[i].text != "{" and toks[i].text.upper() != "WHERE":
        t = toks[i]
        if t.kind == "var":
            shape.projection.append(t.text)
        elif t.text == "(":
            end = _closing(toks, i)
            inner = toks[i + 1:end]
            func = next((x.text.upper() for x in inner if x.text.upper() in AGGREGATES), "")
            arg = next((x.text for x in inner if x.kind == "var"), "*")
            alias = inner[-1].text if len(inner) >= 2 and inner[-2].text.upper() == "AS" else ""
            if func:
                shape.aggregates.append((func, arg, alias))
                if alias and any(x.text == "-" for x in inner) and \
                        [x.text.upper() for x in inner if x.text.upper() in AGGREGATES] == ["MAX", "MIN"]:
                    shape.gaps.add(alias)
            if alias:
                shape.projection.append(alias)
            i = end
        i += 1
    return i


def read(query: str) -> Shape:
    """The shape of ``query``; best effort on malformed text."""
    toks = parse(query).tokens
    shape = Shape()
    i, n = 0, len(toks)
    subject = predicate = ""
    expect = "s"
    depth, negated, pending = 0, [], False  # the depths of the blocks FILTER NOT EXISTS / MINUS open
    while i < n:
        t = toks[i]
        up = t.text.upper() if t.kind == "word" else ""
        if t.text == "{":
            depth += 1
            if pending:
                negated.append(depth)
                pending = False
        elif t.text == "}":
            if negated and negated[-1] == depth:
                negated.pop()
            depth -= 1
        elif up == "MINUS" or (up == "FILTER" and i + 1 < n and toks[i + 1].text.upper() == "NOT"):
            pending = True
        if up == "PREFIX":
            i += 3
            continue
        if up in ("SELECT", "ASK", "CONSTRUCT", "DESCRIBE") and not shape.form:
            shape.form = up
            if up == "SELECT":
                i = _read_projection(toks, i + 1, shape)
                continue
        elif up == "SELECT":  # a subquery: its projection is not the answer
            while i < n and toks[i].text != "{":
                i += 1
            continue
        elif up in ("FILTER", "BIND") and i + 1 < n and toks[i + 1].text == "(":
            end = _closing(toks, i + 1)
            if up == "FILTER":
                before, compared = len(shape.filters), len(shape.compared)
                _read_filter(toks, i + 1, end, shape)
                if negated:
                    shape.excluded += shape.filters[before:] + shape.compared[compared:]
            i, expect = end + 1, "s"
            continue
        elif up == "ORDER" or up == "GROUP":
            i += 2  # ORDER BY / GROUP BY
            while i < n and (toks[i].kind == "var" or toks[i].text.upper() in ("ASC", "DESC") or toks[i].text == "("):
                if toks[i].kind == "var" and up == "GROUP":
                    shape.group_by.append(toks[i].text)
                elif toks[i].kind == "var":
                    shape.order.append(("ASC", toks[i].text))
                elif toks[i].text.upper() in ("ASC", "DESC") or toks[i].text == "(":
                    direction = "ASC" if toks[i].text == "(" else toks[i].text.upper()
                    start = i + 1 if toks[i].text == "(" else i + 2
                    end = _closing(toks, start - 1)
                    shape.order.append((direction, " ".join(x.text for x in toks[start:end])))
                    i = end
                i += 1
            expect = "s"
            continue
        elif up in ("LIMIT", "OFFSET") and i + 1 < n and toks[i + 1].kind == "number":
            (shape.limits if up == "LIMIT" else shape.offsets).append(int(float(toks[i + 1].text)))
            i += 2
            continue
        elif t.text in ("{", "}", "[", "]") or up in _BLOCK_WORDS or t.text == ".":
            expect = "s"
        elif t.text == ";":
            expect = "p"
        elif t.text == ",":
            expect = "o"
        elif t.kind in ("var", "pname", "iri", "string", "number") or t.text == "a":
            if expect == "s":
                subject, expect = t.text, "p"
            elif expect == "p":
                predicate, expect = t.text, "o"
            else:
                shape.triples.append((subject, predicate, t.text))
                if negated:
                    shape.lacking.append(shape.triples[-1])
                expect = "done"
        i += 1
    return shape


def replace_literals(sparql: str, values: dict[str, str]) -> str:
    """Rewrite the query's string literals whose content is a key of ``values``; everything else stays."""
    out: list[str] = []
    pos = 0
    for m in _LITERAL.finditer(sparql):
        body = m.group()[1:-1]
        if body in values:
            out.append(sparql[pos:m.start()])
            out.append(quoted(values[body]))
            pos = m.end()
    out.append(sparql[pos:])
    return "".join(out)
