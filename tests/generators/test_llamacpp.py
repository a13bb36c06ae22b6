"""The local server's exact speedups: the settings reach llama.cpp's launch parameters, and with the real 0.5B model
drafting changes the cost of a reply, never its text."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import ConfigError
from pipeline.factory import build_generator
from pipeline.generators.embedded import EmbeddedLlamaGenerator
from pipeline.generators.llamacpp import LlamaServer, ServerConfig, launch_params
from pipeline.generators.weights import CATALOGUE
from pipeline.settings import Settings


def _types(params: Any) -> list[str]:
    return [t.name for t in params.speculative.types]


def test_the_product_drafts_from_the_prompt_by_default(tmp_path: Path) -> None:
    gen = build_generator(Settings(local_model=str(tmp_path / "m.gguf"), llm_fallback="none"), "local")
    params = launch_params(gen.server.config)  # type: ignore[attr-defined]
    assert _types(params) == ["COMMON_SPECULATIVE_TYPE_NGRAM_SIMPLE"]
    assert (params.speculative.ngram_simple.size_n, params.speculative.ngram_simple.size_m) == (3, 32)
    assert params.cache_prompt  # a question reuses what the last prompt shares with it (the task text)


def test_the_draft_settings_reach_the_server(tmp_path: Path, environment: pytest.MonkeyPatch) -> None:
    for var, value in {"KGQA_LOCAL_MODEL": str(tmp_path / "m.gguf"), "KGQA_LOCAL_DRAFT_NGRAM": "4",
                       "KGQA_LOCAL_DRAFT_MAX": "16", "KGQA_LOCAL_THREADS": "2"}.items():
        environment.setenv(var, value)
    s = Settings.from_env(dotenv=None)
    params = launch_params(build_generator(s.with_(llm_fallback="none"), "local").server.config)  # type: ignore
    assert (params.speculative.ngram_simple.size_n, params.speculative.ngram_simple.size_m) == (4, 16)
    assert params.speculative.draft.n_max == 16 and params.cpuparams.n_threads == 2
    environment.setenv("KGQA_LOCAL_DRAFT", "none")
    off = Settings.from_env(dotenv=None)
    assert _types(launch_params(ServerConfig.of(off, "m.gguf"))) == ["COMMON_SPECULATIVE_TYPE_NONE"]


def test_an_unknown_draft_kind_is_one_line(environment: pytest.MonkeyPatch) -> None:
    environment.setenv("KGQA_LOCAL_DRAFT", "eagle")
    with pytest.raises(ConfigError, match=r"^KGQA_LOCAL_DRAFT=eagle: input should be 'ngram-simple' or 'none'$"):
        Settings.from_env(dotenv=None)


QUESTIONS = ("Which model has achieved the highest Accuracy score on the Story Cloze Test benchmark dataset?",
             "List the title and ID of research papers that contain a benchmark over the TREC-6 dataset?")


@pytest.mark.slow
def test_drafting_changes_the_cost_of_a_reply_never_its_text(train_settings: Settings, train_store: Any,
                                                              tmp_path: Path) -> None:
    """The real 0.5B model (installed by scripts/models.py, as the test command does) on loopback, greedy, the
    product's prompt over the stored examples: the same replies with drafting off and on, and the drafted run drafted
    (llama.cpp's own per-reply timings in the server's log). One server at a time."""
    model = Settings.from_env(dotenv=None).models_dir / CATALOGUE["qwen2.5-coder-0.5b"].file
    assert model.is_file(), f"{model} is missing: run `PYTHONPATH=. python scripts/models.py qwen2.5-coder-0.5b`"
    examples = {q: train_store.search(q, 3) for q in QUESTIONS}
    replies: dict[str, list[str]] = {}
    for draft in ("none", "ngram-simple"):
        config = ServerConfig(model=str(model), threads=2, context=2048, slots=1, draft=draft, draft_ngram=3,
                              draft_max=32)
        server = LlamaServer(config, tmp_path / f"{draft}.log")
        try:
            # the timeout is a safety net, not a time limit
            generator = EmbeddedLlamaGenerator(server, timeout=1800.0, max_new_tokens=256)
            replies[draft] = [generator.generate(q, examples[q]).raw for q in QUESTIONS]
        finally:
            server.stop()
    assert replies["ngram-simple"] == replies["none"]
    assert all("orkgp:HAS_DATASET" in reply for reply in replies["none"])
    assert "draft acceptance" not in (tmp_path / "none.log").read_text(errors="replace")
    assert "draft acceptance" in (tmp_path / "ngram-simple.log").read_text(errors="replace")
