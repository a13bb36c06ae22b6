"""The MCP ``run_sparql`` tool's logic over a real pipeline and a local graph: SPARQL runs as typed (strings kept,
Virtuoso's dialect made SPARQL 1.1), what breaks the grammar is a one-line tool error naming the place."""
from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import pytest

from pipeline.cli import _NoGenerator
from pipeline.core import Bounds, Parts, Pipeline
from pipeline.eval.given import NoExamples
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.mcp.tools import ToolRefusal, Tools
from standins.fakes import RecordingProxy
from tests.conversation.test_talk import asking_back

EX = "http://example.org/"


@pytest.fixture
def tools() -> tuple[Tools, RecordingProxy]:
    kg = OxigraphKG(None, row_cap=1000)
    kg.store.load(f'<{EX}a> <{EX}label> "a\\u200bb\ue000" .\n<{EX}a> <{EX}n> -1 .\n<{EX}b> <{EX}label> "b" .\n'
                  .encode(), format=ox.RdfFormat.TURTLE)
    proxy = RecordingProxy(kg)
    return Tools(Pipeline(Parts(NoExamples(), _NoGenerator(), proxy),
                          Bounds(shots=3, row_cap=10, max_question_chars=2000, workers=4))), proxy


def test_a_string_literal_is_matched_as_typed(tools: tuple[Tools, RecordingProxy]) -> None:
    tool, _ = tools
    rows = tool.run_sparql(f'SELECT ?s WHERE {{ ?s <{EX}label> "a\u200bb\ue000" }}')
    assert [r["s"] for r in rows.rows] == [f"{EX}a"]


def test_blank_nodes_negative_numbers_and_paths_run(tools: tuple[Tools, RecordingProxy]) -> None:
    tool, proxy = tools
    rows = tool.run_sparql(f"SELECT ?s WHERE {{ ?s <{EX}n> -1 . _:x <{EX}label>|^<{EX}label> ?l }}")
    assert [r["s"] for r in rows.rows] == [f"{EX}a"] * 4  # two labels each way
    assert "<http://example.org/n> -1 . _:x" in proxy.queries[-1]


def test_virtuosos_dialect_runs_here_as_sparql_1_1(tools: tuple[Tools, RecordingProxy]) -> None:
    tool, proxy = tools
    rows = tool.run_sparql(f"SELECT ?s, ?l WHERE {{ ?s <{EX}label> ?l }} ORDER BY ?l")
    assert rows.vars == ["s", "l"] and len(rows.rows) == 2 and "?s ?l" in proxy.queries[-1]


@pytest.mark.parametrize(("query", "reason"), [
    ("SELECT ?s WHERE { ?s ?p ?o BIND(1 AS ?o) }", "(line 1, column 43): a variable is assigned"),
    ("SELECT * WHERE { ?s ?p ?o } GROUP BY ?s", "SELECT * is not authorized with GROUP BY"),
    ('SELECT ?s WHERE { ?s ?p "\\q" }', "escape"),
    ("SELECT ?s WHERE { VALUES (?s ?o) { (1) } }", "does not parse (line 1"),
    ("DELETE WHERE { ?s ?p ?o }", "only read-only queries may run"),
    ("SELECT * WHERE { SERVICE <http://x/> { ?s ?p ?o } }", "SERVICE (a call to another endpoint)"),
])
def test_what_cannot_run_is_a_one_line_tool_error_before_the_graph(tools: tuple[Tools, RecordingProxy], query: str,
                                                                  reason: str) -> None:
    tool, proxy = tools
    with pytest.raises(ToolRefusal) as refused:
        tool.run_sparql(query)
    assert reason in str(refused.value) and "\n" not in str(refused.value)
    assert proxy.queries == []


def test_ask_returns_the_choices_of_a_question_asked_back(tmp_path: Path) -> None:
    """A ranking on a dataset two metrics measure: no tool error, the choices to ask next; one of them answers."""
    talking = asking_back(tmp_path)
    tool = Tools(talking.pipeline)  # type: ignore[arg-type]
    back = tool.ask("top 2 models on LoreQA Reading Set")
    assert [c["label"] for c in back.choices] == ["Exact Match", "F1"] and not back.rows
    assert "which one do you mean" in back.explanation
    picked = tool.ask(back.choices[1]["question"])
    assert len(picked.rows) == 2 and picked.choices == []
