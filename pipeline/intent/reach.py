"""How each kind of thing on a leaderboard reaches a paper's contribution, in one table, and the questions compiled
from it for every two kinds: the one with the most (or the fewest) of another ('the field with the most datasets',
ties kept), those with more (or fewer) than a number of another, how many of one each has or a named one has,
and which. Written as intent pairs (invented questions, invented names in their slots) beside those of pairs.txt,
so the composer holds a question against them the same way; a pair of pairs.txt asking the same comes first and
wins a tie."""
from __future__ import annotations

import re
from functools import lru_cache
from itertools import permutations
from typing import NamedTuple

from pipeline.records import Example, Kind
from pipeline.sparql.tied import TIED


class _Reach(NamedTuple):
    kind: Kind
    noun: str  # one of them, as a question says it
    nouns: str
    var: str  # its variable in the compiled query
    path: tuple[str, ...]  # the triples from a contribution ``?cont`` to it
    example: str  # an invented name of one, for a pair's slot

    @property
    def klass(self) -> str:
        return self.kind.orkg_class


_REACH = (  # every kind of a leaderboard, once
    _Reach(Kind.MODEL, "model", "models", "model", ("?cont orkgp:HAS_MODEL ?model",), "Quillon-7B"),
    _Reach(Kind.DATASET, "dataset", "datasets", "dataset",
           ("?cont orkgp:HAS_BENCHMARK ?benchmark", "?benchmark orkgp:HAS_DATASET ?dataset"), "Marrow Sets v2"),
    _Reach(Kind.METRIC, "metric", "metrics", "metric",
           ("?cont orkgp:HAS_BENCHMARK ?benchmark", "?benchmark orkgp:HAS_EVALUATION ?eval",
            "?eval orkgp:HAS_METRIC ?metric"), "Tidal Recall"),
    _Reach(Kind.PROBLEM, "research problem", "research problems", "problem", ("?cont orkgp:P32 ?problem",),
           "Tide Forecasting"),
    _Reach(Kind.PAPER, "paper", "papers", "paper", ("?paper orkgp:P31 ?cont",),
           "Reading tide gauges with transformers"),
    _Reach(Kind.RESEARCHFIELD, "research field", "research fields", "field",
           ("?paper orkgp:P31 ?cont", "?paper orkgp:P30 ?field"), "Coastal Science"),
    _Reach(Kind.VENUE, "venue", "venues", "venue", ("?paper orkgp:P31 ?cont", "?paper orkgp:HAS_VENUE ?venue"),
           "Journal of Tides"),
)


_CONTRIBUTED = "?paper orkgp:P31 ?cont"


def _body(one: _Reach, other: _Reach, prefix: str = "") -> str:
    """The triples linking ``one`` to ``other`` through a contribution, each once; ``prefix`` renames every
    variable (a sub-select's own)."""
    triples = list(dict.fromkeys(one.path + other.path))
    if not any("?cont" in t for t in triples if t != _CONTRIBUTED):  # paper to venue or field: no contribution
        triples = [t for t in triples if t != _CONTRIBUTED]
    body = " ".join(f"{t}." for t in triples)
    return _renamed(body, prefix) if prefix else body


def _named(one: _Reach) -> str:
    v = one.var
    return f'?{v} a orkgc:{one.klass}; rdfs:label ?{v}_lbl. FILTER(str(?{v}_lbl) = "{one.example}")'


