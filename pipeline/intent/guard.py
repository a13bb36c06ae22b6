"""The intent guard: does a query do what the question asks? Every name the question gives is used by the query,
and every operator the question calls for (how many, k-th, lowest, both, yes/no) is one the query has.

It judges what a query means, not how it looks: a name is used when a label test, a REGEX/CONTAINS filter or a
number of the query holds it, or an ORKG resource or comparison property the query names may stand for it. A query
built of vocabulary the guard cannot read (comparison properties ``orkgp:P…``, ``orkgr:R…`` resources) answers a
kind of its own; where the guard cannot tell whether its operators fit, the query runs and the answer says what was
checked (``Finding.notes``), instead of being declined."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from pipeline.intent.conditions import compares, excludes, gives, shown_kinds, unaccounted
from pipeline.intent.meaning import (
    bare_things,
    conflicting_kinds,
    contrary_form,
    lacking,
    picks,
    reached_kinds,
    unjoined_literals,
    untied_answers,
    with_labels,
)
from pipeline.intent.reading import CODE, YEAR, Intent, read_intent, said
from pipeline.names.index import KINDS, LabelIndex, squeeze
from pipeline.records import Generation, Kind, Match
from pipeline.sparql.joins import joins
from pipeline.sparql.parsed import parse
from pipeline.sparql.shape import Shape, read, stem
from pipeline.sparql.text import string_literals

# the vocabulary the guard reads: the classes and properties of the leaderboard questions (anything else is opaque)
READABLE = frozenset({"orkgp:HAS_DATASET", "orkgp:HAS_BENCHMARK", "orkgp:HAS_EVALUATION", "orkgp:HAS_METRIC",
                      "orkgp:HAS_VALUE", "orkgp:HAS_MODEL", "orkgp:HAS_SOURCE_CODE", "orkgp:P29", "orkgp:P30",
                      "orkgp:P31", "orkgp:P32", "orkgc:Dataset", "orkgc:Model", "orkgc:Metric", "orkgc:Problem",
                      "orkgc:ResearchField", "orkgc:Paper"})
VALUE_ASKED = "the value asked for (it answers with things, not their value)"
_YES_NO = frozenset({"yes", "no", "true", "false", "t", "f"})


@dataclass(frozen=True)
class Finding:
    """``ok`` when the query fits the question; else what it lacks, in words (names first, then operators)."""

    missing: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # what the guard could not tell and let run, in words, for the answer
    unjoined: tuple[str, ...] = ()  # names used only where the answer does not depend on them (not a veto)

    @property
    def ok(self) -> bool:
        return not self.missing


def core(name: str, generic: frozenset[str]) -> str:
    """A name without the form words at its edges ('F1 score' -> 'F1'), unless it is nothing else."""
    words = name.split()
    while len(words) > 1 and squeeze(words[-1]) in generic:
        words = words[:-1]
    while len(words) > 1 and squeeze(words[0]) in generic:
        words = words[1:]
    return " ".join(words)


def opaque_terms(sparql: str) -> list[str]:
    """The ORKG resources, properties and classes the query names that the guard cannot read, in order."""
    out: dict[str, None] = {}
    for tok in parse(sparql).named:  # a PREFIX line names no resource
        orkg = tok.text.split(":", 1)[0] in ("orkgr", "orkgp", "orkgc")
        if (tok.kind == "pname" and orkg and tok.text not in READABLE) or \
                (tok.kind == "iri" and "orkg.org" in tok.text):
            out[tok.text] = None
    return list(out)


def _held(key: str, literal: str) -> bool:
    """Whether a literal holds a name (or most of it: 'Story Cloze Test' in 'Story Cloze Test benchmark'), two
    swapped letters forgiven in a name of five or more ('QADL-5@CLEF' ~ "QALD-5@CLEF"; 'WMT2014' is not 'WMT2016')."""
    if key in literal or (2 * len(literal) >= len(key) and literal in key):
        return True
    n = len(key)
    return n >= 5 and any(_swapped(literal[i:i + n], key) for i in range(len(literal) - n + 1))


def _swapped(a: str, b: str) -> bool:
    diff = [i for i in range(len(a)) if a[i] != b[i]] if len(a) == len(b) else []
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


def unused_names(names: Sequence[str], sparql: str, generic: frozenset[str] = frozenset()) -> list[str]:
    """The names the query's string literals and numbers do not hold."""
    literals = [squeeze(lit) for lit in string_literals(sparql)]
    literals += [squeeze(n) for n in parse(sparql).numbers]
    out = []
    for name in names:
        key = squeeze(core(name, generic))
        if len(key) >= 2 and not any(_held(key, lit) for lit in literals):
            out.append(name)
    return out


