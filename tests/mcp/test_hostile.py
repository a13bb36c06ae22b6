"""Hostile input through the MCP tools, against `kgqa mcp` whose KG is a Virtuoso on loopback that *accepts* writes
and whose language model obeys injections: every call ends as an answer or a one-line tool error, the server never
crashes, and afterwards the store holds exactly the quads it held before."""
from __future__ import annotations

import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from pipeline.settings import Settings
from standins.tgi import TGIServer
from standins.virtuoso import VirtuosoServer
from tests.bot.hostile_cases import QUESTIONS, SPARQL, Case
from tests.bot.test_hostile import CONTROL, quads
from tests.mcp.harness import STORY_CLOZE, run, server_env, stdio_client, text

MAX_REASON = 600
EXTRA = [  # (tool, arguments, must it be refused?)
    ("run_sparql", {"query": "\x00\x01\x02 DELETE WHERE { ?s ?p ?o }"}, True),
    ("run_sparql", {"query": ""}, True),
    ("run_sparql", {"query": ["DELETE WHERE { ?s ?p ?o }"]}, True),
    ("ask", {"question": STORY_CLOZE, "shots": 2}, True),
    ("ask", {"question": STORY_CLOZE, "shots": "five; DROP ALL"}, True),
    ("ask", {"question": "\x00\x07\x1b  \u200b\x7f\u202e"}, True),
    ("ask", {}, True),
    ("similar_questions", {"text": "why " * 25_000}, True),
    ("similar_questions", {"text": STORY_CLOZE, "k": 0}, True),
    ("similar_questions", {"text": STORY_CLOZE, "k": 10**9}, True),
    ("similar_questions", {"text": "\ufeff models \x00 on SQuAD \x1b[0m", "k": 2}, False),
    ("no_such_tool", {"question": STORY_CLOZE}, True),
]


@dataclass
class Outcome:
    label: str
    tool: str
    is_error: bool
    said: str
    must_refuse: bool


@pytest.fixture(scope="module")
def writable_kg(orkg_fixture_nt: Path) -> Iterator[VirtuosoServer]:
    with VirtuosoServer(orkg_fixture_nt) as virtuoso:
        virtuoso.isql('GRANT SPARQL_UPDATE TO "SPARQL";')
        # The control: this endpoint executes a write sent to it directly, so a write let through would show.
        query = urllib.parse.urlencode({"query": f"INSERT DATA {{ GRAPH <{CONTROL}> {{ <x:a> <x:b> <x:c> }} }}"})
        urllib.request.urlopen(f"{virtuoso.endpoint}?{query}", timeout=10).close()
        assert quads(virtuoso, CONTROL) == 1
        yield virtuoso


def _calls() -> list[tuple[str, str, dict[str, Any], bool, str]]:
    """(label, tool, arguments, must refuse, what the model writes) for every case."""
    calls = [(f"sparql:{c.id}", "run_sparql", {"query": c.text}, c.expect == "refused", "") for c in SPARQL]
    calls += [(f"ask:{c.id}", "ask", {"question": c.text}, _refused_question(c), c.llm) for c in QUESTIONS
              if _utf8(c.text)]  # a lone surrogate cannot travel as UTF-8: the client refuses to send it
    return calls + [(f"extra:{n}:{tool}", tool, args, refuse, "") for n, (tool, args, refuse) in enumerate(EXTRA)]


def _utf8(text: str) -> bool:
    return not any("\ud800" <= ch <= "\udfff" for ch in text)


def _refused_question(case: Case) -> bool:
    """Huge or wordless questions are refused here as in Slack; Slack markup is no markup to an MCP client, so a
    mention bomb is just a long question, refused only past the length cap."""
    return case.id in ("100kB-question", "mention-bomb", "link-bomb")


def test_hostile_calls_get_an_answer_or_a_one_line_error_and_write_nothing(
        tmp_path: Path, writable_kg: VirtuosoServer, train_settings: Settings, train_store: Any) -> None:
    before = quads(writable_kg)
    errlog = tmp_path / "server-stderr.log"
    outcomes: list[Outcome] = []
    with TGIServer() as tgi:
        env = server_env(train_settings, KGQA_TGI_URL=tgi.url, KGQA_TGI_TIMEOUT="5", KGQA_CACHE_TTL="0",
                         KGQA_DEADLINE="30")

        async def scenario() -> None:
            with errlog.open("w") as err:
                async with stdio_client(env, "--generator", "tgi", "--kg", writable_kg.endpoint,
                                        errlog=err) as client:
                    for label, tool, args, refuse, llm in _calls():
                        if llm:
                            tgi.enqueue(llm, llm)  # the model obeys on the first try and when asked again
                        result = await client.call_tool(tool, args)
                        tgi.clear_queue()
                        outcomes.append(Outcome(label, tool, bool(result.is_error), text(result), refuse))
                    await _still_answers(client)

        run(scenario)
    for o in outcomes:
        assert "Traceback" not in o.said and o.said.strip() != f"Error executing tool {o.tool}", o  # no crash
        if o.is_error:
            assert "\n" not in o.said.strip() and len(o.said) <= MAX_REASON, o
        assert o.is_error or not o.must_refuse, o
    assert any(o.is_error and "refused" in o.said for o in outcomes)
    assert quads(writable_kg) == before and quads(writable_kg, CONTROL) == 1
    assert "Traceback" not in errlog.read_text()


async def _still_answers(client: Client) -> None:
    """After all of it the server is alive and answers."""
    done = await client.call_tool("run_sparql", {"query": "ASK { ?s ?p ?o }"})
    assert not done.is_error and done.structured_content and done.structured_content["boolean"] is True
