"""What a query's form says whatever vocabulary it is written in, against what the question asks: the direction it
ranks in, whether it counts, answers yes or no, or skips places, and whether its answer is joined to anything the
question names. The guard holds these even where it cannot read the query's properties (``guard.opaque_terms``):
only where the question's words are read with confidence, and only when the query's form plainly says otherwise."""
from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.intent.conditions import excludes
from pipeline.intent.operators import ordinal
from pipeline.intent.reading import CODE, YEAR, Intent
from pipeline.records import REACHED_BY, Kind
from pipeline.sparql import brackets
from pipeline.sparql.joins import Joins, joins
from pipeline.sparql.lexer import Token
from pipeline.sparql.parsed import parse
from pipeline.sparql.scope import required_after_optional
from pipeline.sparql.shape import Shape, read
from pipeline.sparql.text import parses

_HOW_MANY = re.compile(r"\bhow many\b", re.I)  # "the largest number of papers" ranks by a count: not confident
_WH = re.compile(r"\b(which|what|who|whom|whose|where|when|how|list)\b", re.I)  # "Do you know which ...": a list
# how often a thing occurs: only a count ranks by it. SciQA's "the most commonly used datasets for field X" is
# answered by listing the datasets used (its gold queries count nothing), so that form is not held to a count.
_COMMON = re.compile(r"\b(?:most|least)\s+(?:common(?:ly)?|frequent(?:ly)?|popular|often)\b", re.I)
_LISTED = re.compile(r"most\s+commonly\s+used\b", re.I)


def listed_as_most(question: str) -> bool:
    """Whether the question says "the most commonly used …", which SciQA's own queries answer with every one used,
    not a ranking."""
    return _LISTED.search(question) is not None
# "run on the most datasets", "the fewest papers": a ranking by how many, which a query counting nothing cannot give
_MOST_OF = re.compile(r"\bthe\s+(?:most|fewest|least)\s+(?:number\s+of\s+)?(?:models?|datasets?|benchmarks?|papers?|"
                      r"articles?|studies|metrics?|problems?|results?|evaluations?)\b", re.I)
_ONLY = re.compile(r"\b(?:only|exclusively|solely|not|except|excluding|other\s+than|without|lack(?:s|ing)?|missing|"
                   r"never|no)\b|n't\b", re.I)  # words that ask to leave some things out
_AMOUNT = re.compile(r"\b(how\s+(?:many|much)|numbers?|total|amount|counts?|tally|frequency|size|often)\b", re.I)
_EACH = re.compile(r"\b(?:for|of|in)\s+(?:each|every)\s+\w+|\bper\s+(?!cent\b)\w+", re.I)
THINGS = frozenset({"Paper", "Model", "Dataset", "Metric", "Problem", "ResearchField", "Benchmark", "Contribution"})
_IDS = re.compile(r"\b(ids?|iris?|uris?|urls?|identifiers?|resources?|links?)\b", re.I)  # asks for the things' ids
_TO_THINGS = frozenset({"orkgp:HAS_MODEL", "orkgp:HAS_DATASET", "orkgp:HAS_METRIC", "orkgp:HAS_BENCHMARK",
                        "orkgp:P30", "orkgp:P31", "orkgp:P32", "orkgp:HAS_SOURCE_CODE"})


# what the object of an ORKG predicate is, whatever the variable holding it is called
LEADS_TO: dict[str, str] = {**REACHED_BY, "orkgp:HAS_SOURCE_CODE": CODE, "orkgp:P29": YEAR}


def reached_kinds(shape: Shape) -> dict[str, set[str]]:
    """Variable -> the kinds of thing the predicates leading to it say it is (``?x orkgp:P32 ?v``: a problem)."""
    out: dict[str, set[str]] = {}
    for _, p, o in shape.triples:
        if p in LEADS_TO and o.startswith("?"):
            out.setdefault(o, set()).add(LEADS_TO[p])
    return out


