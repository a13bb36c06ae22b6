"""A deterministic one-sentence reading of what a SPARQL query asks, built from the query's own shape: what it
returns, which labelled things constrain it and through which predicates, and how it orders, limits or aggregates.
Generic over structure: it knows ORKG's predicates and classes by name, never a question template."""
from __future__ import annotations

import re
from collections import deque

from pipeline.records import Kind
from pipeline.sparql.direction import lower_is_better
from pipeline.sparql.shape import LabelFilter, Shape, read, stem
from pipeline.sparql.tied import best_of_each, tied, untied

# what a thing is called, by its class or by the predicate that leads to it
CLASS_NOUNS = {Kind.DATASET: "datasets", Kind.MODEL: "models", Kind.METRIC: "metrics",
               Kind.PROBLEM: "research problems", Kind.RESEARCHFIELD: "research fields", Kind.PAPER: "papers",
               Kind.VENUE: "venues", "benchmark": "benchmarks"}
INCOMING_NOUNS = {"HAS_MODEL": "models", "HAS_SOURCE_CODE": "code links", "HAS_METRIC": "metrics",
                  "HAS_DATASET": "datasets", "P32": "research problems", "P30": "research fields",
                  "HAS_VALUE": "scores", "HAS_BENCHMARK": "benchmarks", "HAS_EVALUATION": "evaluations",
                  "P31": "contributions", "P27": "authors", "HAS_VENUE": "venues"}
OUTGOING_NOUNS = {"P31": "papers", "P27": "papers", "P30": "papers", "P29": "papers", "HAS_VENUE": "papers"}
# how a constraint reached through a predicate reads, by that predicate (the one next to the constrained thing)
CONNECTORS = {"HAS_DATASET": "evaluated on {what}", "HAS_MODEL": "of papers that use {what}",
              "P32": "benchmarked for {what}", "P30": "in {what}", "HAS_METRIC": "measured by {what}",
              "P31": "of {what}", "P27": "by {what}", "HAS_VENUE": "published at {what}"}
FIRST_AND_LAST = {("HAS_METRIC", "HAS_DATASET"): "used to evaluate models on {what}"}  # (answer side, far side)
SINGULAR = {"datasets": "dataset", "models": "model", "metrics": "metric", "research problems": "research problem",
            "research fields": "research field", "papers": "paper", "benchmarks": "benchmark", "scores": "score",
            "authors": "author", "code links": "code link", "values": "value", "venues": "venue",
            "contributions": "contribution"}
_RESTRICTED = {"HAS_SOURCE_CODE": "published code", "HAS_VENUE": "a venue"}  # a restriction to things having one or not
# the things a query's answers may have none of, at all ('FILTER NOT EXISTS { ?paper orkgp:P31 ?c. ?c
# orkgp:HAS_MODEL ?m. }': without a model), each said by its noun (INCOMING_NOUNS)
_NONE_OF = ("HAS_MODEL", "HAS_DATASET", "HAS_METRIC", "P32", "P30", "P31")
_HAVING_BOUND = re.compile(r"\bHAVING\s*\(\s*COUNT\s*\([^)]*\)\s*(>=|<=|>|<|=)\s*(\d+(?:\.\d+)?)\s*\)", re.I)
COMPARISONS = {"<": "below", ">": "above", "<=": "at most", ">=": "at least"}
ROW_CAP_LIMIT = 100  # larger LIMITs are row caps, not part of the question
AGGREGATE_WORDS = {"COUNT": "the number of", "SUM": "the total of", "AVG": "the average of", "MIN": "the lowest of",
                   "MAX": "the highest of", "SAMPLE": "one of"}


def _local(term: str) -> str:
    return term.split(":", 1)[1] if ":" in term and not term.startswith("?") else term


def _noun(var: str, shape: Shape) -> str:
    """What a variable stands for, in plain words (plural)."""
    classes = shape.classes()
    var = shape.labelled().get(var, var)
    if var in classes:
        return CLASS_NOUNS.get(classes[var].lower(), classes[var])
    for _, p, o in shape.triples:
        if o == var and _local(p) in INCOMING_NOUNS:
            return INCOMING_NOUNS[_local(p)]
    for s, p, _ in shape.triples:
        if s == var and _local(p) in OUTGOING_NOUNS:
            return OUTGOING_NOUNS[_local(p)]
    return stem(var).replace("_", " ").strip() or "values"


