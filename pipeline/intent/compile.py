"""One compiler from a ``Reading`` of the graph's comparisons to SPARQL a person can read, and the sentence that says
what it asks, both from the same record: what the user is told is what ran. The operator's shape comes from the one
table (``pipeline.intent.operators``); the ORKG's structure (a comparison compares contributions, a paper has them,
its year, its field) is written here once."""
from __future__ import annotations

import re

from pipeline.intent.bounds import AVERAGE
from pipeline.intent.comparisons import STRUCTURAL
from pipeline.intent.operators import TABLE, ordinal
from pipeline.intent.record import Condition, Reading
from pipeline.intent.titled import PAPER
from pipeline.sparql.literal import quoted

_PLURAL = {"paper": "papers", "contribution": "contributions", "problem": "research problems",
           "field": "research fields", "year": "years",
           "venue": "venues", "comparison": "comparisons", "property": "properties"}
_ON_PAPER = {"orkgp:P30", "orkgp:P29", "orkgp:HAS_VENUE"}  # a paper's, not its contribution's


def number(var: str) -> str:
    """A value read as a number, its unit and signs other than a minus dropped ('90 ms', '~12.5 %'): ORKG values are
    plain strings, often with a unit."""
    return f'xsd:decimal(REPLACE(STR({var}), "[^0-9.-]", ""))'


def _var(label: str) -> str:
    words = re.findall(r"[a-z0-9]+", label.lower())
    words = [w for w in words if w not in {"has", "the", "of", "a", "an"}] or ["value"]
    return "?" + "_".join(words)[:40]


def _said(reading: Reading, what: str) -> str:
    """What a kind or a property is called in a sentence."""
    return _PLURAL.get(what) or f"'{reading.label_of(what)}' values"


def _subject(on: str) -> str:
    return "?paper" if on in _ON_PAPER else "?contribution"