def conflicting_kinds(shape: Shape) -> list[str]:
    """Variables typed as one kind of thing and reached by a predicate leading to another: a pattern that can match
    nothing (``?model a orkgc:Model`` as the object of ``orkgp:P32``, a research problem)."""
    classes = shape.classes()
    out = []
    for var, kinds in reached_kinds(shape).items():
        typed = next((k for k in Kind if k.orkg_class == classes.get(var)), None)
        if typed is not None and typed not in kinds and len(kinds) == 1:
            out.append(f"{var} as one kind of thing (typed a {typed.value}, reached as a {next(iter(kinds))})")
    return out


def rankings(sparql: str) -> list[tuple[str, bool]]:
    """Each ORDER BY of the query: the direction of its first key (ASC or DESC) and whether a LIMIT at the same
    level keeps only the first rows (then it picks the answer)."""
    toks = parse(sparql).tokens
    out: list[tuple[str, bool]] = []
    for i, t in enumerate(toks):
        if t.kind != "word" or t.text.upper() != "ORDER" or i + 2 >= len(toks):
            continue
        key = toks[i + 2]
        direction = key.text.upper() if key.text.upper() in ("ASC", "DESC") else "ASC"
        out.append((direction, _limited(toks, i + 2)))
    return out


PICK = 100  # a LIMIT up to this keeps a ranking's first rows; a larger one (the gate's row cap, 1000) is a cap


def _limited(toks: Sequence[Token], i: int) -> bool:
    """Whether a LIMIT of a few rows follows at the level of position ``i`` (before its group closes)."""
    n = i
    while n < len(toks):
        t = toks[n]
        if t.text == "{":  # a group inside: its LIMIT is its own
            end = brackets.closing(toks, n)
            if end is None:
                return False
            n = end
        elif t.text == "}":
            return False
        elif t.kind == "word" and t.text.upper() == "LIMIT" and n + 1 < len(toks):
            return toks[n + 1].kind == "number" and float(toks[n + 1].text) <= PICK
        n += 1
    return False


def wrong_direction(intent: Intent, sparql: str, shape: Shape) -> str:
    """Why the query ranks the other way than the question asks ("" when it does not): it picks by an ordering
    that runs only the other way, or takes only the other extreme (MAX for the lowest)."""
    if intent.highest == ("lowest" in intent.operators):  # neither, or both ("the minimum and maximum")
        return ""
    want, other, extreme, opposite = ("ASC", "DESC", "MIN", "MAX") if "lowest" in intent.operators else \
        ("DESC", "ASC", "MAX", "MIN")
    picks = [d for d, limited in rankings(sparql) if limited]
    funcs = {func for func, _, _ in shape.aggregates}
    if picks and other in picks and want not in picks and extreme not in funcs:
        return f"it ranks from the {'highest' if other == 'DESC' else 'lowest'} first"
    if not picks and opposite in funcs and extreme not in funcs:
        return f"it takes the {opposite.lower()}imum"
    return ""


def listed_things(shape: Shape) -> bool:
    """Whether the query answers with things (papers, models, datasets ... or their labels), not values."""
    classes = shape.classes()
    labelled = shape.labelled()
    reached = {o for _, p, o in shape.triples if p in _TO_THINGS}
    for var in shape.projection:
        subject = labelled.get(var, var)
        if classes.get(subject) in THINGS or subject in reached:
            return True
    return False


