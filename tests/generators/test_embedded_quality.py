"""CI holds the LLM path's quality, not only its clean endings: the packaged Qwen2.5-Coder-0.5B (scripts/models.py)
writes every query (no adapter) for a fixed handful of final-phase and new-intent questions on the graph rebuilt from
SciQA, with the product's grounding defaults (KGQA_LLM_*), scored exactly as the evaluation scores them: a refactor
that breaks what the model gets right fails here. The floor is provisional: this handful was not run to the end when
it was written (the cores were saturated, docs/results/llm-grounded.md); it is set from the 0.5B's recorded 0.866
micro F1 on the first 30 final-phase questions (most templated ones right, the new intents not expected) and is to be
set a little under this handful's own figure once measured."""
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
NEW_INTENTS = ("NS-C1", "NS-V1")  # a count and a value, docs/eval/novel-intents-sciqa.json
FLOOR = 3  # of 6 exact (provisional, see above)


def handful(sciqa: SciQA) -> list[EvalQuestion]:
    final = load_questions("final", sciqa)
    picked = [next(q for q in final if q.template_id == t) for t in TEMPLATES]
    return picked + [q for q in load_questions(str(REPO / "docs/eval/novel-intents-sciqa.json"), sciqa)
                     if q.id in NEW_INTENTS]


@pytest.fixture(scope="module")
def pipeline(train_settings: Settings, train_store: Any) -> Iterator[Pipeline]:
    model = Settings.from_env(dotenv=None).models_dir / CATALOGUE["qwen2.5-coder-0.5b"].file
    if not model.is_file():  # the test command fetches it first; a test never downloads
        pytest.fail(f"{model} is missing: run `PYTHONPATH=. python scripts/models.py qwen2.5-coder-0.5b`")
    settings = train_settings.with_(generator="local", local_model=str(model), llm_fallback="none", shots=3,
                                    local_timeout=1800.0, max_new_tokens=256, kg="sciqa")
    pipe = build_pipeline(settings.model_copy(update={"deadline": None}))
    yield pipe
    # with no fallback the repair step wraps the model itself
    pipe.generator.inner.server.stop()  # type: ignore[attr-defined]


@pytest.mark.slow
def test_the_small_model_keeps_its_right_answers(pipeline: Pipeline, sciqa: SciQA) -> None:
    asked = handful(sciqa)
    assert len(asked) == 6
    scored = {q.id: score_question(q.gold, _flat(pipeline, q.question)).exact for q in asked}
    assert sum(scored.values()) >= FLOOR, json.dumps(scored)


def _flat(pipeline: Pipeline, question: str) -> list[str]:
    answer = pipeline.ask(question)
    return answer.rows.flat() if answer.rows is not None else []