class _Body:
    """The WHERE clause being written: lines, and the variables already bound."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.n = 0

    def add(self, line: str) -> None:
        if line not in self.lines:
            self.lines.append(line)

    def fresh(self, label: str) -> str:
        self.n += 1
        return f"{_var(label)}{self.n}" if self.n > 1 else _var(label)

    def value(self, subject: str, predicate: str, label: str) -> str:
        """A property's value bound and its label (the literal itself when it has none): the label's variable."""
        node = self.fresh(label)
        self.add(f"{subject} {predicate} {node} .")
        self.add(f"OPTIONAL {{ {node} rdfs:label {node}_label . }}")
        self.add(f"BIND(COALESCE({node}_label, STR({node})) AS {node}_lbl)")
        return f"{node}_lbl"


def _condition(body: _Body, c: Condition, reading: Reading) -> None:
    if c.on in ("contribution", "comparison"):  # held after grouping, or on the answer (``compile_reading``)
        return
    if c.on == "property":  # a property the list of properties leaves out
        body.add(f"FILTER(?property != {c.iri})")
        return
    if c.on == "year":
        body.add("?paper orkgp:P29 ?year .")
        body.add(f"FILTER(xsd:integer(?year) {c.op} {int(c.value)})")
    elif c.op == "absent":  # no value given at all ('without a venue', 'did not report any follow-up')
        body.add(f"FILTER NOT EXISTS {{ {_subject(c.on)} {c.on} {body.fresh(reading.label_of(c.on))} . }}")
    elif c.op == "present":  # some value given ('the comparisons that report an effect size')
        body.add(f"{_subject(c.on)} {c.on} {body.fresh(reading.label_of(c.on))} .")
    elif c.op == "!=":  # none of its contributions' values is it (or it has none)
        _excluded(body, c, reading, "", _subject(c.on))
    elif c.op == "other":  # a value that is not it ('a method other than X')
        node = body.fresh(reading.label_of(c.on))
        body.add(f"{_subject(c.on)} {c.on} {node} .")
        body.add(f"FILTER({node} != {c.iri})" if c.iri else f"FILTER(LCASE(STR({node})) != {quoted(c.value.lower())})")
    elif c.op == "in":  # one of the values ('in Nepal or Bangladesh')
        node = body.fresh(reading.label_of(c.on))
        body.add(f"{_subject(c.on)} {c.on} {node} .")
        body.add(f"FILTER({node} IN ({', '.join(c.iri.split())}))")
    elif c.op == "=" and c.on == PAPER:  # the one paper named
        body.add(f"FILTER(?paper = {c.iri})")
    elif c.op == "=" and c.iri:
        body.add(f"{_subject(c.on)} {c.on} {c.iri} .")
    elif c.op == "=":
        node = body.fresh(reading.label_of(c.on))
        body.add(f"{_subject(c.on)} {c.on} {node} .")
        body.add(f"FILTER(LCASE(STR({node})) = {quoted(c.value.lower())})")
    else:
        node = body.fresh(reading.label_of(c.on))
        body.add(f"{_subject(c.on)} {c.on} {node} .")
        bound = c.value
        if c.value == AVERAGE:  # the mean of the same property's values over the same contributions
            scope = reading.scope.iri if reading.scope else "?any_comparison"
            bound = "?average"
            body.add(f"{{ SELECT (AVG({number('?averaged')}) AS ?average) WHERE {{ {scope} orkgp:compareContribution "
                     f"?averaged_contribution . ?averaged_contribution {c.on} ?averaged . }} }}")
        body.add(f"FILTER({number(node)} {c.op} {bound})")


def _excluded(body: _Body, c: Condition, reading: Reading, holder: str, subject: str) -> None:
    """``c`` held by none of ``subject``'s values; ``holder``: the pattern binding ``subject`` to every contribution
    that gives the same answer ('which countries did not use X': no study of that country did)."""
    node = body.fresh(reading.label_of(c.on))
    test = f"{subject} {c.on} {c.iri} ." if c.iri else \
        f"{subject} {c.on} {node} . FILTER(LCASE(STR({node})) = {quoted(c.value.lower())})"
    body.add(f"FILTER NOT EXISTS {{ {holder}{test} }}")


def _across(reading: Reading, c: Condition) -> bool:
    """Whether the negated ``c`` is held over every contribution giving the same answer (``_excluding``)."""
    return c.on not in ("year", "comparison") and c.on not in _ON_PAPER and (
        reading.asked == "paper" or (reading.asked.startswith("orkgp:") and reading.asked not in _ON_PAPER))


def _excluding(body: _Body, reading: Reading, scope: str, answer: str) -> None:
    """The question's negated conditions, each over every contribution giving the answer it would be left out for:
    of the same paper, or holding the same value of the property asked."""
    for c in reading.conditions:
        if c.op != "!=" or not _across(reading, c):
            continue
        held = f"?other {reading.asked} {answer.removesuffix('_lbl')} . " if reading.asked != "paper" else \
            "?paper orkgp:P31 ?other . "
        _excluded(body, c, reading, f"{scope} orkgp:compareContribution ?other . {held}", "?other")


def _answer(body: _Body, reading: Reading, what: str) -> str:
    """The variable whose values answer ``what`` (a kind, or a property's IRI)."""
    if what == "paper":
        body.add("?paper rdfs:label ?paper_lbl .")
        return "?paper_lbl"
    if what == "contribution":  # counted by its node; listed by its label (its paper beside: ``comparison_reader``)
        if TABLE[reading.operator].aggregate == "COUNT":
            return "?contribution"
        body.add("?contribution rdfs:label ?contribution_lbl .")
        return "?contribution_lbl"
    if what == "property":  # the properties the contributions are described by, as the graph labels them
        body.add("?contribution ?property ?property_value .")
        body.add("?property rdfs:label ?property_lbl .")
        body.add('FILTER(STRSTARTS(STR(?property), "http://orkg.org/orkg/predicate/"))')
        return "?property_lbl"
    if what == "comparison":
        body.add("?comparison rdfs:label ?comparison_lbl .")
        return "?comparison_lbl"
    if what == "year":
        body.add("?paper orkgp:P29 ?year .")
        return "?year"
    if what in ("problem", "field", "venue"):
        predicate = next(p for p, k in STRUCTURAL.items() if k == what)
        body.add(f"{_subject(predicate)} {predicate} ?{what} .")
        body.add(f"?{what} rdfs:label ?{what}_lbl .")
        return f"?{what}_lbl"
    return body.value(_subject(what), what, reading.label_of(what))


def _also_in(body: _Body, reading: Reading, c: Condition, answer: str) -> None:
    """What is asked found among the second comparison's too (``!=``: not): the same paper, contribution or value."""
    node = answer.removesuffix("_lbl")
    pattern = [f"{c.iri} orkgp:compareContribution ?other ."]
    if reading.asked == "contribution":  # the same contribution
        pattern = [f"{c.iri} orkgp:compareContribution ?contribution ."]
    elif reading.asked == "paper":
        pattern.append("?paper orkgp:P31 ?other .")
    elif reading.asked in STRUCTURAL.values():  # a paper's own (its venue, year, field) or problem
        predicate = next(p for p, k in STRUCTURAL.items() if k == reading.asked)
        pattern.append(f"?other {predicate} {node} ." if predicate not in _ON_PAPER else
                       f"?other_paper orkgp:P31 ?other ; {predicate} {node} .")
    else:
        pattern.append(f"?other {reading.asked} {node} .")
    exists = "NOT EXISTS" if c.op in ("!=", "other") else "EXISTS"
    body.add(f"FILTER {exists} {{ {' '.join(pattern)} }}")


_SAID_OP = {"!=": "is not", "other": "is other than", "in": "is"}


def compile_reading(reading: Reading) -> str:
    """The SPARQL of a whole reading."""
    op = TABLE[reading.operator]
    body = _Body()
    scope = reading.scope.iri if reading.scope else "?comparison"
    body.add(f"{scope} orkgp:compareContribution ?contribution .")
    body.add("?paper orkgp:P31 ?contribution .")
    own = [c for c in reading.conditions if c.op == "other" and c.on == reading.asked]  # 'countries other than X'
    for c in reading.conditions:
        if (c.op != "!=" or not _across(reading, c)) and c not in own:
            _condition(body, c, reading)
    answer = _answer(body, reading, reading.asked)
    for c in own:  # the values listed, that one left out
        body.add(f"FILTER({answer.removesuffix('_lbl')} != {c.iri})" if c.iri else
                 f"FILTER(LCASE(STR({answer})) != {quoted(c.value.lower())})")
    _excluding(body, reading, scope, answer)
    for c in reading.conditions:
        if c.on == "comparison":
            _also_in(body, reading, c, answer)
    shown = " ".join([answer] + [_answer(body, reading, also) for also in reading.also])
    if reading.asked == "paper" and "year" not in reading.also and any(c.on == "year" for c in reading.conditions) \
            and not op.aggregate and not op.ask:
        shown += " ?year"  # papers bounded by their year: each shown with it
    if op.ask:
        return "ASK WHERE {\n  " + "\n  ".join(body.lines) + "\n}"
    by, ranked = "", ""  # what it is ranked by, and its variable: shown beside the thing ranked first
    if op.by_year:
        body.add("?paper orkgp:P29 ?year .")
        by, ranked = "xsd:integer(?year)", "?year"
    elif reading.by:
        ranked = answer if reading.by == reading.asked else _answer(body, reading, reading.by)
        by = number(ranked)
    group = _answer(body, reading, reading.per) if reading.per else ""
    where = "WHERE {\n  " + "\n  ".join(body.lines) + "\n}"
    bounds = [c for c in reading.conditions if c.on == "contribution"]
    if bounds:  # 'the papers with more than one contribution in it': each paper's count, held to the bound
        kept = " && ".join(f"COUNT(DISTINCT ?contribution) {c.op} {int(float(c.value))}" for c in bounds)
        each = f"SELECT {shown} (COUNT(DISTINCT ?contribution) AS ?contributions) {where}\nGROUP BY {shown}\n" \
            f"HAVING({kept})"
        return f"SELECT (COUNT(*) AS ?count) WHERE {{\n{each}\n}}" if op.aggregate == "COUNT" else each
    if group:  # one row for each value of ``per``: how many, or the values' aggregate
        if op.aggregate == "COUNT":
            counted = "?contribution" if reading.asked == "contribution" else \
                "?paper" if reading.asked == "paper" else answer
            return f"SELECT {group} (COUNT(DISTINCT {counted}) AS ?count) {where}\nGROUP BY {group}\n" \
                f"ORDER BY DESC(?count)"
        return f"SELECT {group} ({op.aggregate}({by}) AS ?{op.name}) {where}\nGROUP BY {group}"
    if op.aggregate == "COUNT" and reading.asked == "contribution":
        return f"SELECT (COUNT(DISTINCT ?contribution) AS ?count) {where}"
    if op.aggregate == "COUNT":
        counted = answer if reading.asked in STRUCTURAL.values() or reading.asked == "comparison" else \
            answer.removesuffix("_lbl")
        return f"SELECT (COUNT(DISTINCT {counted}) AS ?count) {where}"
    if op.often:  # by how many contributions have each (or papers: 'the most papers')
        counted = "paper" if reading.by == "paper" else "contribution"
        return f"SELECT {answer} (COUNT(DISTINCT ?{counted}) AS ?{counted}s) {where}\nGROUP BY {answer}\n" \
            f"ORDER BY {op.order}(?{counted}s)\nLIMIT 1"
    if op.expression:  # one number of the values' aggregates ('how far apart the ends are')
        return f"SELECT ({op.expression.format(by=by)} AS ?{op.name}) {where}"
    if op.name == "range":  # both ends of the values
        return f"SELECT (MIN({by}) AS ?lowest) (MAX({by}) AS ?highest) {where}"
    if op.aggregate and reading.by == reading.asked and not op.order:
        return f"SELECT ({op.aggregate}({by}) AS ?{op.name}) {where}"
    if op.aggregate and reading.by == reading.asked:  # the highest or lowest value as the graph holds it ('6.9 %')
        return f"SELECT {answer} {where}\nORDER BY {op.order}({by})\nLIMIT 1"
    if op.order and by:
        # the value it is ranked by, unless other things are asked (a contribution's paper is shown with it)
        if ranked != answer and reading.also in ((), ("paper",) if reading.asked == "contribution" else ()):
            shown += f" {ranked}"
        cut = f"LIMIT 1 OFFSET {reading.k - 1}" if op.place else f"LIMIT {reading.k}"  # the k-th, or the first k
        return f"SELECT DISTINCT {shown} {where}\nORDER BY {op.order}({by})\n{cut}"
    return f"SELECT DISTINCT {shown} {where}"


def sentence(reading: Reading) -> str:
    """What the compiled query asks, in one sentence, from the same reading."""
    op = TABLE[reading.operator]
    what = _said(reading, reading.asked)
    by = "year" if op.by_year else f"'{reading.label_of(reading.by)}'" if reading.by else ""
    said = op.says.format(what=what, by=by or what, place=ordinal(reading.k))
    if op.often and reading.by == "paper":
        said = said.replace("contributions", "papers")
    if op.place and by and reading.by != reading.asked:
        said = f"the {what} with the {ordinal(reading.k)} {'highest' if op.order == 'DESC' else 'lowest'} {by}"
    elif op.order and by and reading.by != reading.asked and not op.often:
        said = f"the {f'{reading.k} ' if reading.k > 1 else ''}{what} with the " \
            f"{'highest' if op.order == 'DESC' else 'lowest'} {by}"
    where = f"of the comparison '{reading.scope.label}'" if reading.scope else "of every comparison"
    stated = {"absent": "is not given", "present": "is given"}
    named = {"year": "year", "contribution": "the number of contributions"}
    conditions = [f"they are{' not' if c.op in ('!=', 'other') else ' also'} found in the comparison '{c.value}'"
                  if c.on == "comparison" else f"the property is not '{c.value}'" if c.on == "property" else
                  f"{named.get(c.on) or STRUCTURAL.get(c.on) or repr(reading.label_of(c.on))} "
                  + (stated.get(c.op) or f"{_SAID_OP.get(c.op, c.op)} {c.value}")
                  + (" in any of their contributions" if c.op == "!=" and _across(reading, c) else "")
                  for c in reading.conditions]
    if reading.also:
        said += " with their " + " and ".join(_said(reading, a) for a in reading.also)
    if reading.per:
        said += f" for each {reading.per if reading.per in _PLURAL else repr(reading.label_of(reading.per))}"
    return f"It asks for {said} among the contributions {where}" + \
        (f" where {' and '.join(conditions)}" if conditions else "") + "."
