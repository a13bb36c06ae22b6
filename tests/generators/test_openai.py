"""The OpenAI-compatible generator against the TGI stand-in's /v1/chat/completions route."""
from __future__ import annotations

from typing import Any

import pytest

from pipeline.errors import GeneratorError
from pipeline.generators.openai import OpenAIGenerator
from pipeline.records import Example, Retrieved

EXAMPLE = Retrieved(Example("AQ1", "Which model has achieved the highest F1 score on the SQuAD1.1 benchmark dataset?",
                            'SELECT ?m WHERE { ?d rdfs:label "SQuAD1.1" }', "T05"), 0.9)


@pytest.mark.parametrize("stream", [True, False])
def test_the_chat_route_returns_the_query(tgi: Any, stream: bool) -> None:
    tgi.enqueue("```sparql\nSELECT ?m WHERE { ?d rdfs:label \"CoQA\" }\n```")
    gen = OpenAIGenerator(tgi.url + "/v1", timeout=10, stream=stream).generate("Best F1 on CoQA?", [EXAMPLE])
    assert gen.sparql == 'SELECT ?m WHERE { ?d rdfs:label "CoQA" }' and gen.generator == "openai"
    path, body = tgi.requests[-1]
    assert path == "/v1/chat/completions" and body["temperature"] == 0.0 and body["stream"] is stream
    assert body["messages"][0]["content"].startswith("Task: Generate SPARQL queries to query the ORKG.")


def test_server_errors_become_generator_errors(tgi: Any) -> None:
    tgi.set_fault("500")
    with pytest.raises(GeneratorError):
        OpenAIGenerator(tgi.url + "/v1", timeout=5).generate("q?", [EXAMPLE])
