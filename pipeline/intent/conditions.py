"""The conditions a question states beside its names and operators, and the ones a query leaves out: a restriction to
things with code ("which models have published code"), every number it gives ("in 2019", "at least 2", "the top 3")
and a comparison with one ("after 2020", "more than 40": the query compares, not equals),
a measure no plain list gives ("the most common", "the average"), "only" (the rest excluded), and what it asks for
beside its answer ("… with its score", "and their code links"). Read from the question with its names blanked out,
so the words and digits inside a name ('Top-1 Accuracy', 'WMT 2014') are the name's."""
from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.records import Kind
from pipeline.sparql.direction import direction_known
from pipeline.sparql.lexer import literal_text
from pipeline.sparql.parsed import parse
from pipeline.sparql.shape import Shape, read, stem
from pipeline.sparql.text import string_literals

_CODE = re.compile(r"\b(code|codes|implementations?|repositor(?:y|ies)|github|open[- ]source)\b", re.I)
_NUMBER = re.compile(r"(?<![\w.,/-])\d+(?:\.\d+)?(?![\w/-]|[.,]\d)")
# a number the question compares with ("after 2020", "more than 40"): the query must compare with it, not equal it
_COMPARED = re.compile(r"\b(?:after|since|before|until|till|prior\s+to|(?:later|earlier|newer|older|more|less|fewer|"
                       r"greater|higher|lower|bigger|smaller)\s+than|over|above|below|under|at\s+(?:least|most)|"
                       r"exceeding|beyond|up\s+to)\s+(\d+(?:\.\d+)?)(?![\w/-]|[.,]\d)", re.I)
_COMPARISONS = frozenset({"<", ">", "<=", ">="})
# a range of numbers ('between 80 and 90 %'), its ends included: of a comparison's values, of a score
BETWEEN = re.compile(r"\bbetween\s+(?P<low>\d+(?:\.\d+)?)\s*%?\s*(?:and|to|-|–)\s*(?P<high>\d+(?:\.\d+)?)\b", re.I)
_YEARLIKE = re.compile(r"(?:19|20)\d\d")
_SMALLER = re.compile(r"(?:before|until|till|prior|earlier|older|less|fewer|lower|smaller|below|under|at\s+most|up)\b",
                      re.I)  # the comparisons of _COMPARED that keep what is smaller
# a ranking or an aggregate the query must do
_MEASURE = re.compile(r"\b(most\s+recent|most|fewest|average|avg|mean|median|(?<!\bin\s)total|earliest|oldest|latest|"
                      r"newest|(?:largest|greatest|biggest)\s+number|first(?=\s+(?:paper|publication|study|article)\b))\b",
                      re.I)
_SAME = {"mean": "average", "avg": "average", "newest": "latest", "most recent": "latest", "oldest": "earliest",
         "first": "earliest", "largest number": "most", "greatest number": "most",
         "biggest number": "most"}  # one measure in other words
_COMPUTED = {"average": {"AVG"}, "total": {"SUM", "COUNT"}}  # what a value asked so is computed by
# a restriction the query must hold by excluding the rest ('titles only', 'names only' say what to show, no restriction)
_ONLY = re.compile("".join(rf"(?<!\b{w}\s)" for w in ("title", "titles", "name", "names", "number", "numbers", "value",
                                                         "values", "score", "venue", "venues", "year", "years"))
                   + r"\b(only|exclusively|solely)\b"
                   r"(?!\s+(?:need|want|care\s+about)\b)", re.I)
# ('and what score did it get': the determiner left out after 'what')
_BESIDE = re.compile(r"(?:\b(?:with|and|along with|including|plus|w/)\s+"
                     r"(?:what(?:['’]?s|\s+is|\s+was|\s+are|\s+were)?\s+(?:(?:its|their|the)\s+)?|"
                     r"(?:its|their|the)\s+)|"
                     r"[+&]\s*(?:(?:its|their|the)\s+)?)([A-Za-z]+)\b(?!\s+of\b)", re.I)
