"""The OpenAI-compatible generator against the TGI stand-in's /v1/chat/completions route."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import GeneratorError, GeneratorTimeout, Reason
from pipeline.generators.openai import OpenAIGenerator
from pipeline.records import Example, Retrieved
from pipeline.schema.grammar import gbnf
from pipeline.schema.grounding import Context, Grounding

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = Retrieved(Example("AQ1", "Which model has achieved the highest F1 score on the SQuAD1.1 benchmark dataset?",
                            'SELECT ?m WHERE { ?d rdfs:label "SQuAD1.1" }', "T05"), 0.9)


def _client(url: str, timeout: float) -> OpenAIGenerator:
    """A client for a one-model server (any model name serves), without an API key."""
    return OpenAIGenerator(url, "tgi", None, timeout=timeout, max_new_tokens=512, stream=True)


@pytest.mark.parametrize("stream", [True, False])
def test_the_chat_route_returns_the_query(tgi: Any, stream: bool) -> None:
    tgi.enqueue("```sparql\nSELECT ?m WHERE { ?d rdfs:label \"CoQA\" }\n```")
    gen = OpenAIGenerator(tgi.url + "/v1", "tgi", None, timeout=10, stream=stream,
                          max_new_tokens=512).generate("Best F1 on CoQA?", [EXAMPLE])
    assert gen.sparql == 'SELECT ?m WHERE { ?d rdfs:label "CoQA" }' and gen.generator == "openai"
    path, body = tgi.requests[-1]
    assert path == "/v1/chat/completions" and body["temperature"] == 0.0 and body["stream"] is stream
    assert body["messages"][0]["content"].startswith("Task: Generate SPARQL queries to query the ORKG.")


def test_server_errors_become_generator_errors(tgi: Any) -> None:
    tgi.set_fault("500")
    with pytest.raises(GeneratorError):
        _client(tgi.url + "/v1", timeout=5).generate("q?", [EXAMPLE])


def test_offline_mode_variables_do_not_stop_a_local_llm_server(tgi: Any) -> None:
    """HF_HUB_OFFLINE / TRANSFORMERS_OFFLINE keep models from downloading in an air-gapped deployment; the
    huggingface_hub client used to refuse every request then, even to an LLM server on loopback."""
    tgi.enqueue('SELECT ?m WHERE { ?d rdfs:label "CoQA" }')
    tgi.enqueue('SELECT ?m WHERE { ?d rdfs:label "CoQA" }')
    code = ("import sys; from pipeline.generators.openai import OpenAIGenerator\n"
            "for stream in (True, False):\n"
            "    asked = OpenAIGenerator(sys.argv[1], 'tgi', None, timeout=10, max_new_tokens=512, stream=stream)\n"
            "    print(asked.generate('Best F1 on CoQA?', []).sparql)")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code, tgi.url + "/v1"], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == ['SELECT ?m WHERE { ?d rdfs:label "CoQA" }'] * 2


@pytest.mark.parametrize("fault, kind, says, reason", [
    ("hang", GeneratorTimeout, "did not answer in time", Reason.TIMEOUT),
    ("500", GeneratorError, "HTTP 500", Reason.FAILED),
    ("503", GeneratorError, "HTTP 503", Reason.OVERLOADED),
    ("drop", GeneratorError, "could not be reached", Reason.DROPPED),
    ("bad_json", GeneratorError, "not the OpenAI chat format", Reason.BAD_REPLY),
    ("truncated_sse", GeneratorError, "the language model at", Reason.FAILED)])
def test_faults_become_generator_errors_of_their_kind(tgi: Any, fault: str, kind: type[Exception], says: str,
                                                      reason: Reason) -> None:
    tgi.set_fault(fault)
    with pytest.raises(kind, match=says) as raised:
        _client(tgi.url + "/v1", timeout=1).generate("q?", [EXAMPLE])
    assert isinstance(raised.value, GeneratorError) and raised.value.reason is reason


def test_an_unreachable_server_is_said_and_pinged_false() -> None:
    with pytest.raises(GeneratorError, match="could not be reached"):
        _client("http://127.0.0.1:9/v1", timeout=2).generate("q?", [EXAMPLE])
    assert _client("http://127.0.0.1:9/v1", timeout=60.0).ping(1) is False


def _poll(condition: Any, seconds: float = 10.0) -> bool:
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def test_past_the_deadline_the_stream_is_cut_and_the_prompt_kept(tgi: Any) -> None:
    """An abandoned generation used to stream on for nobody, keeping a one-slot server busy, and ``ask --json``
    showed an empty prompt and raw generation."""
    from pipeline.core import Bounds, Parts, Pipeline
    from pipeline.records import Outcome
    from standins.fakes import RecordingKG

    class Store:
        def search(self, question: str, k: int) -> list[Retrieved]:
            return [EXAMPLE]

    words = [f"?v{i}" for i in range(40)]
    tgi.enqueue("SELECT " + " ".join(words) + " WHERE { ?s ?p ?o }")
    tgi.set_fault("trickle")
    tgi.trickle_seconds = 0.1
    answer = Pipeline(Parts(Store(), _client(tgi.url + "/v1", timeout=30), RecordingKG()),  # type: ignore[arg-type]
                      Bounds(shots=3, row_cap=1000, max_question_chars=2000, deadline=1.0,
                             workers=4)).ask("Best F1 on CoQA?")
    assert answer.outcome is Outcome.TIMED_OUT
    shown = answer.to_json()
    assert shown["prompt"].startswith("Task: Generate SPARQL") and shown["raw_generation"].startswith("SELECT ?v0")
    assert _poll(lambda: tgi.disconnects == 1), "the abandoned stream was not closed"
    assert tgi.events_sent < len(words)  # the server stopped writing long before the end


class _Held(Grounding):
    """A grounding whose context is fixed: a line of schema and the names decoding is held to."""

    def __init__(self, names: tuple[str, ...] | None) -> None:
        self.names = names

    def context(self, question: str) -> Context:
        return Context("Graph schema (names this graph holds, with what they mean):\norkgp:P31 predicate\n",
                       self.names)


def test_the_graphs_grammar_and_schema_go_with_the_request_and_its_follow_up(tgi: Any) -> None:
    tgi.enqueue("SELECT ?m WHERE { ?d orkgp:P31 ?m }")
    tgi.enqueue("SELECT ?m WHERE { ?d orkgp:P31 ?m . }")
    gen = OpenAIGenerator(tgi.url + "/v1", "tgi", None, timeout=10, stream=True, max_new_tokens=64,
                          grounding=_Held(("orkgp:P31", "rdfs:label")))
    first = gen.generate("Best F1 on CoQA?", [EXAMPLE])
    _, body = tgi.requests[-1]
    assert "Graph schema" in body["messages"][0]["content"] and first.prompt == body["messages"][0]["content"]
    assert body["grammar"] == gbnf(("orkgp:P31", "rdfs:label"))
    gen.complete(gen.follow_up(first, "Use only the graph's names."))
    assert tgi.requests[-1][1]["grammar"] == body["grammar"]  # the re-ask is held to the same names


def test_without_a_grammar_the_request_is_todays(tgi: Any) -> None:
    tgi.enqueue("SELECT ?m WHERE { ?d orkgp:P31 ?m }")
    OpenAIGenerator(tgi.url + "/v1", "tgi", None, timeout=10, stream=False, max_new_tokens=64,
                    grounding=_Held(None)).generate("Best F1 on CoQA?", [EXAMPLE])
    assert "grammar" not in tgi.requests[-1][1]