def counted(sparql: str) -> bool:
    """Whether the query counts anywhere (its answer, a subquery, an ordering, a HAVING) or sums a total."""
    return not parse(sparql).aggregates.isdisjoint(("COUNT", "SUM"))


def answers_yes_or_no(sparql: str, shape: Shape) -> bool:
    """An ASK, or a SELECT that binds its answer to yes/no words (``IF(?x = "T", "Yes", "No")``)."""
    return shape.form == "ASK" or sum(lit.lower() in _YES_NO for lit in string_literals(sparql)) >= 2


def contradicted(question: str, sparql: str, intent: Intent | None = None,
                 shape: Shape | None = None) -> dict[str, str]:
    """What ``sparql``'s form plainly contradicts in ``question`` (``meaning.contrary_form``), whatever its
    vocabulary; ``intent`` read from the question's words and ``shape`` from the query unless given."""
    shape = shape or read(sparql)
    return contrary_form(question, intent or read_intent(question), shape, sparql, counted(sparql),
                         answers_yes_or_no(sparql, shape))


def missing_operators(intent: Intent, shape: Shape, sparql: str = "") -> list[str]:
    """The asked-for operators the query (its shape, and its text when given) lacks, and the ones it has that nobody
    asked for."""
    out: list[str] = []
    ops = intent.operators
    if "count" in ops and not any(func in ("COUNT", "SUM") for func, _, _ in shape.aggregates) and \
            not counted(sparql):
        out.append(lacking("count", intent))
    if "kth" in ops and intent.rank - 1 not in shape.offsets:
        out.append(lacking("kth", intent))
    if "kth" not in ops and any(shape.offsets):
        out.append("a ranking that skips the first places, which the question does not ask for")
    if "lowest" in ops and not any(d == "ASC" for d, _ in shape.order) and \
            not any(func == "MIN" for func, _, _ in shape.aggregates):
        out.append(lacking("lowest", intent))
    if "both" in ops and len({f.literal for f in shape.filters}) < 2:
        out.append("things on both of two")
    if "yesno" in ops and not answers_yes_or_no(sparql, shape) and "count" not in ops:
        out.append(lacking("yesno", intent))
    if "yesno" not in ops and shape.form == "ASK":
        out.append("a question asked as yes/no, which this one is not")
    if "top" in ops and intent.rank not in shape.limits:
        out.append(lacking("top", intent))
    if "every" in ops and not ops & {"top", "kth", "count"} and picks(shape):
        out.append(lacking("every", intent))
    if "except" in ops and not excludes(sparql, things=True):
        out.append(lacking("except", intent))
    return out


def answered_kinds(shape: Shape) -> frozenset[str]:
    """The kinds of thing a SELECT answers, read from its projected variables' names and classes, or the predicates
    leading to them (the object of ``orkgp:P32`` is a research problem, whatever the variable is called)."""
    classes = shape.classes()
    labelled, reached = shape.labelled(), reached_kinds(shape)
    stems = {Kind.PAPER: ("paper",), Kind.MODEL: ("model",), Kind.DATASET: ("dataset",), Kind.METRIC: ("metric",),
             Kind.PROBLEM: ("problem",), Kind.RESEARCHFIELD: ("field", "rf"), CODE: ("code",), YEAR: ("year",),
             Kind.VENUE: ("venue",)}
    out: set[str] = set()
    for v in shape.projection:
        led = reached.get(labelled.get(v, v))
        if led:
            out |= led
            continue
        # a variable's own name and class, and the class of the thing it labels (?title of ?paper a orkgc:Paper)
        n = (stem(v).lower(), classes.get(v, "").lower(), shape.kind_of_var(v))
        out |= {kind for kind, keys in stems.items() if any(k in n[0] for k in keys) or any(k == w for w in n[1:]
                                                                                          for k in keys)}
    return frozenset(out)


