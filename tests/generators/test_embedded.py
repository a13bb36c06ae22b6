"""``--generator local``: one server per process, started at the first question; its death, a file that cannot
load and a prompt longer than the context are one line each, and the question falls back or fails, never crashes."""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from pipeline.blueprint import Blueprint
from pipeline.errors import ConfigError, ModelUnavailable, PromptTooLong
from pipeline.factory import build_generator, build_writers
from pipeline.generators.embedded import EmbeddedLlamaGenerator, shared_server
from pipeline.generators.llamacpp import LlamaServer, ServerConfig
from pipeline.records import Example, Retrieved
from pipeline.settings import Settings
from tests.loop.talk import looped, repairing

EXAMPLE = Retrieved(Example("AQ1", "Which model has achieved the highest F1 score on the SQuAD1.1 benchmark dataset?",
                            'SELECT ?m WHERE { ?d rdfs:label "SQuAD1.1" }', "T05"), 0.9)


class StandInServer(LlamaServer):
    """The server manager with its child replaced by the TGI stand-in (whose /v1 route speaks llama.cpp's API)."""

    def __init__(self, url: str) -> None:
        super().__init__(ServerConfig.of(Settings(), "model.gguf"))
        self.base, self.alive, self.started = url, True, 0

    def url(self) -> str:
        self.started += 1
        return self.base

    def running(self) -> bool:
        return self.alive

    def died(self, within: float = 2.0) -> bool:
        return not self.alive

    def exit_reason(self) -> str:
        return "killed by signal 9, likely out of memory"


def test_the_local_generator_needs_a_model() -> None:
    with pytest.raises(ConfigError, match="KGQA_LOCAL_MODEL"):
        build_generator(Settings(), "local")


def test_a_packaged_name_is_its_file_in_the_model_cache(tmp_path: Path) -> None:
    local = build_generator(Settings(local_model="qwen2.5-coder-0.5b", model_cache=tmp_path), "local")
    assert isinstance(local, EmbeddedLlamaGenerator)
    assert local.server.config.model == str(tmp_path / "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf")
    assert local.timeout == 180.0 and not local.server.running()  # nothing loaded before the first question


def test_one_server_per_model_in_a_process(tmp_path: Path) -> None:
    def config(slots: int) -> ServerConfig:
        return ServerConfig.of(Settings(local_threads=2, local_context=4096, local_slots=slots),
                               str(tmp_path / "m.gguf"))
    assert shared_server(config(1)) is shared_server(config(1))
    assert shared_server(config(1)) is not shared_server(config(2))


def test_a_cpu_model_gets_a_deadline_that_fits_one_generation() -> None:
    s = Settings(deadline=90.0, local_timeout=180.0)
    assert Blueprint.of(s, "local").deadline == 210.0 and Blueprint.of(s, "repair:local").deadline == 210.0
    assert Blueprint.of(s, "openai").deadline == 90.0 and Blueprint.of(s.with_(deadline=0.0), "local").deadline is None


def test_a_missing_model_falls_back_to_the_adapter_with_one_line(tmp_path: Path) -> None:
    s = Settings(local_model=str(tmp_path / "none.gguf"), llm_order="llm-first")
    writers = build_writers(Blueprint.of(s, "local"), build_generator(s, "local"))
    out = looped(writers, "Which model has achieved the highest F1 score on the SQuAD1.1 benchmark dataset?",
                 [EXAMPLE]).generation
    assert out is not None and out.sparql and out.notes[0].startswith("the language model failed (KGQA_LOCAL_MODEL=")
    assert "no such file" in out.notes[0]


def test_a_file_that_fails_to_load_is_not_loaded_again_for_each_question(tmp_path: Path) -> None:
    from tests.generators.test_gguf import write_gguf

    write_gguf(tmp_path / "m.gguf")  # a valid header, but no model llama.cpp can run
    config = ServerConfig.of(Settings(local_threads=1, local_context=256, local_slots=1), str(tmp_path / "m.gguf"))
    server = LlamaServer(config, tmp_path / "log.txt")
    with pytest.raises(ModelUnavailable, match="did not load") as first:
        server.url()
    with pytest.raises(ModelUnavailable) as second:
        server.url()
    assert str(second.value) == str(first.value) and server.starts == 0 and not server.running()