def _ranked(one: _Reach, other: _Reach, most: bool) -> Example:
    """The ``one`` with the most (fewest) ``other``: every one tied there, with the count (of those with any: one
    with none is not counted)."""
    v, w, agg = one.var, other.var, "MAX" if most else "MIN"
    counted = f"?{w}s"
    sub = (f"{{ SELECT ({agg}(?{TIED}_count) AS ?{TIED}) WHERE {{ {{ SELECT ?{TIED}_{v} "
           f"(COUNT(DISTINCT ?{TIED}_{w}) AS ?{TIED}_count) WHERE {{ ?{TIED}_{v} a orkgc:{one.klass}. "
           f"{_body(one, other, TIED + '_')} }} GROUP BY ?{TIED}_{v} }} }} }}")
    sparql = (f"SELECT ?{v} ?{v}_lbl (COUNT(DISTINCT ?{w}) AS {counted}) WHERE {{\n"
              f"  ?{v} a orkgc:{one.klass}; rdfs:label ?{v}_lbl. {_body(one, other)}\n  {sub} }}\n"
              f"GROUP BY ?{v} ?{v}_lbl ?{TIED} HAVING(COUNT(DISTINCT ?{w}) = ?{TIED}) "
              f"ORDER BY {'DESC' if most else 'ASC'}({counted})")
    word = "most" if most else "fewest"
    return Example(f"IP-reach-{v}-{word}-{w}s", f"Name the {one.noun} with the {word} {other.nouns}.", sparql,
                   source="intent")


def _counted(one: _Reach, other: _Reach) -> Example:
    """How many ``other`` the named ``one`` has."""
    v, w = one.var, other.var
    sparql = (f"SELECT (COUNT(DISTINCT ?{w}) AS ?{w}s) WHERE {{\n  {_named(one)}\n  {_body(one, other)} }}")
    return Example(f"IP-reach-count-{v}-{w}s", f"How many {other.nouns} does the {one.example} {one.noun} have?",
                   sparql, source="intent")


def _listed(one: _Reach, other: _Reach) -> Example:
    """The ``other`` the named ``one`` has."""
    v, w = one.var, other.var
    sparql = (f"SELECT DISTINCT ?{w}_lbl WHERE {{\n  {_named(one)}\n  {_body(one, other)} "
              f"?{w} a orkgc:{other.klass}; rdfs:label ?{w}_lbl. }}")
    return Example(f"IP-reach-{v}-{w}s", f"Which {other.nouns} does the {one.example} {one.noun} have?", sparql,
                   source="intent")


def _counted_each(one: _Reach, other: _Reach) -> str:
    """Each ``one`` with how many ``other`` it has, grouped (what a bound or an order is put after)."""
    v, w = one.var, other.var
    return (f"SELECT ?{v}_lbl (COUNT(DISTINCT ?{w}) AS ?{w}s) WHERE {{\n  ?{v} a orkgc:{one.klass}; "
            f"rdfs:label ?{v}_lbl. {_body(one, other)} }}\nGROUP BY ?{v} ?{v}_lbl")


def _having(one: _Reach, other: _Reach) -> Example:
    """The ``one`` with more than a number of ``other`` (the question's own bound put in when filled: 'at least 3',
    'fewer than 2'), each with its count."""
    sparql = f"{_counted_each(one, other)} HAVING(COUNT(DISTINCT ?{other.var}) > 2)"
    return Example(f"IP-reach-{one.var}-beyond-{other.var}s", f"Which {one.nouns} have more than 2 {other.nouns}?",
                   sparql, source="intent")


def _each(one: _Reach, other: _Reach) -> Example:
    """How many ``other`` each ``one`` has ('papers per research field'), most first."""
    sparql = f"{_counted_each(one, other)} ORDER BY DESC(?{other.var}s)"
    return Example(f"IP-reach-each-{one.var}-{other.var}s", f"How many {other.nouns} are there for each {one.noun}?",
                   sparql, source="intent")


def _renamed(text: str, prefix: str, keep: str = "") -> str:
    """``text`` with every variable but ``?keep`` renamed with ``prefix`` (a second path of its own)."""
    return re.sub(r"\?(\w+)", lambda m: m.group() if m.group(1) == keep else f"?{prefix}{m.group(1)}", text)


