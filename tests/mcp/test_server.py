"""`kgqa mcp` end to end, driven by the SDK's own client: over stdio, and over streamable HTTP with and without the
bearer token (offline: the adapter writes the queries, the SciQA snapshot answers them)."""
from __future__ import annotations

import subprocess
import sys
import urllib.error
import urllib.request
from typing import Any

import pytest
from mcp import Client, MCPError

from pipeline.sciqa import SciQA
from pipeline.settings import Settings
from tests.mcp.harness import (
    REPO,
    STORY_CLOZE,
    HttpServer,
    flat,
    forms,
    http_client,
    run,
    server_env,
    stdio_client,
    structured,
    text,
)

TOKEN = "test-token-0123456789abcdef"


@pytest.fixture(scope="module")
def env(train_settings: Settings, train_store: Any) -> dict[str, str]:
    return server_env(train_settings, KGQA_TGI_URL="")


async def session_checks(client: Client, sciqa: SciQA) -> None:
    """What an assistant does first: list the tools, ask, try a write, look for similar pairs, read the resources."""
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(tools) == {"ask", "run_sparql", "similar_questions", "find_label"}
    for tool in tools.values():
        assert tool.description and tool.input_schema["properties"] and tool.output_schema
        assert tool.annotations is not None and tool.annotations.read_only_hint
    assert tools["ask"].input_schema["required"] == ["question"]

    answer = structured(await client.call_tool("ask", {"question": STORY_CLOZE}))
    expected = next(r for r in sciqa.all() if r.question == STORY_CLOZE)  # the test's oracle, not the system's
    assert flat(answer["rows"], answer["vars"]) == list(expected.flat_answer)
    assert "Story Cloze Test" in answer["sparql"] and "Story Cloze Test" in answer["reading"]
    assert expected.flat_answer[-1] in answer["summary"] and "Story Cloze Test" in answer["summary"]
    provenance = answer["provenance"]
    assert provenance["generator"] == "adapter" and provenance["kg"] == "snapshot"
    assert len(provenance["examples"]) == 3 and "snapshot" in provenance["source"]

    refused = await client.call_tool("run_sparql", {"query": "DELETE WHERE { ?s ?p ?o }"})
    assert refused.is_error and "refused" in text(refused) and "DELETE" in text(refused)
    assert "\n" not in text(refused) and "Traceback" not in text(refused)

    pairs = structured(await client.call_tool("similar_questions", {"text": STORY_CLOZE, "k": 4}))
    assert len(pairs) == 4 and [p["score"] for p in pairs] == sorted((p["score"] for p in pairs), reverse=True)
    assert all(p["sparql"] and p["source"] == "sciqa" for p in pairs)
    assert "highest Accuracy score on the" in pairs[0]["question"]

    loose = structured(await client.call_tool("find_label", {"name": "story cloze test", "kind": "dataset"}))
    assert loose["chosen"] == "Story Cloze Test" and loose["match"] == "normalised" and loose["kind"] == "dataset"
    exact = structured(await client.call_tool("find_label", {"name": "Story Cloze Test"}))
    assert exact["chosen"] == "Story Cloze Test" and exact["match"] == "exact"
    unknown = structured(await client.call_tool("find_label",
                                                {"name": "Qwertyuiop Zebra Benchmark", "kind": "dataset"}))
    assert unknown["chosen"] is None and unknown["match"] in ("unknown", "ambiguous") and unknown["candidates"]
    bad_kind = await client.call_tool("find_label", {"name": "SQuAD", "kind": "planet"})
    assert bad_kind.is_error and "kind must be one of" in text(bad_kind) and "\n" not in text(bad_kind)

    resources = {str(r.uri) for r in (await client.list_resources()).resources}
    assert resources == {"kgqa://prefixes", "kgqa://question-forms"}
    prefixes = (await client.read_resource("kgqa://prefixes")).contents[0]
    assert "PREFIX orkgp: <http://orkg.org/orkg/predicate/>" in getattr(prefixes, "text", "")
    known = forms(getattr((await client.read_resource("kgqa://question-forms")).contents[0], "text", ""))
    assert sum(f["pairs"] for f in known) == 1795
    assert any(f["slots"] == ["metric", "dataset"] and "Story Cloze" not in f["form"] and "<dataset>" in f["form"]
               for f in known)


def test_stdio_lists_answers_refuses_and_finds_similar_pairs(env: dict[str, str], sciqa: SciQA) -> None:
    async def scenario() -> None:
        async with stdio_client(env, "--kg", "snapshot") as client:
            await session_checks(client, sciqa)

    run(scenario)


def test_http_with_a_token_serves_only_callers_that_bring_it(env: dict[str, str], sciqa: SciQA) -> None:
    with HttpServer({**env, "KGQA_MCP_TOKEN": TOKEN}, "--kg", "snapshot") as server:
        for headers in ({}, {"Authorization": "Bearer wrong-token-0123456789"}, {"Authorization": TOKEN}):
            request = urllib.request.Request(server.url, data=b"{}", method="POST", headers={
                "Content-Type": "application/json", "Accept": "application/json, text/event-stream", **headers})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=30)
            assert refused.value.code == 401

        async def without_token() -> None:
            async with http_client(server.url) as client:
                await client.list_tools()

        with pytest.raises(BaseExceptionGroup) as failed:
            run(without_token)
        assert failed.group_contains(MCPError)

        async def with_token() -> None:
            async with http_client(server.url, TOKEN) as client:
                await session_checks(client, sciqa)

        run(with_token)
        _, stderr = server.stop()
    assert TOKEN not in stderr and "Traceback" not in stderr


def test_http_on_loopback_without_a_token_is_open_to_local_clients(env: dict[str, str], sciqa: SciQA) -> None:
    with HttpServer(env, "--kg", "snapshot") as server:
        async def scenario() -> None:
            async with http_client(server.url) as client:
                await session_checks(client, sciqa)

        run(scenario)


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.7", "mcp.example.org"])
def test_http_beyond_loopback_without_a_token_does_not_start(env: dict[str, str], host: str) -> None:
    done = subprocess.run([sys.executable, "-m", "pipeline", "mcp", "--http", "--host", host, "--kg", "snapshot"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "KGQA_MCP_TOKEN" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_short_token_is_refused_before_anything_listens(env: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, "-m", "pipeline", "mcp", "--http", "--kg", "snapshot"], cwd=REPO,
                          env={**env, "KGQA_MCP_TOKEN": "tiny-secret"}, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "at least 16 characters" in done.stderr and "tiny-secret" not in done.stderr