def test_the_model_is_asked_through_the_openai_route(tgi: Any) -> None:
    tgi.enqueue('SELECT ?m WHERE { ?d rdfs:label "CoQA" }')
    gen = EmbeddedLlamaGenerator(StandInServer(tgi.url), timeout=10, max_new_tokens=512)
    out = gen.generate("Best F1 on CoQA?", [EXAMPLE])
    assert out.sparql == 'SELECT ?m WHERE { ?d rdfs:label "CoQA" }' and out.generator == "local"
    assert tgi.requests[-1][0] == "/v1/chat/completions" and tgi.requests[-1][1]["model"] == "model.gguf"


def test_a_server_that_dies_mid_answer_is_said_and_not_asked_again(tgi: Any) -> None:
    server = StandInServer(tgi.url)
    tgi.set_fault("truncated_sse")
    server.alive = False
    # as "local" is built, alone
    gen = repairing(EmbeddedLlamaGenerator(server, timeout=10, max_new_tokens=512))
    with pytest.raises(ModelUnavailable, match=r"stopped mid-answer \(killed by signal 9.*starts again"):
        gen.generate("Best F1 on CoQA?", [EXAMPLE])
    assert server.started == 1  # no second try against a dead server within the question


def test_a_prompt_longer_than_the_context_is_one_line(tgi: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from standins import tgi as standin

    error = {"error": {"code": 400, "message": "the request exceeds the available context size, try increasing it",
                       "type": "exceed_context_size_error", "n_prompt_tokens": 5000, "n_ctx": 4096}}
    monkeypatch.setitem(standin._ERRORS, "500", (400, error))
    tgi.set_fault("500")
    with pytest.raises(PromptTooLong, match=r"^the prompt \(5000 tokens\) is longer than the model's context \(4096 "
                                            r"tokens\): raise KGQA_LOCAL_CONTEXT or use fewer shots$"):
        EmbeddedLlamaGenerator(StandInServer(tgi.url), timeout=10, max_new_tokens=512).generate("q?", [EXAMPLE])


def test_concurrent_first_questions_start_one_server(tmp_path: Path) -> None:
    """Every worker asks ``url()`` at once: they wait for one load, which fails once here (not GGUF) for all."""
    (tmp_path / "m.gguf").write_text("not a model")
    server = LlamaServer(ServerConfig.of(Settings(), str(tmp_path / "m.gguf")))
    errors: list[str] = []

    def ask() -> None:
        try:
            server.url()
        except ModelUnavailable as exc:
            errors.append(str(exc))
    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(errors) == 4 and len(set(errors)) == 1 and "not a GGUF model file" in errors[0]


@pytest.mark.parametrize("levers, given", [({}, False), ({"llm_grammar": True}, True),
                                           ({"llm_schema": True, "llm_links": True}, True)],
                         ids=["all-off", "grammar", "schema+links"])
def test_the_grounding_settings_reach_the_model_generator(tmp_path: Path, levers: dict[str, bool],
                                                          given: bool) -> None:
    from pipeline.factory import grounding_for
    from pipeline.names.lexicon import Lexicon

    settings = Settings(home=tmp_path, local_model="qwen2.5-coder-0.5b", model_cache=tmp_path, llm_fallback="none",
                        **levers)
    kg: Any = type("Graph", (), {"name": "graph"})()  # nothing is read from it before a question
    store: Any = type("Store", (), {"examples": lambda self: []})()
    grounding = grounding_for(settings, Lexicon.of(settings, kg), store)
    assert (grounding.levers.schema, grounding.levers.links, grounding.levers.grammar) == (
        levers.get("llm_schema", False), levers.get("llm_links", False), levers.get("llm_grammar", False))
    local = build_generator(settings, "local", grounding=grounding)
    assert (local.grounding is grounding) is given  # all off: today's prompt, nothing attached
