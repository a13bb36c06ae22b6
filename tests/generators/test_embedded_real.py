"""The real thing: Qwen2.5-Coder-0.5B (GGUF, installed by scripts/models.py into the model cache, as
scripts/test.sh does before the tests) served by llama.cpp on loopback, through the whole path — ``kgqa ask``, a
Slack reply, the MCP ``ask`` tool. Each ends answered or cleanly declined, never a crash; a server killed mid-answer
ends ``failed`` with its reason and the next question is answered by a server started again. A few questions only:
a CPU model takes seconds to tens of seconds each."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pipeline.core import Pipeline
from pipeline.factory import build_pipeline
from pipeline.generators.weights import CATALOGUE
from pipeline.records import Answer, Outcome
from pipeline.settings import Settings

REPO = Path(__file__).resolve().parents[2]
MODEL = "qwen2.5-coder-0.5b"
STORY_CLOZE = "Which model has achieved the highest Accuracy score on the Story Cloze Test benchmark dataset?"
CLEAN = {Outcome.ANSWERED, Outcome.EMPTY, Outcome.DECLINED}


@pytest.fixture(scope="module")
def model() -> Path:
    path = Settings.from_env(dotenv=None).models_dir / CATALOGUE[MODEL].file
    if not path.is_file():  # the test command fetches it first; a test never downloads
        pytest.fail(f"{path} is missing: run `PYTHONPATH=. python scripts/models.py {MODEL}` (scripts/test.sh does)")
    return path


@pytest.fixture(scope="module")
def local(train_settings: Settings, train_store: Any, model: Path) -> Settings:
    # 1 shot keeps the prompt short; the timeout is generous because the cores are shared
    return train_settings.with_(generator="local", local_model=str(model), llm_fallback="none", shots=1,
                                local_context=2048, local_timeout=600.0, max_new_tokens=256, kg="sciqa")


@pytest.fixture(scope="module")
def pipeline(local: Settings) -> Iterator[Pipeline]:
    pipe = build_pipeline(local)
    yield pipe
    pipe.generator.server.stop()  # type: ignore[attr-defined]  (the model part itself)


def ended_cleanly(answer: Answer) -> bool:
    return answer.outcome in CLEAN and bool(answer.generation and answer.generation.prompt)


def test_kgqa_ask_with_the_local_model(local: Settings) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGQA_")}
    env.update(KGQA_HOME=str(local.home), SCIQA_DIR=str(local.sciqa_dir), KGQA_LOCAL_MODEL=local.local_model,
               KGQA_LLM_FALLBACK="none", KGQA_LOCAL_CONTEXT="2048", KGQA_LOCAL_TIMEOUT="600",
               KGQA_MAX_NEW_TOKENS="256", PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-m", "pipeline", "ask", "--generator", "local", "--kg", "sciqa",
                           "--shots", "1", "--json", STORY_CLOZE], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=1500)
    assert "Traceback" not in done.stderr and "kgqa: loading the local model" in done.stderr, done.stderr[-2000:]
    out = json.loads(done.stdout)
    # the model's query, or the composer's in its place when the model's ignores a name (the question's T05 form)
    assert out["outcome"] in ("answered", "empty", "declined") and out["generator"].split(":")[0] in ("local", "intent")
    # asked with the product's prompt: the reader's (which question is it?) or, when it reads none, the SPARQL one
    assert out["prompt"].startswith(("Task: Generate SPARQL", "Task: Which of the questions")) and out["raw_generation"]
    assert done.returncode == 0


def test_a_slack_reply_with_the_local_model(pipeline: Pipeline, local: Settings) -> None:
    from standins.harness import Harness, shown
    from standins.slack.api import SlackAPIServer

    with SlackAPIServer() as slack:
        bot = Harness.start(slack, pipeline, local.with_(workers=1))
        try:
            bot.mention(STORY_CLOZE)
            reply = shown(bot.answers(timeout=900)[0])
        finally:
            bot.close()
    assert reply and "Traceback" not in reply and "went wrong" not in reply.lower()


def test_the_mcp_ask_tool_with_the_local_model(local: Settings) -> None:
    from mcp_types import CallToolResult

    from tests.mcp.harness import run, server_env, stdio_client, text

    env = server_env(local, KGQA_GENERATOR="local", KGQA_LOCAL_MODEL=local.local_model, KGQA_LLM_FALLBACK="none",
                     KGQA_KG="sciqa", KGQA_SHOTS="1", KGQA_LOCAL_CONTEXT="2048", KGQA_LOCAL_TIMEOUT="600",
                     KGQA_MAX_NEW_TOKENS="256")

    async def scenario() -> CallToolResult:
        async with stdio_client(env) as client:
            return await client.call_tool("ask", {"question": STORY_CLOZE})
    result = run(scenario)
    if result.is_error:  # declined: one line saying why (the tool's refusal), not a crash
        assert text(result) and "\n" not in text(result) and "Traceback" not in text(result)
    else:
        assert result.structured_content  # the model's query, or the composer's in its place
        assert result.structured_content["provenance"]["generator"].split(":")[0] in ("local", "intent")


def test_a_server_killed_mid_answer_fails_that_question_and_the_next_is_answered(pipeline: Pipeline,
                                                                                local: Settings) -> None:
    server = pipeline.generator.server  # type: ignore[attr-defined]
    log = local.home / "logs" / "local-llm.log"
    seen = log.read_text(errors="replace").count("processing task") if log.is_file() else 0
    answers: list[Answer] = []
    asking = threading.Thread(target=lambda: answers.append(pipeline.ask(STORY_CLOZE)))
    asking.start()
    end = time.monotonic() + 300
    while time.monotonic() < end and not (log.is_file() and
                                          log.read_text(errors="replace").count("processing task") > seen):
        time.sleep(0.1)  # until llama.cpp works on the question (the server may still be loading first)
    starts = server.starts
    os.kill(server.pid, signal.SIGKILL)
    asking.join(900)
    killed = answers[0]
    assert killed.outcome is Outcome.FAILED and "stopped mid-answer (killed by signal 9" in killed.error
    assert killed.generation is not None and killed.generation.prompt  # what was asked is kept
    after = pipeline.ask("Which model has achieved the highest F1 score on the SQuAD1.1 benchmark dataset?")
    assert ended_cleanly(after) and server.starts == starts + 1