def other_answer(asked: frozenset[str], mentioned: frozenset[str], shape: Shape) -> list[str]:
    """When the question asks for papers, models, ... and the query answers no kind of thing the question mentions
    (or none it can name): what it lacks, an answer of the kind asked."""
    if not asked or shape.form != "SELECT" or any(f == "COUNT" for f, _, _ in shape.aggregates):
        return []
    answered = answered_kinds(shape)
    if answered & (mentioned | asked):
        return []
    return [" or ".join(f"{said(kind)}s" for kind in sorted(asked, key=said)) + " as its answer"]


def check(intent: Intent, names: Sequence[str], sparql: str, asked: frozenset[str] = frozenset(),
          generic: frozenset[str] = frozenset(), mentioned: frozenset[str] = frozenset(),
          foreign: frozenset[str] = frozenset(), question: str = "", stated: str = "", value: bool = False
          ) -> Finding:
    """Whether ``sparql`` does what a question with ``intent``, these ``names``, asking for ``asked`` and mentioning
    ``mentioned`` kinds of thing asks; ``generic``: the stored forms' own words (kept off the edges of names);
    ``foreign``: opaque terms known to stand for another question's names (a stored query copied as it is);
    ``question``: its words, for the checks of the query's form (``pipeline.intent.meaning``); ``stated``: its words
    with every name blanked, for the conditions it states (``pipeline.intent.conditions``); ``value``: it asks for a
    value and names no kind of thing ('the highest Accuracy reported on X'), which a query of the leaderboard's
    vocabulary must give."""
    shape = read(sparql)
    opaque = [t for t in opaque_terms(sparql) if t not in foreign]
    unused = unused_names(names, sparql, generic)
    notes: list[str] = []
    if unused and opaque:  # an IRI may name it: the guard cannot look inside an IRI
        notes.append(f"took {_listed(unused)} for what {_listed(opaque[:3], quote=False)} name(s) (not checked)")
        unused = []
    operators = missing_operators(intent, shape, sparql)
    kinds = other_answer(asked, mentioned, shape)
    if shape.form == "SELECT":  # the things listed last as what to show ('… venue and year?'), each given
        kinds += [f"the {said(k)} asked for" for k in sorted(shown_kinds(stated) - answered_kinds(shape), key=said)]
    if value and not asked and shape.form == "SELECT" and not gives(shape, "value"):
        kinds.append(VALUE_ASKED)
    contrary = contradicted(question, sparql, intent, shape)
    if opaque and (operators or kinds):  # a query of another vocabulary than the guard reads: it cannot tell
        unsure = [o for o in operators if o not in {lacking(op, intent) for op in contrary}] + kinds
        if unsure:
            notes.append(f"could not tell whether it gives {'; nor '.join(unsure)}: it answers with "
                         f"{_listed(opaque[:3], quote=False)}, which the guard does not read")
        operators, kinds = [], []
    # what the query's form plainly contradicts stands whatever its vocabulary, said with the reason
    for op, why in contrary.items():
        plain = lacking(op, intent)
        operators = [o for o in operators if o != plain] + [f"{plain} ({why})"]
    conditions = unaccounted(stated, sparql) if stated else []
    if opaque and conditions:  # a comparison property may hold the code, the value, a year's range
        notes.append(f"could not tell whether it holds {'; nor '.join(conditions)}")
        conditions = []
    found = joins(sparql)
    loose = untied_answers(sparql, found) if names else []
    untied = [f"an answer tied to what the question names ({' and '.join(loose)} "
              f"{'is' if len(loose) == 1 else 'are'} joined to none of its names)"] if loose else []
    literals = [lit for lit in dict.fromkeys(string_literals(sparql)) if
                any(squeeze(core(n, generic)) and _held(squeeze(core(n, generic)), squeeze(lit)) for n in names)]
    # a name greater or smaller than a value: a stored query's date filter refilled with a field's name
    valued = [f"the name '{lit}' as the thing it names (it compares it as a value)" for lit in literals
              if compares(sparql, lit)]
    return Finding(tuple([f"the name '{n}'" for n in unused] + valued + operators + conditions + kinds + untied
                         + conflicting_kinds(shape)),
                   tuple(notes),
                   tuple(unjoined_literals(literals, sparql, found)))


