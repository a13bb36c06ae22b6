"""CI holds the LLM path's quality, not only its clean endings: the packaged Qwen2.5-Coder-0.5B (`kgqa models fetch`)
writes every query (no adapter) for a fixed handful of final-phase and new-intent questions on the graph rebuilt from
SciQA, with the product's grounding defaults (KGQA_LLM_*), scored exactly as the evaluation scores them: a refactor
that breaks what the model gets right fails here. The 0.5B answered all 6 exactly on 2026-12-02 (the store of SciQA's
train pairs, greedy decoding: the figure does not depend on the machine's load); the floor sits one under it. Since
2026-12-04 the defaults have the model read each question first (KGQA_LLM_READER): it held the floor so."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pipeline.core import Pipeline
from pipeline.eval.questions import EvalQuestion, load_questions
from pipeline.eval.scorer import score_question
from pipeline.factory import build_pipeline
from pipeline.generators.weights import CATALOGUE
from pipeline.sciqa import SciQA
from pipeline.settings import Settings

REPO = Path(__file__).resolve().parents[2]
TEMPLATES = ("T01", "T02", "T04", "T05")  # the first final-phase question of each
NEW_INTENTS = ("NS-C1", "NS-V1")  # a count and a value, tests/data/eval/novel-intents-sciqa.json
FLOOR = 5  # of 6 exact: one under the measured 6


def handful(sciqa: SciQA) -> list[EvalQuestion]:
    final = load_questions("final", sciqa)
    picked = [next(q for q in final if q.template_id == t) for t in TEMPLATES]
    return picked + [q for q in load_questions(str(REPO / "tests/data/eval/novel-intents-sciqa.json"), sciqa)
                     if q.id in NEW_INTENTS]


@pytest.fixture(scope="module")
def pipeline(train_settings: Settings, train_store: Any) -> Iterator[Pipeline]:
    model = Settings.from_env(dotenv=None).models_dir / CATALOGUE["qwen2.5-coder-0.5b"].file
    if not model.is_file():  # the test command fetches it first; a test never downloads
        pytest.fail(f"{model} is missing: run `kgqa models fetch qwen2.5-coder-0.5b`")
    settings = train_settings.with_(generator="local", local_model=str(model), llm_fallback="none", shots=3,
                                    local_timeout=1800.0, max_new_tokens=256, kg="sciqa")
    pipe = build_pipeline(settings.model_copy(update={"deadline": None}))
    yield pipe
    pipe.generator.server.stop()  # type: ignore[attr-defined]  (the model part itself)


@pytest.mark.slow
def test_the_small_model_keeps_its_right_answers(pipeline: Pipeline, sciqa: SciQA) -> None:
    asked = handful(sciqa)
    assert len(asked) == 6
    scored = {q.id: score_question(q.gold, _flat(pipeline, q.question)).exact for q in asked}
    assert sum(scored.values()) >= FLOOR, json.dumps(scored)


def _flat(pipeline: Pipeline, question: str) -> list[str]:
    answer = pipeline.ask(question)
    return answer.rows.flat() if answer.rows is not None else []