def _path(shape: Shape, start: str, goal: str) -> list[str]:
    """Predicates on the shortest path between two variables in the query's triple graph (either direction)."""
    edges: dict[str, list[tuple[str, str]]] = {}
    for s, p, o in shape.triples:
        if p in ("a", "rdf:type", "rdfs:label"):
            continue
        edges.setdefault(s, []).append((o, _local(p)))
        edges.setdefault(o, []).append((s, _local(p)))
    seen = {start}
    queue: deque[tuple[str, list[str]]] = deque([(start, [])])
    while queue:
        node, preds = queue.popleft()
        if node == goal:
            return preds
        for nxt, pred in edges.get(node, []):
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, preds + [pred]))
    return []


def _answer(shape: Shape) -> tuple[str, str]:
    """(what the query returns, its main variable); of an ASK, the labelled things no name is given for ('whether
    there are papers …')."""
    labelled = shape.labelled()
    if shape.form == "ASK" and not shape.projection:
        named = {f.var for f in shape.filters}
        things = [thing for label, thing in labelled.items() if label not in named and thing not in named]
        if things:
            return _noun(things[0], shape), things[0]
    aliases = {alias for _, _, alias in shape.aggregates}
    main = [v for v in shape.projection if v not in aliases and not (v in labelled and labelled[v] in shape.projection)]
    nouns = list(dict.fromkeys(_noun(v, shape) for v in main))
    parts = [" and ".join(nouns)] if nouns else []
    for func, arg, alias in ([] if nouns and shape.group_by else shape.aggregates):  # grouped: read per group
        noun = _noun(arg, shape) if arg != "*" else "rows"
        if alias in shape.gaps:  # '(MAX(?score) - MIN(?score))'
            parts.append(f"the difference between the highest and the lowest {noun}")
            continue
        if noun == "year" and func.upper() in ("MIN", "MAX"):  # the first or the last year, not its lowest
            parts.append(f"the {'earliest' if func.upper() == 'MIN' else 'latest'} year")
            continue
        parts.append(f"{AGGREGATE_WORDS.get(func, func.lower())} {noun}")
    if len(parts) == 2 and parts[0].split()[-1] == parts[1].split()[-1]:  # 'the lowest and the highest score'
        parts = [" ".join(parts[0].split()[:-2]) + " and " + parts[1].replace(" of ", " ")]
    return ", ".join(parts) or "results", (main[0] if main else (shape.aggregates[0][1] if shape.aggregates else ""))


def _per_group(shape: Shape) -> str:
    """', each with its highest score' for a query that groups its answers and aggregates within each group."""
    if not shape.group_by or not shape.aggregates or not shape.projection:
        return ""
    func, arg, _ = shape.aggregates[0]
    noun = _noun(arg, shape)
    word = {"MAX": "its highest", "MIN": "its lowest", "COUNT": "its number of", "AVG": "its average",
            "SUM": "its total"}.get(func, func.lower())
    return f", each with {word} {SINGULAR.get(noun, noun) if func in ('MAX', 'MIN', 'AVG') else noun}"


def _constraint(f: LabelFilter, shape: Shape, answer_var: str, ordered: bool) -> str:
    thing = shape.labelled().get(f.var, f.var)
    noun = _singular(thing, shape)
    if f.op in ("!=", "!^"):
        return f"other than '{f.literal}'" + (" and its variants" if f.op == "!^" else "")
    if f.op in COMPARISONS:
        return f"with {SINGULAR.get(noun, noun)} {COMPARISONS[f.op]} '{f.literal}'"
    what = f"{noun} '{f.literal}'" if f.op == "=" else f"{noun} matching '{f.literal}'"
    preds = _path(shape, answer_var, thing) if answer_var else []
    first, last = (preds[0], preds[-1]) if preds else ("", "")
    if last == "HAS_METRIC" and ordered:
        return ""  # read with the ordering: "ordered by their 'Accuracy' score"
    connector = FIRST_AND_LAST.get((first, last)) or CONNECTORS.get(last) or "linked to {what}"
    return connector.format(what=what)