def _both(one: _Reach, other: _Reach) -> Example:
    """The ``one`` that have both of two named ``other`` (each through a contribution of its own)."""
    v, w = one.var, other.var
    second = f"{other.example} Mini"
    sparql = (f"SELECT DISTINCT ?{v}_lbl WHERE {{\n  {_named(other)}\n  "
              f"{_renamed(_named(other), 'other_').replace(other.example, second)}\n  "
              f"{_body(one, other)} {_renamed(_body(one, other), 'other_', v)}\n  ?{v} rdfs:label ?{v}_lbl. }}")
    return Example(f"IP-reach-{v}-both-{w}s", f"Name the {one.nouns} with both {other.example} and {second} as "
                   f"{other.nouns}.", sparql, source="intent")


def _without(one: _Reach, other: _Reach) -> Example:
    """The ``one`` that have no ``other`` at all ('papers with no model': surveys)."""
    v, w = one.var, other.var
    sparql = (f"SELECT DISTINCT ?{v}_lbl WHERE {{\n  ?{v} a orkgc:{one.klass}; rdfs:label ?{v}_lbl.\n"
              f"  FILTER NOT EXISTS {{ {_renamed(_body(one, other), 'none_', v)} }} }}")
    return Example(f"IP-reach-{v}-no-{w}s", f"Which {one.nouns} have no {other.nouns} at all?", sparql,
                   source="intent")


def _except(one: _Reach, scope: _Reach, other: _Reach) -> Example:
    """The ``one`` of a named ``scope`` that no contribution links to a named ``other`` ('the origami models never
    run on X', 'the field's papers not at venue V')."""
    v = one.var
    sparql = (f"SELECT DISTINCT ?{v}_lbl WHERE {{\n  {_named(scope)}\n  {_body(one, scope)} ?{v} rdfs:label ?{v}_lbl.\n"
              f"  FILTER NOT EXISTS {{ {_renamed(_named(other), 'other_')} "
              f"{_renamed(_body(one, other), 'other_', v)} }} }}")
    return Example(f"IP-reach-{v}-of-{scope.var}-not-{other.var}",
                   f"Which {one.nouns} of the {scope.example} {scope.noun} were never linked to the {other.example} "
                   f"{other.noun}?", sparql, source="intent")


def _other_than(one: _Reach, scope: _Reach) -> Example:
    """The ``one`` of a named ``scope`` other than a named one and its variants ('models other than the WeaveNet
    ones': not 'WeaveNet-v2' either; 'WeaveNetX' is another name)."""
    v = one.var
    sparql = (f"SELECT DISTINCT ?{v}_lbl WHERE {{\n  {_named(scope)}\n  {_body(one, scope)} ?{v} rdfs:label ?{v}_lbl.\n"
              f'  FILTER(!STRSTARTS(str(?{v}_lbl), "{one.example}") || '
              f'REGEX(SUBSTR(str(?{v}_lbl), STRLEN("{one.example}") + 1, 1), "[A-Za-z0-9]")) }}')
    return Example(f"IP-reach-{v}-of-{scope.var}-other-than", f"Which {one.nouns} of the {scope.example} "
                   f"{scope.noun} are there other than {one.example}?", sparql, source="intent")


# the kinds a but-not question asks for ('models', 'datasets', 'metrics', 'papers', 'research problems')
_EXCEPTED = (Kind.MODEL, Kind.DATASET, Kind.METRIC, Kind.PAPER, Kind.PROBLEM)


@lru_cache(maxsize=1)
def reach_pairs() -> tuple[Example, ...]:
    """Every pair compiled from the table, for every two kinds of it (and three, for a but-not)."""
    out: list[Example] = []
    for one, other in permutations(_REACH, 2):
        out += [_ranked(one, other, True), _ranked(one, other, False), _counted(one, other), _listed(one, other),
                _having(one, other), _each(one, other), _both(one, other), _without(one, other)]
        if one.kind in _EXCEPTED:
            out.append(_other_than(one, other))
    out += [_except(one, scope, other) for one, scope, other in permutations(_REACH, 3) if one.kind in _EXCEPTED]
    return tuple(out)
