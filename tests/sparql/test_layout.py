"""The SPARQL layout: one clause a line, blocks indented, and the same query — the same tokens, and both parse."""
from __future__ import annotations

import random

from pipeline.sciqa import SciQA
from pipeline.sparql.layout import layout
from pipeline.sparql.lexer import tokenize
from pipeline.sparql.text import add_prefixes, canonical, syntax_errors

T05 = ('SELECT DISTINCT ?model ?model_lbl WHERE { ?metric a orkgc:Metric; rdfs:label ?metric_lbl. FILTER (str('
       '?metric_lbl) = "Score") { SELECT ?model ?model_lbl WHERE { ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. '
       'FILTER (str(?dataset_lbl) = "Atari 2600 Defender") ?benchmark orkgp:HAS_DATASET ?dataset; '
       'orkgp:HAS_EVALUATION ?eval. ?eval orkgp:HAS_VALUE ?value; orkgp:HAS_METRIC ?metric. ?cont '
       'orkgp:HAS_BENCHMARK ?benchmark; orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. } '
       'ORDER BY DESC(?value) LIMIT 1 } }')


def test_a_squashed_query_is_laid_out_one_clause_a_line() -> None:
    assert layout(T05).splitlines() == [
        "SELECT DISTINCT ?model ?model_lbl WHERE {",
        "  ?metric a orkgc:Metric;",
        "    rdfs:label ?metric_lbl.",
        '  FILTER(str(?metric_lbl) = "Score")',
        "  {",
        "    SELECT ?model ?model_lbl WHERE {",
        "      ?dataset a orkgc:Dataset;",
        "        rdfs:label ?dataset_lbl.",
        '      FILTER(str(?dataset_lbl) = "Atari 2600 Defender")',
        "      ?benchmark orkgp:HAS_DATASET ?dataset;",
        "        orkgp:HAS_EVALUATION ?eval.",
        "      ?eval orkgp:HAS_VALUE ?value;",
        "        orkgp:HAS_METRIC ?metric.",
        "      ?cont orkgp:HAS_BENCHMARK ?benchmark;",
        "        orkgp:HAS_MODEL ?model.",
        "      ?model rdfs:label ?model_lbl.",
        "    }",
        "    ORDER BY DESC(?value)",
        "    LIMIT 1",
        "  }",
        "}",
    ]


def test_tokens_that_must_touch_stay_together_and_numbers_keep_their_dot_apart() -> None:
    query = 'PREFIX x: <http://e.org/> SELECT * WHERE { ?p x:year 2019 . ?p x:l "a"@en, "1"^^x:int } LIMIT 3'
    shown = layout(query)
    assert '"a"@en' in shown and '"1"^^x:int' in shown and "2019 ." in shown
    assert shown.splitlines()[0] == "PREFIX x: <http://e.org/>" and shown.splitlines()[-1] == "LIMIT 3"
    assert [t.text for t in tokenize(shown)] == [t.text for t in tokenize(query)]


def test_every_sciqa_query_keeps_its_meaning(sciqa: SciQA) -> None:
    """Same tokens in the same order for every query; a sample parses to the same algebra (the parser is slow)."""
    from rdflib.plugins.sparql.algebra import translateQuery
    from rdflib.plugins.sparql.parser import parseQuery

    queries = [r.sparql for r in sciqa.all()]
    assert all(canonical(layout(q)) == canonical(q) for q in queries)
    for query in random.Random(14).sample(queries, 40) + [T05]:
        before, after = add_prefixes(query), add_prefixes(layout(query))
        assert not syntax_errors(after) and not syntax_errors(before)
        assert str(translateQuery(parseQuery(after)).algebra) == str(translateQuery(parseQuery(before)).algebra)
