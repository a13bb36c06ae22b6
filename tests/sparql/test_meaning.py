"""A property: generated queries (joins, OPTIONAL, UNION, MINUS, FILTER, BIND, VALUES, paths, aggregates,
subqueries, blank nodes, literals of every kind) give the same results on a generated graph through the gate and
the formatter as they do as written. Deterministic (derandomised, no example database) and bounded for CI."""
from __future__ import annotations

import pyoxigraph as ox
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.sparql.dialect import normalise
from pipeline.sparql.gate import gate
from pipeline.sparql.grammar import syntax_problem
from pipeline.sparql.layout import layout
from pipeline.sparql.lexer import tokenize
from pipeline.sparql.text import PREFIXES
from standins.solutions import solutions

EX = "http://example.org/"
HEAD = f"PREFIX : <{EX}>\n"
RUNS = settings(max_examples=200, derandomize=True, database=None, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

NODES = [f":n{i}" for i in range(4)]
PREDICATES = [":p0", ":p1", ":p2"]
LITERALS = ['"x"', "'x'", '"""x\ny"""', '"x"@en', '"x"@en-GB', '"tab\\tquote\\"é\\u00e9"', f'"1"^^<{EX}dt>',
            '"1"^^xsd:integer', "1", "-1", "+2", "2.5", "-0.5", "1e3", "true", '"\u0007\ue000"', "''"]
VARS = ["?a", "?b", "?c", "?d"]
PATHS = [":p0+", "^:p1", ":p0/:p1", "(:p0|:p2)*", "!(:p0|^:p1)", ":p1?", "^(:p0/:p2)", ":p2*"]
SEPARATORS = [" ", "  ", "\n", "\t", " # note { DELETE }\n"]


@st.composite
def graphs(draw: st.DrawFn) -> str:
    subjects = NODES + ["_:g0", "_:g1"]
    objects = NODES + ["_:g0"] + LITERALS
    triples = draw(st.lists(st.tuples(st.sampled_from(subjects), st.sampled_from(PREDICATES),
                                      st.sampled_from(objects)), min_size=3, max_size=14))
    return "".join(f"{s} {p} {o} .\n" for s, p, o in triples)


class _Names:
    def __init__(self) -> None:
        self.n = 0

    def fresh(self, stem: str) -> str:
        self.n += 1
        return f"?{stem}{self.n}"


def _term(draw: st.DrawFn, where: str, names: _Names) -> list[str]:
    """A term; a blank node label is new each time (one label in two basic graph patterns is an error)."""
    if where == "p":
        return [draw(st.sampled_from(PREDICATES + PATHS + ["?p", "a"]))]
    term = draw(st.sampled_from(VARS + NODES + (["_:y", "[]"] if where == "s" else LITERALS + ["_:y"])))
    return ["_:" + names.fresh("y")[1:] if term == "_:y" else term]


def _expr(draw: st.DrawFn) -> list[str]:
    a, b = draw(st.sampled_from(VARS)), draw(st.sampled_from(VARS))
    lit = draw(st.sampled_from(LITERALS))
    return draw(st.sampled_from([
        [a, "=", draw(st.sampled_from(NODES))], [a, ">", "-1"], [a, "!=", b], ["isLiteral", "(", a, ")"],
        ["BOUND", "(", b, ")"], ["!", "BOUND", "(", b, ")"], ["REGEX", "(", "STR", "(", a, ")", ",", '"n[0-2]"', ",",
                                                            '"i"', ")"],
        [a, "IN", "(", NODES[0], ",", "1", ",", lit, ")"], ["LANG", "(", a, ")", "=", '"en"'],
        ["DATATYPE", "(", a, ")", "=", "xsd:integer"], ["STRLEN", "(", "STR", "(", a, ")", ")", ">=", "2", "||",
                                                         b, "<", "2.5"],
        [a, "=", lit], [a, "-", "1", ">", "0"],
    ]))


def _group(draw: st.DrawFn, names: _Names, depth: int) -> list[str]:
    out = ["{"]
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["triple", "triple", "optional", "union", "minus", "filter", "bind", "values",
                                     "exists", "subquery"] if depth < 2 else ["triple", "filter", "bind"]))
        if kind == "triple":
            out += _term(draw, "s", names) + _term(draw, "p", names) + _term(draw, "o", names)
            if draw(st.booleans()):
                out += [";"] + _term(draw, "p", names) + _term(draw, "o", names)
        elif kind in ("optional", "minus"):
            out += [kind.upper()] + _group(draw, names, depth + 1)
        elif kind == "union":
            out += _group(draw, names, depth + 1) + ["UNION"] + _group(draw, names, depth + 1)
        elif kind == "filter":
            out += ["FILTER", "("] + _expr(draw) + [")"]
        elif kind == "exists":
            out += ["FILTER", draw(st.sampled_from(["EXISTS", "NOT EXISTS"]))] + _group(draw, names, depth + 1)
        elif kind == "bind":
            out += ["BIND", "("] + _expr(draw) + ["AS", names.fresh("z"), ")"]
        elif kind == "values":
            out += ["VALUES", "(", "?a", "?b", ")", "{", "(", NODES[0], draw(st.sampled_from(LITERALS)), ")",
                    "(", "UNDEF", NODES[1], ")", "}"]
        else:
            count = names.fresh("k")
            out += ["{", "SELECT", "?a", "(", "COUNT", "(", "*", ")", "AS", count, ")", "WHERE"] \
                + _group(draw, names, depth + 1) + ["GROUP", "BY", "?a", "}"]
        out.append("." if kind == "triple" else draw(st.sampled_from([".", ""])))
    if out[-1] == "." and draw(st.booleans()):
        out.pop()  # the last triple of a group needs no '.'
    return [t for t in out if t] + ["}"]