# 'and what's the score', 'model + number': a second thing asked ('and the number of papers' asks for a count, not a
# number beside the answer)
# 'which model had the lowest accuracy and what was it', 'what's the best X on X and who got it' (names blanked): the
# score beside who holds it
_VALUE_TOO = re.compile(r"\band\s+(?:what\s+(?:was|is|were)\s+(?:it|that)|how\s+much|"
                        r"what\s+(?:did|does|do)\s+(?:it|they|that)\s+(?:score|get|got|achieve|reach|hit))\b|"
                        r"^(?:(?!\b(?:which|who)\b).)*\b(?:highest|max|maximum|best|top|lowest|min|minimum|worst)\s+X\b"
                        r"(?:(?!\b(?:which|who)\b).)*\band\s+(?:who|which)\b",
                        re.I)  # 'the best X on X, and which model was it': the value, and the thing (not 'which
# model has the best X on X and which paper', 'the best X on X - which model and which paper': two things)
# '… on X? with scores': the thing beside said last with no determiner (not 'with code': a condition)
_BARE_BESIDE = re.compile(r"\b(?:with|plus|w/|and)\s+(scores?|values?|results|numbers|years)\s*[?.!]*\s*$", re.I)
_ENDS = re.compile(r"\s*(?:[?.!,)]|$)")
# '(dataset, metric, score)': the things shown, listed; each after the first a thing beside it
_LISTED = re.compile(r"[,/]\s*(?:and\s+)?(?:the\s+)?([A-Za-z]+)\b(?=\s*(?:[,/)]|$))", re.I)
_WHEN_TOO = re.compile(r"\band\s+when\b", re.I)  # 'which paper introduced X and when (was it out)?'
_VALUE = frozenset({"score", "scores", "value", "values", "result", "results", "performance", "accuracy", "number",
                    "numbers", "figure"})
# a companion word -> the predicates whose objects answer it, and the stems of variables that hold it
_COMPANIONS: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "value": (frozenset({"orkgp:HAS_VALUE"}), ("value", "score", "result", "performance")),
    "code": (frozenset({"orkgp:HAS_SOURCE_CODE"}), ("code", "link", "url", "repo")),
    "metric": (frozenset({"orkgp:HAS_METRIC"}), ("metric",)),
    "year": (frozenset({"orkgp:P29"}), ("year", "date")),
}
_WORDS = {"code": "code", "codes": "code", "link": "code", "links": "code", "metric": "metric", "metrics": "metric",
          "year": "year", "years": "year"} | dict.fromkeys(_VALUE, "value")


