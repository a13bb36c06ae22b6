"""The local server's exact speedups: the settings reach llama.cpp's launch parameters, and with the real 0.5B model
drafting changes the cost of a reply, never its text."""
from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import ConfigError
from pipeline.factory import build_generator
from pipeline.generators.llamacpp import LocalServer, ServerConfig, launch_params
from pipeline.generators.prompt import STOP_SEQUENCES, few_shot
from pipeline.generators.weights import model_path
from pipeline.records import Example, Retrieved
from pipeline.settings import Settings


def _types(params: Any) -> list[str]:
    return [t.name for t in params.speculative.types]


def test_the_product_drafts_from_the_prompt_by_default(tmp_path: Path) -> None:
    gen = build_generator(Settings(local_model=str(tmp_path / "m.gguf"), llm_fallback="none"), "local")
    params = launch_params(gen.inner.server.config)  # type: ignore[attr-defined]
    assert _types(params) == ["COMMON_SPECULATIVE_TYPE_NGRAM_SIMPLE"]
    assert (params.speculative.ngram_simple.size_n, params.speculative.ngram_simple.size_m) == (3, 32)
    assert params.cache_prompt  # a question reuses what the last prompt shares with it (the task text)


def test_the_draft_settings_reach_the_server(tmp_path: Path) -> None:
    s = Settings.from_env(env={"KGQA_LOCAL_MODEL": str(tmp_path / "m.gguf"), "KGQA_LOCAL_DRAFT_NGRAM": "4",
                               "KGQA_LOCAL_DRAFT_MAX": "16", "KGQA_LOCAL_THREADS": "2"}, dotenv=None)
    params = launch_params(build_generator(s.with_(llm_fallback="none"), "local").inner.server.config)  # type: ignore
    assert (params.speculative.ngram_simple.size_n, params.speculative.ngram_simple.size_m) == (4, 16)
    assert params.speculative.draft.n_max == 16 and params.cpuparams.n_threads == 2
    off = Settings.from_env(env={"KGQA_LOCAL_DRAFT": "none"}, dotenv=None)
    assert _types(launch_params(ServerConfig("m.gguf", draft=off.local_draft))) == ["COMMON_SPECULATIVE_TYPE_NONE"]


def test_an_unknown_draft_kind_is_one_line() -> None:
    with pytest.raises(ConfigError, match=r"^KGQA_LOCAL_DRAFT=eagle: input should be 'ngram-simple' or 'none'$"):
        Settings.from_env(env={"KGQA_LOCAL_DRAFT": "eagle"}, dotenv=None)


SHOTS = [Retrieved(Example(f"AQ{i}", f"What are the titles and IDs of research papers that include a benchmark for "
                           f"the {name} dataset?",
                           'SELECT DISTINCT ?paper ?paper_lbl WHERE { ?dataset a orkgc:Dataset; '
                           'rdfs:label ?dataset_lbl. '
                           f'FILTER (str(?dataset_lbl) = "{name}") ?benchmark orkgp:HAS_DATASET ?dataset. '
                           '?cont orkgp:HAS_BENCHMARK ?benchmark. ?paper orkgp:P31 ?cont; rdfs:label ?paper_lbl. }',
                           "T01"), 0.9) for i, name in enumerate(("CoNLL 2003", "TACRED", "SQuAD1.1"))]
QUESTIONS = ("List the title and ID of research papers that contain a benchmark over the TREC-6 dataset?",
             "Give me the papers, with titles and IDs, that benchmark the WMT 2014 English-German dataset?")


def _reply(server: LocalServer, prompt: str) -> tuple[str, int]:
    """The model's text and how many tokens it drafted (llama.cpp's own timings)."""
    body = {"messages": [{"role": "user", "content": prompt}], "temperature": 0.0, "max_tokens": 200,
            "stop": STOP_SEQUENCES}
    request = urllib.request.Request(server.url() + "/v1/chat/completions", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=1800) as response:  # a safety net, not a time limit
        data = json.load(response)
    return data["choices"][0]["message"]["content"], int(data["timings"].get("draft_n", 0))


@pytest.mark.slow
def test_drafting_gives_the_plain_run_s_text_token_for_token(tmp_path: Path) -> None:
    """The real 0.5B model (``python scripts/models.py qwen2.5-coder-0.5b``) on loopback, greedy, with and without
    drafting: the same replies, and the drafted run did draft. (Run inside ``flock /tmp/kgqa-llm.lock``.)"""
    model = model_path("qwen2.5-coder-0.5b", Settings.from_env(dotenv=None).models_dir)
    assert model.is_file(), f"{model} is missing: install it with `python scripts/models.py qwen2.5-coder-0.5b`"
    plain, drafted = (LocalServer(ServerConfig(str(model), 2, 2048, 1, draft=d), tmp_path / f"{d}.log")
                      for d in ("none", "ngram-simple"))
    try:
        for question in QUESTIONS:
            prompt = few_shot(question, SHOTS)
            (want, none), (got, drafts) = _reply(plain, prompt), _reply(drafted, prompt)
            assert got == want and "orkgp:HAS_BENCHMARK" in got
            assert none == 0 and drafts > 0
    finally:
        plain.stop()
        drafted.stop()