def _metric_named(shape: Shape) -> str:
    """The label of the metric the query names ('MAE'), "" when it names none."""
    return next((f.literal for f in shape.filters if f.op == "=" and
                 _noun(shape.labelled().get(f.var, f.var), shape) == "metrics"), "")


def _ordering(shape: Shape) -> str:
    limits = [n for n in shape.limits if n < ROW_CAP_LIMIT]
    if shape.group_by and shape.aggregates and not limits:
        return ""  # an ORDER BY feeding an aggregate does not change the answer
    if not shape.order:
        return f"the first {limits[0]}" if limits else ""
    direction, key = shape.order[0]
    metric = _metric_named(shape)
    counted = next((arg for fn, arg, alias in shape.aggregates if fn.upper() == "COUNT" and alias == key), None)
    if key.upper().startswith("COUNT"):
        by = "how often they occur"
        best = "the most common one" if direction == "DESC" else "the least common one"
    elif counted is not None:  # 'ORDER BY DESC(?papers)', ?papers a COUNT: the one with the most
        by = f"their number of {_noun(counted, shape) if counted.startswith('?') else key.lstrip('?')}"
        best = "the one with the most" if direction == "DESC" else "the one with the fewest"
    else:
        noun = _noun(key, shape) if key.startswith("?") else key
        by = f"their '{metric}' {noun.rstrip('s')}" if metric else f"their {noun}"
        # the highest of an error rate or a time taken is its worst: said as what it is
        best = "the lowest one" if direction != "DESC" else "the highest one" if metric and lower_is_better(metric) \
            else "the best one"
    text = f"ordered by {by}" + (" (highest first)" if direction == "DESC" and not limits else "")
    skipped = next((n for n in shape.offsets if n > 0), 0)
    if limits and skipped:  # 'LIMIT 1 OFFSET 1': the second, not the best
        text += ", " + (f"the {_ordinal(skipped + 1)}{' lowest' if direction != 'DESC' else ''} one"
                        if limits[0] == 1 else f"{limits[0]} after the first {skipped}")
    elif limits:
        text += ", " + (best if limits[0] == 1 else f"the {'top' if direction == 'DESC' else 'lowest'} {limits[0]}")
    return text


def _ordinal(n: int) -> str:
    """'second', 'third', …, '11th'."""
    words = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
    return words[n - 1] if 1 <= n <= len(words) else f"{n}th"


