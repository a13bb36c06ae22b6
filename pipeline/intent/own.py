"""What a language model's own query (SPARQL it wrote, not a reading it copied) is held to beside every writer's
checks. On questions unlike any stored one the model's own SPARQL was right 0 times and wrong 7 over four runs
(docs/results/intents-guard.md): the queries answered another question — a name the question types left out, or
words no query the rules know places."""
from __future__ import annotations

from pipeline.intent.guard import opaque_terms, unused_names
from pipeline.intent.named import resolve
from pipeline.names.index import LabelIndex, squeeze
from pipeline.parts import KnowledgeGraph
from pipeline.records import Generation
from pipeline.sparql.parsed import parse
from pipeline.sparql.shape import Shape, read
from pipeline.sparql.text import string_literals


def own(generation: Generation) -> bool:
    """Whether ``generation`` is SPARQL a language model wrote itself (not a reading it copied)."""
    return bool(generation.sparql) and bool(generation.attempts) and not generation.generator.startswith("reader:")


def ignored(text: str, generation: Generation, kg: KnowledgeGraph, generic: frozenset[str],
            index: LabelIndex | None) -> tuple[str, ...]:
    """The names the question types as the graph spells them (case and punctuation aside) that the model's own query
    does not use, each as a thing it leaves out ('does quill-xl beat quill-l on kanbun ledger lines' answered by a
    query naming quill-xl alone); none for another writer's query or one naming things by IRI (the guard cannot look
    inside an IRI). On SciQA's 2,565 gold queries this finds 4 (handcrafted questions whose names the graph's
    labels also hold inside longer ones), on the fresh sets' gold none."""
    if not own(generation) or generation.sparql is None or opaque_terms(generation.sparql):
        return ()
    sparql = generation.sparql
    named = string_literals(sparql)  # a query naming nothing ignores every name the question has, however typed
    left = [n.label for n in resolve(text, kg, generic, index, (), index)
            if (squeeze(n.label) == squeeze(text[n.start:n.end]) or not named)
            and unused_names([n.label], sparql, generic) and unused_names([text[n.start:n.end]], sparql, generic)]
    return tuple(f"the name '{label}'" for label in dict.fromkeys(left))


# the predicates whose objects are always things of the graph, never values (a comparison's own properties may hold
# numbers: not these)
_THINGS_AT = {"orkgp:compareContribution", "orkgp:P31", "orkgp:P32", "orkgp:P30", "orkgp:HAS_MODEL",
              "orkgp:HAS_DATASET", "orkgp:HAS_BENCHMARK", "orkgp:HAS_EVALUATION", "orkgp:HAS_METRIC", "orkgp:HAS_VENUE"}


def miscounted(generation: Generation) -> tuple[str, ...]:
    """What a model's own query counts wrong: things of the graph (models, papers, datasets) counted per group without
    DISTINCT, once per score or paper they stand beside ('which dataset has the most models': 12 for 6 models)."""
    if not own(generation) or generation.sparql is None:
        return ()
    shape = read(generation.sparql)
    if not shape.group_by:
        return ()  # a count per group (the most, the fewest): SciQA's plain counts of papers stand as written
    toks = [t.text for t in parse(generation.sparql).tokens]
    things = _things(shape)
    counted = [toks[i + 2] for i, t in enumerate(toks[:-2]) if t.upper() == "COUNT" and toks[i + 1] == "("]
    return tuple(f"each {v.lstrip('?')} counted once (the query counts it once per result)"
                 for v in counted if v in things)


def _things(shape: Shape) -> set[str]:
    """The variables a query binds to things of the graph (models, papers, contributions: never a number)."""
    return {o for _, p, o in shape.triples if p in _THINGS_AT}


def uncast(generation: Generation) -> tuple[str, ...]:
    """A model's own query averaging or summing values as the graph stores them: the ORKG's scores are text
    ('78.4'), so AVG(?value) is no number (an error, the column left empty) until it is cast (xsd:decimal)."""
    if not own(generation) or generation.sparql is None:
        return ()
    toks = [t.text for t in parse(generation.sparql).tokens]
    bare = {toks[i + 2] for i, t in enumerate(toks[:-3]) if t.upper() in ("AVG", "SUM") and toks[i + 1] == "("
            and toks[i + 2].startswith("?") and toks[i + 3] == ")"}
    values = {o for _, p, o in read(generation.sparql).triples if p not in _THINGS_AT}
    return ("the values as numbers (it adds up their text: cast them with xsd:decimal)",) if bare & values else ()


def compares_things(generation: Generation) -> tuple[str, ...]:
    """A model's own query comparing a thing of the graph with a number ('FILTER(?contribution > 6)' for 'more than
    6 contributions'): no thing is a number, so it keeps nothing or everything."""
    if not own(generation) or generation.sparql is None:
        return ()
    shape = read(generation.sparql)
    things = _things(shape)
    return tuple(f"a number of {f.var.lstrip('?')}s (the query compares the things themselves with {f.literal})"
                 for f in shape.compared if f.var in things)
