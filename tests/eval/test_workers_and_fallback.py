"""``kgqa eval`` scores the pipeline as configured (KGQA_LLM_FALLBACK holds), and against a model server with few
slots asks no more questions at once than it has slots, so queueing is not counted as a question's own time."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from pipeline import cli
from pipeline.eval.arguments import DEFAULT_WORKERS
from pipeline.eval.cli import default_workers
from pipeline.factory import build_generator
from pipeline.settings import Settings


@pytest.mark.parametrize("fallback", ["adapter", "none"])
def test_eval_builds_the_pipeline_with_the_configured_fallback(fallback: str, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[Settings] = []
    warmed: list[object] = []
    pipe = object()
    monkeypatch.setattr(cli, "build_pipeline", lambda settings, **_: built.append(settings) or pipe)
    monkeypatch.setattr(cli, "warm_up", lambda p: warmed.append(p) or {"store": 0.1})
    monkeypatch.setattr("pipeline.eval.cli.run_eval_command", lambda args, settings, build: build() and 0)
    cli.cmd_eval(argparse.Namespace(), Settings(llm_fallback=fallback))
    assert [s.llm_fallback for s in built] == [fallback]
    assert warmed == [pipe]  # warmed up before its questions, as the bot is


class Asker:
    def __init__(self, generator: Any) -> None:
        self.generator = generator


def test_the_default_workers_are_a_local_models_slots(tmp_path: Path) -> None:
    for slots in (1, 3):
        gen = build_generator(Settings(local_model=str(tmp_path / "m.gguf"), local_slots=slots), "local")
        assert default_workers(Asker(gen)) == slots  # type: ignore[arg-type]


def test_the_default_workers_are_what_an_openai_server_says(tgi: Any) -> None:
    gen = build_generator(Settings(openai_url=tgi.url + "/v1"), "openai")
    assert default_workers(Asker(gen)) == DEFAULT_WORKERS  # TGI has no /props: the default
    tgi.slots = 1
    assert default_workers(Asker(gen)) == 1  # llama.cpp's /props says one slot
    assert default_workers(Asker(build_generator(Settings(), "adapter"))) == DEFAULT_WORKERS  # type: ignore[arg-type]