def contrary_form(question: str, intent: Intent, shape: Shape, sparql: str, counts: bool, yes_no: bool
                  ) -> dict[str, str]:
    """Operator -> why the query's form answers otherwise, where the question's words are plain: "how many"
    answered with a list of things, a yes/no question (no wh-word) with a list of things, a k-th place asked of a
    query that ranks and skips none, the lowest of one ranking from the highest (or the other way round), the highest
    of one listing things in no order, a yes/no question with a list of values, "the most/least common" counting
    nothing, a figure "for each" thing given once for all."""
    out: dict[str, str] = {}
    ops = intent.operators
    things = shape.form == "SELECT" and not shape.aggregates and listed_things(shape)
    if "count" in ops and _HOW_MANY.search(question) and things and not counts:
        out["count"] = "it lists things instead of counting them"
    if "yesno" in ops and "count" not in ops and question and not _WH.search(question) and not yes_no \
            and shape.form == "SELECT" and not counts:
        out["yesno"] = "it lists things instead" if things else "it lists values instead"
    common = _COMMON.search(question) or _MOST_OF.search(question)
    if common and not counts and not _LISTED.match(question, common.start()):
        out["common"] = f"'{common.group()}' is a matter of how often, and it counts nothing"
    if shape.form == "SELECT" and excludes(sparql, things=True) and not _ONLY.search(question):
        out["unasked"] = "it leaves out things another pattern finds, which the question does not ask"
    if not ops & {"count", "yesno"} and counts_only(shape) and _WH.search(question) and \
            not _AMOUNT.search(question):
        out["list"] = "it counts them instead of naming them"
    each = _EACH.search(question)
    if each and shape.aggregates and not shape.group_by and \
            set(shape.projection) <= {alias for _, _, alias in shape.aggregates}:
        out["each"] = f"'{each.group()}' asks for one figure each, and it gives one for all of them"
    if "kth" in ops and intent.rank - 1 not in shape.offsets and any(limited for _, limited in rankings(sparql)):
        skipped = [n for n in shape.offsets if n]
        out["kth"] = f"it skips {skipped[0]} place(s)" if skipped else "it skips no places"
    if "every" in ops and not ops & {"top", "kth", "count"} and picks(shape) and shape.form == "SELECT":
        out["every"] = "it keeps only the first of a ranking"
    direction = wrong_direction(intent, sparql, shape)
    if direction:
        out["lowest" if "lowest" in ops else "highest"] = direction
    elif intent.highest and not ops & {"lowest", "count", "yesno"} and things and not rankings(sparql):
        out["highest"] = "it lists them without ranking them"  # every model evaluated, for "which has the highest"
    return out


def counts_only(shape: Shape) -> bool:
    """Whether a SELECT's answer is only counts: a number of things, not the things."""
    counted = {alias for func, _, alias in shape.aggregates if func == "COUNT"}
    return shape.form == "SELECT" and bool(counted) and set(shape.projection) <= counted


def untied_answers(sparql: str, found: Joins | None = None) -> list[str]:
    """The answer's variables joined to no constant at all (no literal, number or resource, only classes), in a
    query that does hold constants elsewhere: such an answer is the same whatever the question names."""
    found = found or joins(sparql)
    if not found.has_constants:
        return []
    return [var for var in found.answer if not found.alone(var) and not found.constants_of(var)]


def unjoined_literals(literals: Sequence[str], sparql: str, found: Joins | None = None) -> list[str]:
    """Literals of the question's names that sit in a part of the query joined to none of its answer's variables
    (the answer does not depend on them): SciQA's own leaderboard query does this with its metric."""
    found = found or joins(sparql)
    if not found.answer:
        return []
    return [lit for lit in literals if found.with_answer(lit) is False]


def lacking(op: str, intent: Intent) -> str:
    """An operator as the thing a query lacks, in words."""
    return {"count": "a count (how many)", "kth": f"the {ordinal(intent.rank)} place in a ranking",
            "lowest": "the lowest value", "highest": "the highest value", "yesno": "a yes/no answer",
            "every": "every one asked for (a list, not the first of a ranking)",
            "top": f"the top {intent.rank} of a ranking", "common": "a ranking by how often",
            "each": "a figure for each one", "list": "the things asked for (which ones, not how many)",
            "except": "those of one but not of the other (it excludes nothing)",
            "unasked": "no restriction the question does not state"}[op]


def picks(shape: Shape) -> bool:
    """Whether the query keeps only a ranking's first few rows somewhere (a LIMIT of up to ``PICK``, in a sub-select
    too): its answer is not every one."""
    return any(n <= PICK for n in shape.limits)


