"""The grammar lets a query write only the graph's names: its text (GBNF and regex alike) and the real llama.cpp
server with the 0.5B model decoding under it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.generators.embedded import EmbeddedLlamaGenerator
from pipeline.generators.llamacpp import LlamaServer, ServerConfig
from pipeline.generators.weights import CATALOGUE
from pipeline.names.vocabulary import used_names
from pipeline.records import Example, Retrieved
from pipeline.schema.grammar import REFUSAL, STANDARD, allowed_names, gbnf, regex
from pipeline.schema.grounding import Context, Grounding
from pipeline.settings import Settings

GRAPH = ("orkgp:P31", "orkgp:P32", "orkgp:HAS_DATASET", "orkgc:Paper", "orkgr:R153801")
LEGAL = ('PREFIX orkgp: <http://orkg.org/orkg/predicate/>\nSELECT DISTINCT ?problem ?problem_lbl WHERE {\n'
         '  ?paper a orkgc:Paper; orkgp:P31 ?c. ?c orkgp:P32 ?problem. ?problem rdfs:label ?problem_lbl.\n'
         '  FILTER(REGEX(STR(?problem_lbl), "geopoli?tics", "i") && ?x != "a\\"b"@en) BIND(xsd:float(?v) AS ?f)\n'
         '} ORDER BY DESC(COUNT(?problem)) LIMIT 5')


def test_a_query_of_the_graphs_names_is_in_the_language() -> None:
    assert re.fullmatch(regex(allowed_names(GRAPH)), LEGAL)
    assert re.fullmatch(regex(allowed_names(GRAPH)), f"```sparql\n{LEGAL}\n```")
    assert re.fullmatch(regex(allowed_names(GRAPH)), f"{REFUSAL} write this query, the graph has no such comparison.")


@pytest.mark.parametrize("bad", [
    "SELECT ?x WHERE { ?p orkgp:P99 ?x }",  # a predicate the graph lacks
    "SELECT ?x WHERE { ?p orkgp:P3 ?x }",  # a prefix of one it has
    "SELECT ?x WHERE { ?p a orkgc:Article }",
    "SELECT ?x WHERE { ?p <http://orkg.org/orkg/predicate/P99> ?x }",  # a full IRI
    "PREFIX ex: <http://example.org/> SELECT ?x WHERE { ?p ex:P31 ?x }",  # a namespace of its own
    f"{REFUSAL} say: SELECT ?x WHERE {{ ?p orkgp:P99 ?x }}",  # a query smuggled into the refusal
], ids=["unknown", "prefix-of-known", "unknown-class", "full-iri", "own-namespace", "in-a-refusal"])
def test_a_name_the_graph_lacks_cannot_be_written(bad: str) -> None:
    assert not re.fullmatch(regex(allowed_names(GRAPH)), bad)


def test_the_gbnf_lists_exactly_the_allowed_names() -> None:
    text = gbnf(allowed_names(GRAPH, ["orkgr:R1"]))
    rules = dict(line.split(" ::= ", 1) for line in text.splitlines())
    assert rules["root"].startswith("fence? sp (refusal | chunk* wordy?)")
    named = set(re.findall(r'"([^"]+)"', rules["name"]))
    assert named == {*GRAPH, "orkgr:R1", *STANDARD}
    assert ":" not in rules["word"] and ":" not in rules["punct"]  # no other way to write a prefixed name


def test_allowed_names_leave_out_what_is_not_a_plain_prefixed_name() -> None:
    assert allowed_names(["orkgp:P31", 'orkgp:P" | x', "<http://x>"]) == sorted({"orkgp:P31", *STANDARD})


class _Fixed(Grounding):
    """A grounding that holds decoding to the given names and says nothing in the prompt."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names

    def context(self, question: str) -> Context:
        return Context("", self.names)


@pytest.mark.slow
def test_the_real_server_under_the_grammar_cannot_write_an_invented_name(tmp_path: Path) -> None:
    """The 0.5B model shown an example that uses a predicate the graph lacks copies it when free, and cannot under
    the grammar of the graph's names."""
    model = Settings.from_env(dotenv=None).models_dir / CATALOGUE["qwen2.5-coder-0.5b"].file
    assert model.is_file(), f"{model} is missing: run `PYTHONPATH=. python scripts/models.py qwen2.5-coder-0.5b`"
    question = "Which papers have the research problem Question Answering?"
    example = Retrieved(Example("E", "Which papers have the research problem Image Generation?",
                                'SELECT ?paper WHERE { ?paper orkgp:P31 ?c. ?c orkgp:P99999 ?p. ?p rdfs:label '
                                '"Image Generation" }'), 0.9)
    server = LlamaServer(ServerConfig(str(model), 2, 2048, 1, "ngram-simple", 3, 32), tmp_path / "llm.log")
    try:
        free = EmbeddedLlamaGenerator(server, timeout=1800.0, max_new_tokens=40).generate(question, [example])
        held = EmbeddedLlamaGenerator(server, timeout=1800.0, max_new_tokens=40, grounding=_Fixed(GRAPH))
        generation = held.generate(question, [example])
    finally:
        server.stop()
    assert "orkgp:P99999" in free.raw  # free, the model copies the example's name
    assert "P99999" not in generation.raw
    assert set(used_names(generation.raw)) <= set(GRAPH)