@st.composite
def queries(draw: st.DrawFn) -> str:
    names = _Names()
    where = _group(draw, names, 0)
    form = draw(st.sampled_from(["star", "distinct", "aggregate", "ask", "ordered"]))
    if form == "star":
        toks = ["SELECT", "*", "WHERE"] + where
    elif form == "distinct":
        toks = ["SELECT", "DISTINCT", "?a", "?b", "WHERE"] + where
    elif form == "aggregate":
        toks = ["SELECT", "?a", "(", "COUNT", "(", "DISTINCT", "?b", ")", "AS", "?n", ")", "(", "MAX", "(", "?c",
                ")", "AS", "?m", ")", "WHERE"] + where + ["GROUP", "BY", "?a", "HAVING", "(", "COUNT", "(", "*", ")",
                                                         ">", "0", ")"]
    elif form == "ask":
        toks = ["ASK"] + where
    else:
        toks = ["SELECT", "?a", "?b", "WHERE"] + where + ["ORDER", "BY", "DESC", "(", "?a", ")", "?b",
                                                          "VALUES", "?a", "{", NODES[0], "UNDEF", "}"]
    seps = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(toks), max_size=len(toks)))
    return HEAD + "".join(t + s for t, s in zip(toks, seps))


_STORES: dict[str, ox.Store] = {}


def results(graph: str, query: str) -> object:
    """The query's solutions (a multiset) on the graph; one store per graph, so its blank nodes keep their names."""
    store = _STORES.get(graph)
    if store is None:
        _STORES.clear()
        store = _STORES[graph] = ox.Store()
        store.load(f"@prefix : <{EX}> . @prefix xsd: <{PREFIXES['xsd']}> .\n{graph}".encode(), ox.RdfFormat.TURTLE)
    return solutions(store, query)


@RUNS
@given(graphs(), queries())
def test_gate_and_layout_keep_what_a_query_means(graph: str, query: str) -> None:
    assert syntax_problem(query, PREFIXES) is None, query  # the generator writes SPARQL 1.1 only
    expected = results(graph, query)
    check = gate(query, 100_000)
    assert check.ok and check.warnings == (), (query, check)
    assert results(graph, check.fixed) == expected
    for source in (check.fixed, query):
        shown = layout(source)
        assert "\n" in shown  # laid out, not the fallback (a layout whose tokens differ is never shown)
        assert [(t.kind, t.text) for t in tokenize(shown)] == [(t.kind, t.text) for t in tokenize(source)]
        assert results(graph, shown) == expected


@RUNS
@given(graphs(), st.sampled_from(VARS[:2]), st.sampled_from(VARS[2:]), st.booleans())
def test_virtuosos_dialect_means_what_virtuoso_reads(graph: str, x: str, y: str, count: bool) -> None:
    where = f"WHERE {{ {x} :p0 ?o . OPTIONAL {{ {y} ?p {x} }} }}"
    if count:  # `SELECT ?x COUNT(?y)`: Virtuoso groups by the plain variables
        dialect, standard = (f"SELECT {x} COUNT({y}) {where}",
                             f"SELECT {x} (COUNT({y}) AS ?n) {where} GROUP BY {x}")
    else:
        dialect, standard = f"SELECT DISTINCT {x}, {y} {where}", f"SELECT DISTINCT {x} {y} {where}"
    made = normalise(HEAD + dialect)
    assert made.applied and results(graph, made.query) == results(graph, HEAD + standard)
    assert results(graph, gate(HEAD + dialect, 1000).fixed) == results(graph, HEAD + standard)