def bare_things(shape: Shape) -> list[str]:
    """The projected variables that are named things (typed with an ORKG class, or reached by a predicate leading to
    one: the object of ``orkgp:P32`` is a research problem) while no projected variable holds their label."""
    classes, reached = shape.classes(), reached_kinds(shape)
    labels = {s for lbl, s in shape.labelled().items() if lbl in shape.projection}
    named = {k.orkg_class for k in Kind}
    return [v for v in dict.fromkeys(shape.projection) if v not in labels and v not in shape.labelled()
            and (classes.get(v) in named or bool(reached.get(v, set()) & set(Kind)))]


def with_labels(sparql: str, question: str) -> str:
    """The query answering with the labels of the things it projects bare (their IRIs alone answer nobody asking
    "which research problems"): each such variable of the projection becomes its label, bound at the end of the
    WHERE group. "" when there is none, when the question asks for ids or links, or when the query groups, counts,
    holds blank nodes or would not parse rewritten. A thing only an OPTIONAL binds gets its label inside it."""
    shape = read(sparql)
    bare = bare_things(shape) if shape.form == "SELECT" and not shape.aggregates and not shape.group_by else []
    toks = parse(sparql).tokens
    if not bare or _IDS.search(question) or any(t.text == "[" for t in toks):  # blank nodes: the reader skips them
        return ""
    start = next(i for i, t in enumerate(toks) if t.text.upper() == "SELECT")
    opening = next((i for i in range(start, len(toks)) if toks[i].text == "{"), None)
    # the WHERE group closes last (solution modifiers hold no braces); anything else fails the parse below
    closing = max((i for i, t in enumerate(toks) if t.text == "}"), default=None)
    if opening is None or closing is None:
        return ""
    taken = {t.text for t in toks if t.kind == "var"}
    names = {v: _fresh(f"{v}_label", taken) for v in bare}
    edits = [(t.start, t.end, names[t.text]) for t in toks[start:opening] if t.text in names]
    optional = required_after_optional(_labelled_at(sparql, toks, {closing: list(names.items())}))
    # a thing only an OPTIONAL binds gets its label inside that OPTIONAL: after it, the label pattern would match every
    # labelled node wherever the OPTIONAL found nothing
    at: dict[int, list[tuple[str, str]]] = {}
    for v, n in names.items():
        at.setdefault(_binding_optional(toks, v, opening) if v in optional else closing, []).append((v, n))
    if -1 in at:
        return ""
    out = _labelled_at(sparql, toks, at, edits)
    if not parses(out) or (required_after_optional(out) and not required_after_optional(sparql)):
        return ""
    return out


def _labelled_at(sparql: str, toks: Sequence[Token], at: dict[int, list[tuple[str, str]]],
                 edits: list[tuple[int, int, str]] | None = None) -> str:
    """``sparql`` with ``?v rdfs:label ?n.`` put before each closing brace of ``at`` (token index -> the pairs)."""
    edits = list(edits or [])
    for closing, pairs in at.items():
        before = toks[closing - 1].text
        bound = " ".join(f"{v} rdfs:label {n}." for v, n in pairs)
        edits.append((toks[closing].start, toks[closing].start,
                      ("" if before in (".", "{") else " .") + f" {bound} "))
    out = sparql
    for a, b, text in sorted(edits, reverse=True):
        out = out[:a] + text + out[b:]
    return out


def _binding_optional(toks: Sequence[Token], var: str, opening: int) -> int:
    """The closing brace of the first OPTIONAL group (after ``opening``) that holds ``var``; -1 when none does."""
    for i in range(opening, len(toks) - 1):
        if toks[i].text.upper() == "OPTIONAL" and toks[i + 1].text == "{":
            j = brackets.closing(toks, i + 1)
            j = len(toks) if j is None else j
            if any(t.text == var for t in toks[i + 2:j]):
                return j
    return -1


def _fresh(name: str, taken: set[str]) -> str:
    n, out = 1, name
    while out in taken:
        n, out = n + 1, f"{name}{n}"
    taken.add(out)
    return out
