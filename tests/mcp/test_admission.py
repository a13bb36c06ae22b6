"""How tool calls get workers: per-caller rate limit, per-caller share of the pool, a shared pool's bound."""
from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from pipeline.core import Bounds, Parts, Pipeline
from pipeline.mcp.admission import BUSY, Admission
from pipeline.mcp.server import create_server
from pipeline.mcp.tools import ToolRefusal
from pipeline.records import Example
from pipeline.settings import Settings
from pipeline.state.admission.pool import WorkerPool
from pipeline.state.limits.memory import RateLimiter
from standins.fakes import RecordingKG
from standins.harness import hash_store
from tests.mcp.harness import run, text


@pytest.fixture
def pool() -> Iterator[WorkerPool]:
    pool = WorkerPool(workers=4, queue_size=2)
    yield pool
    pool.close()


def blocked(gate: threading.Event, started: threading.Semaphore) -> Any:
    def work() -> str:
        started.release()
        assert gate.wait(30)
        return "done"
    return work


def test_a_caller_past_its_rate_is_refused_and_others_are_not(pool: WorkerPool) -> None:
    admission = Admission(pool, RateLimiter(2, 60, max_keys=10_000))

    async def scenario() -> None:
        assert [await admission.run("A", lambda n=n: n) for n in range(2)] == [0, 1]
        with pytest.raises(ToolRefusal, match="too many calls: at most 2 every 60 s"):
            await admission.run("A", lambda: 2)
        assert await admission.run("B", lambda: "b") == "b"

    run(scenario)


def test_one_caller_holds_at_most_half_the_workers_and_another_still_gets_answered(pool: WorkerPool) -> None:
    admission = Admission(pool, RateLimiter(100, 60, max_keys=10_000))
    gate, started = threading.Event(), threading.Semaphore(0)
    results: list[str] = []

    async def scenario() -> None:
        async with anyio.create_task_group() as tasks:
            for _ in range(2):
                tasks.start_soon(lambda: _collect(admission.run("A", blocked(gate, started)), results))
            for _ in range(2):
                await anyio.to_thread.run_sync(started.acquire)
            with pytest.raises(ToolRefusal, match="already has 2 call"):
                await admission.run("A", lambda: "third")
            assert await admission.run("B", lambda: "B answered") == "B answered"  # while A's two still run
            gate.set()

    run(scenario)
    assert results == ["done", "done"] and pool.wait_idle(10) and not admission._held


def test_a_pool_shared_with_the_bot_turns_calls_away_when_full_instead_of_queueing_past_its_bound() -> None:
    pool = WorkerPool(workers=1, queue_size=0)
    gate = threading.Event()

    def bot_question() -> None:  # holds the only worker until the gate opens
        gate.wait(30)

    try:
        assert pool.submit(bot_question)
        admission = Admission(pool, RateLimiter(100, 60, max_keys=10_000))

        async def scenario() -> None:
            with pytest.raises(ToolRefusal) as refused:
                await admission.run("A", lambda: "never")
            assert str(refused.value) == BUSY

        run(scenario)
        gate.set()
        assert pool.wait_idle(10)
    finally:
        gate.set()
        pool.close()


def test_a_call_cancelled_while_queued_never_runs_and_gives_its_place_back() -> None:
    pool = WorkerPool(workers=1, queue_size=1)
    admission = Admission(pool, RateLimiter(100, 60, max_keys=10_000), share=2)
    gate, started = threading.Event(), threading.Semaphore(0)
    ran: list[str] = []
    try:
        async def scenario() -> None:
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(lambda: admission.run("A", blocked(gate, started)))
                await anyio.to_thread.run_sync(started.acquire)
                with anyio.move_on_after(0.2):  # the caller gives up while its call waits behind the first
                    await admission.run("A", lambda: ran.append("queued"))
                gate.set()

        run(scenario)
        assert pool.wait_idle(10) and ran == [] and not admission._held
    finally:
        gate.set()
        pool.close()


async def _collect(call: Any, into: list[str]) -> None:
    into.append(await call)


def test_limits_reach_the_client_as_one_line_tool_errors(tmp_path: Path, settings: Settings) -> None:
    store = hash_store(tmp_path / "chroma", [Example("1", "Which datasets exist?", "SELECT ?d WHERE { ?d a ?c }")])
    pipeline = Pipeline(Parts(store, _NoGenerator(), RecordingKG()),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    server = create_server(pipeline, settings.with_(user_questions=1))

    async def scenario() -> None:
        async with Client(server) as client:
            first = await client.call_tool("run_sparql", {"query": "SELECT ?x WHERE { ?x ?p ?o }"})
            second = await client.call_tool("run_sparql", {"query": "SELECT ?x WHERE { ?x ?p ?o }"})
            assert not first.is_error and first.structured_content["rows"] == [{"x": "42"}]
            assert second.is_error and "too many calls: at most 1 every 60 s" in text(second)
            assert "\n" not in text(second).strip()

    run(scenario)


class _NoGenerator:
    name = "none"

    def generate(self, question: str, examples: Any) -> Any:
        raise AssertionError("not asked")