def parts(sparql: str) -> tuple[str, str, str]:
    """(form, what it asks for, how it orders): ``("SELECT", "models evaluated on dataset 'X'", "ordered by ...")``;
    form "" when it is not a query this can read."""
    shape = read(untied(sparql))  # a ranking that keeps ties reads as the best-of ranking it is
    if shape.form not in ("SELECT", "ASK"):
        return "", "", ""
    answer, main = _answer(shape)
    ordering = _ordering(shape) + (" and any tied with it" if tied(sparql) else "") or _best_of_each(sparql, shape)
    either = _either(sparql)  # 'FILTER(?winner = ?model || ?winner = ?rival)': one of two named things
    labelled = shape.labelled()
    unequal = {m.group(2) for m in _UNEQUAL.finditer(sparql)}  # 'FILTER(?model != ?rival)': the rival left out
    constraints = [f"other than {_singular(labelled.get(f.var, f.var), shape)} '{f.literal}'"
                   if labelled.get(f.var, f.var) in unequal else ("but not " if f in shape.excluded else "") + c
                   for f, c in ((f, _constraint(f, shape, main, bool(ordering)))
                                for f in shape.filters + shape.compared if labelled.get(f.var, f.var) not in either)
                   if c]  # what FILTER NOT EXISTS leaves out said as left out
    if named_either := [f"{_singular(labelled.get(f.var, f.var), shape)} '{f.literal}'" for f in shape.filters
                        if f.op == "=" and labelled.get(f.var, f.var) in either]:
        constraints.insert(0, "of " + " or ".join(named_either))
    named = {shape.labelled().get(f.var, f.var) for f in shape.filters}  # things a filter names
    outside = {t for triple in shape.triples if triple not in shape.lacking for t in (triple[0], triple[2])}
    through = {triple[0] for triple in shape.lacking}  # a left-out chain's inner links: only its end is said
    for s, p, o in shape.triples:  # fixed resources the query starts from (e.g. an ORKG comparison)
        if s.startswith("orkgr:") and _local(p) == "compareContribution":
            constraints.append(f"in comparison {s}")
        elif s.startswith("orkgr:") or o.startswith("orkgr:"):
            constraints.append(f"linked to {s if s.startswith('orkgr:') else o}")
        elif _local(p) in _RESTRICTED and (s, p, o) in shape.lacking and o not in named:  # 'NOT EXISTS { … ?code }'
            constraints.append(f"without {_RESTRICTED[_local(p)]}")
        elif _local(p) in _RESTRICTED and o not in named and o not in {labelled.get(v, v) for v in shape.projection}:
            # one the answer does not show (the venues asked are not 'with a venue')
            constraints.append(f"with {_RESTRICTED[_local(p)]}")
        elif _local(p) in _NONE_OF and (s, p, o) in shape.lacking and o not in outside | named | through \
                and not shape.excluded:  # a named thing left out: its chain is said by its name ('but not …')
            constraints.append(f"without a {SINGULAR[INCOMING_NOUNS[_local(p)]]}")  # none at all, not of a named one
    having = _HAVING_BOUND.search(sparql)  # 'HAVING(COUNT(DISTINCT ?dataset) >= 3)': the groups kept, said
    kept = f" ({COMPARISONS.get(having.group(1), having.group(1))} {having.group(2)})" if having else ""
    return shape.form, " ".join([answer] + list(dict.fromkeys(constraints))) + _per_group(shape) + kept, ordering


def _best_of_each(sparql: str, shape: Shape) -> str:
    """'the one with the lowest 'MAE' score on each dataset' for a query keeping each group's best; "" otherwise."""
    found = best_of_each(sparql)
    if found is None:
        return ""
    metric = _metric_named(shape)
    said = f"'{metric}' score" if metric else "score"
    end = "lowest" if found[1] == "MIN" else "highest"
    return f"the ones with the {end} {said} on each {_singular(found[0], shape)}"


_UNEQUAL = re.compile(r"FILTER\s*\(\s*(\?\w+)\s*!=\s*(\?\w+)\s*\)")
_EITHER = re.compile(r"FILTER\s*\(\s*\?(\w+)\s*=\s*(\?\w+)\s*\|\|\s*\?\1\s*=\s*(\?\w+)\s*\)")


def _either(sparql: str) -> set[str]:
    """The two things a query keeps one of ('FILTER(?winner = ?model || ?winner = ?rival)'): {'?model', '?rival'}."""
    found = _EITHER.search(sparql)
    return {found.group(2), found.group(3)} if found else set()


def _singular(thing: str, shape: Shape) -> str:
    noun = _noun(thing, shape)
    return SINGULAR.get(noun, noun)


_COUNT_OF = re.compile(r"\bSELECT\s*\(\s*COUNT\s*\(\s*\*\s*\)\s*AS\s*\?\w+\s*\)\s*WHERE\s*\{\s*"
                       r"(?P<inner>SELECT\b.*)\}\s*$", re.I | re.S)


def explain(sparql: str) -> str:
    """One sentence saying what the query asks for; "" when it is not a query this can read."""
    rows = _COUNT_OF.search(sparql)  # the rows of a query counted ('how many papers have more than 1 contribution')
    if rows is not None:
        inner = explain(sparql[:rows.start()] + rows.group("inner"))
        return inner.replace("It asks for ", "It asks for how many there are of ", 1) if inner else ""
    form, body, ordering = parts(sparql)
    if not form:
        return ""
    if form == "ASK":
        return f"It asks whether there are {body}."
    return f"It asks for {body}" + (f", {ordering}" if ordering else "") + "."