def _listed(items: Sequence[str], quote: bool = True) -> str:
    return ", ".join(f"'{i}'" if quote else i for i in items)


def labelled(generation: Generation, question: str) -> Generation:
    """The generation answering with the labels of the things its query projects bare (``meaning.with_labels``),
    saying so in its notes; as it is when there are none, or the query names vocabulary the guard does not read."""
    sparql = generation.sparql or ""
    rewritten = with_labels(sparql, question) if sparql and not opaque_terms(sparql) else ""
    if not rewritten:
        return generation
    bare = _listed(bare_things(read(sparql)), quote=False)
    return replace(generation, sparql=rewritten, notes=generation.notes + (
        f"intent guard: the answer gives the labels of {bare} (the query gave only their IRIs)",))


def slot_kinds(sparql: str) -> dict[str, str]:
    """Label literal -> the kind of thing the query takes it for (only the kinds the graph check knows)."""
    shape = read(sparql)
    out = {f.literal: shape.kind_of_literal(f.literal) for f in shape.filters if f.op == "="}
    return {lit: Kind(kind) for lit, kind in out.items() if kind in KINDS}


_TEXT = re.compile(r"\b(titles?|titled|named|called|mention\w*|contain\w*|words?|phrases?|text)\b", re.I)


def searched_kinds(sparql: str, question: str) -> dict[str, str]:
    """Name the question gives -> the kind of thing in whose labels the query searches for it (a REGEX or CONTAINS
    filter), when the question asks about no titles or words: "Does TableReader address ..." names a thing, which
    the query must take for the kind the graph has it as, not find inside a paper's title."""
    if _TEXT.search(question):
        return {}
    shape, asked = read(sparql), squeeze(question)
    out = {f.literal: shape.kind_of_literal(f.literal) for f in shape.filters
           if f.op == "regex" and squeeze(f.literal) and squeeze(f.literal) in asked}
    return {lit: Kind(kind) for lit, kind in out.items() if kind in KINDS}


def wrong_kinds(taken: dict[str, str], graph: dict[str, tuple[str, set[str]]]) -> list[str]:
    """Names the query takes for one kind of thing while the graph has them only as others."""
    return [f"'{lit}' as the {sorted(graph[lit][1])[0]} it is (the query takes it for a {kind})"
            for lit, kind in taken.items() if lit in graph and kind not in graph[lit][1]]


def loosely_other_kinds(taken: dict[str, str], graph: dict[str, tuple[str, set[str]]], asked: frozenset[str],
                        index: LabelIndex | None) -> list[str]:
    """Names the query takes for the kind the question asks for as its answer ("which datasets has narrativenet
    been evaluated on?" taken as a dataset) that the graph has nothing of that kind like, while it has a thing of
    another kind spelled like it (the model 'NarrativeNet ("large", 2×)'): the query answers about another thing."""
    out = []
    for lit, kind in taken.items():
        if lit in graph or kind not in asked or index is None or index.find(lit, kind).match is not Match.UNKNOWN:
            continue
        other = next(((k, r) for k in KINDS if k != kind and (r := index.find(lit, k)).match is not Match.UNKNOWN),
                     None)
        if other is not None:
            spelled = f" ({_listed(other[1].candidates[:3] or (other[1].chosen or lit,))})"
            out.append(f"'{lit}' as the {other[0]} it is in the graph{spelled}, not a {kind}")
    return out
