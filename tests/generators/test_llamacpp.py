"""The local server's exact speedups: the settings reach llama.cpp's launch parameters."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import ConfigError
from pipeline.factory import build_generator
from pipeline.generators.llamacpp import ServerConfig, launch_params
from pipeline.settings import Settings


def _types(params: Any) -> list[str]:
    return [t.name for t in params.speculative.types]


def test_the_product_drafts_from_the_prompt_by_default(tmp_path: Path) -> None:
    gen = build_generator(Settings(local_model=str(tmp_path / "m.gguf"), llm_fallback="none"), "local")
    params = launch_params(gen.inner.server.config)  # type: ignore[attr-defined]
    assert _types(params) == ["COMMON_SPECULATIVE_TYPE_NGRAM_SIMPLE"]
    assert (params.speculative.ngram_simple.size_n, params.speculative.ngram_simple.size_m) == (3, 32)
    assert params.cache_prompt  # a question reuses what the last prompt shares with it (the task text)


def test_the_draft_settings_reach_the_server(tmp_path: Path, environment: pytest.MonkeyPatch) -> None:
    for var, value in {"KGQA_LOCAL_MODEL": str(tmp_path / "m.gguf"), "KGQA_LOCAL_DRAFT_NGRAM": "4",
                       "KGQA_LOCAL_DRAFT_MAX": "16", "KGQA_LOCAL_THREADS": "2"}.items():
        environment.setenv(var, value)
    s = Settings.from_env(dotenv=None)
    params = launch_params(build_generator(s.with_(llm_fallback="none"), "local").inner.server.config)  # type: ignore
    assert (params.speculative.ngram_simple.size_n, params.speculative.ngram_simple.size_m) == (4, 16)
    assert params.speculative.draft.n_max == 16 and params.cpuparams.n_threads == 2
    environment.setenv("KGQA_LOCAL_DRAFT", "none")
    off = Settings.from_env(dotenv=None)
    assert _types(launch_params(ServerConfig.of(off, "m.gguf"))) == ["COMMON_SPECULATIVE_TYPE_NONE"]


def test_an_unknown_draft_kind_is_one_line(environment: pytest.MonkeyPatch) -> None:
    environment.setenv("KGQA_LOCAL_DRAFT", "eagle")
    with pytest.raises(ConfigError, match=r"^KGQA_LOCAL_DRAFT=eagle: input should be 'ngram-simple' or 'none'$"):
        Settings.from_env(dotenv=None)