def blanked(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """The question with each name's span replaced by 'X'."""
    for a, b in sorted(spans, reverse=True):
        text = text[:a] + "X" + text[b:]
    return text


def restricts_to_code(words: str) -> bool:
    """Whether the question (names blanked) speaks of code: a restriction or an answer only code links satisfy."""
    return bool(_CODE.search(words))


def numbers(words: str) -> list[str]:
    """The numbers the question (names blanked) states, as written: '2019', '2', '3.5'."""
    return _NUMBER.findall(words)


def measures(words: str) -> frozenset[str]:
    """The rankings and aggregates the words call for ('average' and 'mean' are one, 'the largest number' is 'most',
    'the first paper' 'earliest')."""
    return frozenset(_SAME.get(low := " ".join(m.group().lower().split()), low) for m in _MEASURE.finditer(words))


def companions(words: str) -> list[str]:
    """What the question asks for beside its answer ('with its score' -> value), in order."""
    # ('and what's its latency': a metric's own word, its score; '… and its X?': a metric named, blanked, last)
    found = [(m.start(), _WORDS.get(m.group(1).lower(), "value")) for m in _BESIDE.finditer(words)
             if m.group(1).lower() in _WORDS or direction_known(m.group(1))
             or (m.group(1) == "X" and _ENDS.match(words, m.end()))]
    found += [(m.start(), "value") for m in _VALUE_TOO.finditer(words)]
    found += [(m.start(), "year") for m in _WHEN_TOO.finditer(words)]
    found += [(m.start(), _WORDS[m.group(1).lower()]) for m in _BARE_BESIDE.finditer(words)]
    found += [(m.start(), _WORDS[m.group(1).lower()]) for m in _LISTED.finditer(words) if m.group(1).lower() in _WORDS]
    return list(dict.fromkeys(c for _, c in sorted(found)))


def without_companions(words: str) -> str:
    """The question without what it asks for beside its answer ('top 3 on X, with the scores': 'top 3 on X,')."""
    return _BESIDE.sub(" ", words)


_INCLUSIVE = re.compile(r"(?:since|until|till|at\s+(?:least|most)|up)\b", re.I)


# a number with its bound said after it: '2018 or later', '3 or more', '2017 onwards', '0.6 MRR or higher' (one word
# between: the metric's name, or X where names are blanked; the number itself kept)
# ('after 2021 and before 2024': a second bound, its own number after it, not '2021 and before')
_TRAILING = re.compile(r"\b(?:(?:in|from)\s+)?(\d+(?:\.\d+)?)\s+(?:[A-Za-z][\w@%-]*\s+)?"
                       r"(?:(?:or|and)\s+(later|after|newer|since|earlier|"
                       r"before|older|more|above|higher|greater|less|fewer|below|lower)|(onwards?|and\s+up))\b"
                       r"(?!\s+(?:than\s+)?\d)", re.I)


def comparisons(words: str) -> dict[str, str]:
    """Each number the question compares with and how ('after 2020' -> {'2020': '>'}, 'at most 3' -> '<=', '2018 or
    later' -> '>=')."""
    out = {m.group(1): ("<" if _SMALLER.match(m.group()) else ">") + ("=" if _INCLUSIVE.match(m.group()) else "")
           for m in _COMPARED.finditer(words)}
    out |= {m.group(1): ("<=" if (m.group(2) or "").lower() in ("earlier", "before", "older", "less", "fewer",
                                                                   "below", "lower") else ">=")
            for m in _TRAILING.finditer(words)}
    # a range of scores, its ends included (a range of years is two names, each its pair's slot)
    for m in BETWEEN.finditer(words):
        if not (_YEARLIKE.fullmatch(m.group("low")) or _YEARLIKE.fullmatch(m.group("high"))):
            out |= {m.group("low"): ">=", m.group("high"): "<="}
    return out


def compared_spans(words: str) -> list[tuple[int, int]]:
    """Where the question compares with a number ('after 2020', 'more than 40', '2018 or later'): words the reading
    applies."""
    return [m.span() for rx in (_COMPARED, _TRAILING, BETWEEN) for m in rx.finditer(words)
            if rx is not BETWEEN or not _YEARLIKE.fullmatch(m.group("low"))]


def _numbers_in(sparql: str) -> set[str]:
    held = set(parse(sparql).numbers)
    return held | {n for lit in string_literals(sparql) for n in _NUMBER.findall(lit)}


def compares(sparql: str, value: str, greater: bool | None = None) -> bool:
    """Whether the query compares something with ``value``, a number or a string (``?year > 2020``,
    ``xsd:decimal(?v) >= xsd:decimal("40")``), as greater or smaller, not only equal; with ``greater``, only the
    comparisons that keep what is greater (True) or smaller (False) than it."""
    toks = parse(sparql).tokens
    for i, tok in enumerate(toks):
        held = tok.text if tok.kind == "number" else literal_text(tok.text) if tok.kind == "string" else None
        if held != value:
            continue
        for step in (-1, 1):  # the operator before it (it is on the right) or after it (on the left)
            j = i + step
            while 0 <= j < len(toks) and (toks[j].text in ("(", ")") or toks[j].kind == "pname" or
                                          toks[j].text.startswith("^^")):
                j += step  # past a cast, its brackets and a datatype
            if 0 <= j < len(toks) and toks[j].text in _COMPARISONS:
                keeps_greater = (toks[j].text[0] == ">") == (step == -1)
                if greater is None or keeps_greater == greater:
                    return True
    return False


def excludes(sparql: str, things: bool = False) -> bool:
    """Whether the query leaves things out by what they lack or have besides: NOT EXISTS, MINUS, a '!=' or a HAVING
    (``things``: only NOT EXISTS or MINUS, which leave out the things another pattern finds)."""
    toks = [t.text.upper() for t in parse(sparql).tokens]
    return "MINUS" in toks or any(a == "NOT" and b == "EXISTS" for a, b in zip(toks, toks[1:])) or (
        not things and ("HAVING" in toks or "!=" in toks))


def gives(shape: Shape, companion: str) -> bool:
    """Whether the query's answer holds the companion: a projected variable reached by its predicate, named for it, or
    (for a value) an aggregate of one."""
    predicates, stems = _COMPANIONS[companion]
    reached = {o for _, p, o in shape.triples if p in predicates}
    labelled = shape.labelled()
    if companion == "value" and shape.aggregates:
        return True
    if companion == "metric" and any(shape.classes().get(labelled.get(v, v)) == Kind.METRIC.orkg_class
                                     for v in shape.projection):
        return True
    return any(labelled.get(v, v) in reached or v in reached or any(s in stem(v).lower() for s in stems)
               for v in shape.projection)


def unaccounted(words: str, sparql: str, measures: bool = False) -> list[str]:
    """The conditions of the question (``words``: its text with the names blanked) that ``sparql`` does not hold, in
    words, for a reply that declines: code it does not reach, numbers it does not use, companions it does not give;
    an average or a total it does not compute; with ``measures``, also a ranking or aggregate the question's words
    call for ('the most common'). SciQA's own "most commonly used datasets" query lists them, so a query written
    for the question is not held to that; a query the composer chooses is."""
    shape = read(sparql)
    out: list[str] = []
    code = _CODE.search(words)
    if code and "orkgp:HAS_SOURCE_CODE" not in {p for _, p, _ in shape.triples}:
        out.append(f"the condition on code ('{code.group()}')")
    measure = _MEASURE.search(words) if measures else None
    if measure and not shape.aggregates and not shape.order:
        out.append(f"the '{measure.group()}' the question asks for (it neither ranks nor aggregates)")
    functions = parse(sparql).words
    out += [f"the '{m.group()}' the question asks for (the query does not compute it)"
            for m in _MEASURE.finditer(words) if _COMPUTED.get(_SAME.get(m.group().lower(), m.group().lower()),
                                                                    functions).isdisjoint(functions)]
    only = _ONLY.search(words)
    if only and not excludes(sparql):
        out.append(f"the restriction '{only.group()}' (the query excludes nothing)")
    held = _numbers_in(sparql)
    out += [f"the number {n} the question states" for n in numbers(words) if n not in held]
    out += [f"the comparison '{m.group()}' (it does not compare with {m.group(1)} that way)"
            for m in _COMPARED.finditer(words)
            if m.group(1) in held and not compares(sparql, m.group(1), not _SMALLER.match(m.group()))]
    if shape.form == "SELECT":
        out += [f"the {c} asked for beside the answer" for c in companions(words) if not gives(shape, c)]
    return out


_SHOWN_WORDS = {"paper": Kind.PAPER, "papers": Kind.PAPER, "title": Kind.PAPER, "titles": Kind.PAPER,
                "model": Kind.MODEL, "models": Kind.MODEL, "dataset": Kind.DATASET, "datasets": Kind.DATASET,
                "metric": Kind.METRIC, "metrics": Kind.METRIC, "venue": Kind.VENUE, "venues": Kind.VENUE,
                "year": "year", "years": "year"}  # (reading.YEAR: a year asked)
_SHOWN_WORD = r"(?:papers?|titles?|models?|datasets?|metrics?|venues?|years?|scores?|values?)"
# '… ? dataset + model', '(dataset, model, cer)': the things the answer is to show, listed at its end
_SHOWN = re.compile(rf"(?:^|[?.!,;:\-(]\s*)({_SHOWN_WORD}(?:\s*(?:\+|,|&|/|\band\b)\s*(?:{_SHOWN_WORD}|X))+)"
                    r"\s*\)?\s*(?:pls|please)?\s*[?.!]*\s*$", re.I)


def shown_kinds(stated: str) -> frozenset[str]:
    """The kinds of thing listed at the question's end as what to show ('dataset + model'), names blanked."""
    found = _SHOWN.search(stated)
    return frozenset(_SHOWN_WORDS[w.lower()] for w in re.findall(r"[A-Za-z]+", found.group(1))
                     if w.lower() in _SHOWN_WORDS) if found else frozenset()
