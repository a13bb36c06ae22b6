"""A query parsed once: the structure's accessors, and one parse per query text through ``Pipeline.ask``."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pipeline.core import Bounds, Parts, Pipeline
from pipeline.sciqa import SciQA
from pipeline.sparql import parsed
from pipeline.sparql.parsed import CACHED_QUERY_CHARS, Query, parse

QUERY = """PREFIX orkgp: <http://orkg.org/orkg/predicate/>
PREFIX ex: <http://example.org/>
SELECT ?model (MAX(?value) AS ?best) WHERE {
  ?paper orkgp:HAS_BENCHMARK ?bench ; orkgp:P31 ?c . # a comment: orkgp:P99
  ?bench rdfs:label "SQuAD 1.1" ; orkgp:HAS_EVALUATION <http://orkg.org/orkg/resource/R1> .
  OPTIONAL { ?c orkgp:HAS_MODEL ?model . FILTER(?year > 2019.5 && ?value != -1) }
} GROUP BY ?model ORDER BY DESC(?best) LIMIT 5"""


def test_the_same_text_is_the_same_structure_and_a_long_one_is_parsed_anew() -> None:
    assert parse(QUERY) is parse(QUERY)
    long = QUERY.replace("LIMIT 5", "FILTER(?x != <x>) " * 400 + "LIMIT 5")
    assert len(long) > CACHED_QUERY_CHARS and parse(long) is not parse(long)
    assert parse(long).tokens == parse(long).tokens and parse(long).tokens[-2].text == "LIMIT"


def test_tokens_keep_their_places_and_comments_are_no_tokens() -> None:
    found = parse(QUERY)
    assert all(QUERY[t.start:t.end] == t.text for t in found.tokens)
    assert "orkgp:P99" not in found.pnames


def test_the_names_it_uses_and_the_prefixes_it_declares() -> None:
    found = parse(QUERY)
    assert found.pnames[:2] == ("orkgp:", "ex:")  # every prefixed name, declarations included
    assert [t.text for t in found.named] == ["orkgp:HAS_BENCHMARK", "orkgp:P31", "rdfs:label", "orkgp:HAS_EVALUATION",
                                             "<http://orkg.org/orkg/resource/R1>", "orkgp:HAS_MODEL"]
    assert dict(found.declared) == {"orkgp": "http://orkg.org/orkg/predicate/", "ex": "http://example.org/"}
    with pytest.raises(TypeError):
        found.declared["x"] = "y"  # type: ignore[index]  # shared by every reader: nobody changes it


def test_numbers_strings_words_variables_and_aggregates() -> None:
    found = parse(QUERY)
    assert found.numbers == ("2019.5", "-1", "5")
    assert found.strings == ("SQuAD 1.1",)
    assert {"SELECT", "OPTIONAL", "FILTER", "MAX", "AS", "DESC", "LIMIT"} <= found.words and "GROUP" in found.words
    assert found.variables == ("model", "value", "best", "paper", "bench", "c", "year")
    assert found.aggregates == {"MAX"}
    assert parse("ASK { ?s ?p 'x' }").aggregates == frozenset() and parse("").tokens == ()


def test_the_groups_are_read_once_and_kept_on_the_structure() -> None:
    found = parse(QUERY)
    assert found.groups is found.groups and found.groups.tokens == found.tokens
    assert found.groups.select is not None and found.groups.first and not found.groups.faults


@pytest.fixture(scope="module")
def graph_pipeline(train_store: Any, sciqa_graph: Any, tmp_path_factory: pytest.TempPathFactory) -> Pipeline:
    """The adapter on the graph rebuilt from SciQA with the names and intent steps, as the product has them: every
    reader of a query (gate, names, intent, the local store's rewrites) takes part."""
    from pipeline.generators.adapter import AdapterGenerator
    from pipeline.intent.step import IntentStep
    from pipeline.names.check import NameCheck
    from pipeline.names.sources import LabelSource
    from pipeline.store.retrieval import FormAwareStore

    store = FormAwareStore(train_store, train_store.encoder, recheck=1.0)
    labels = LabelSource(sciqa_graph, tmp_path_factory.mktemp("labels"), ttl=604800.0, page=1000).available
    return Pipeline(Parts(store, AdapterGenerator(store.min_score, store.knowledge), sciqa_graph,
                          names=NameCheck(labels), intent=IntentStep(store.knowledge, labels=labels)),
                    Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))


def test_each_query_a_question_brings_is_parsed_once(graph_pipeline: Pipeline, sciqa: SciQA,
                                                     monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    graph_pipeline.ask("Which model has achieved the highest Accuracy score on the Story Cloze Test benchmark dataset?")
    texts: Counter[str] = Counter()
    read = parsed._read

    def counted(text: str) -> Query:
        texts[text] += 1
        return read(text)

    monkeypatch.setattr(parsed, "_read", counted)
    parsed._parsed.cache_clear()
    questions = [q for _, q in sciqa.challenge("final")][:12]
    answers = [graph_pipeline.ask(q) for q in questions]
    assert sum(a.sparql is not None for a in answers) >= 10
    assert all(a.sparql in texts for a in answers if a.sparql)  # what ran was read through the one parse
    again = {text: n for text, n in texts.items() if n > 1}
    assert not again, again
