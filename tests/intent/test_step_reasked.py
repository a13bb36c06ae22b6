"""A language model's query the intent guard declines is asked again once, the model told what the query lacks
(the TGI stand-in serving the replies, the fixture graph, through the CLI): a second query the guard lets stand
answers and says so; one naming what the question does not, or declined too, leaves the decline standing with the
second reply on the record."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pipeline.cli import main
from pipeline.loop.run import RECONSIDERED
from tests.intent.test_step_model import TIED_BEST

# the dataset typed by some of its words (not its first): nothing is composed for it, so the model's second query
# is what can answer
QUESTION = "Which model has the highest Accuracy score on the cloze test?"
RANKED_UP = TIED_BEST.format(dataset="Story Cloze Test", metric="Accuracy", order="ASC", extra="")
RANKED_DOWN = TIED_BEST.format(dataset="Story Cloze Test", metric="Accuracy", order="DESC", extra="")


def _ask(tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], env: Path,
         *replies: str) -> dict[str, Any]:
    monkeypatch.setenv("KGQA_TGI_URL", tgi.url)
    monkeypatch.setenv("KGQA_LLM_ORDER", "llm-first")
    monkeypatch.setenv("KGQA_LLM_FALLBACK", "none")  # the model writes every query
    monkeypatch.setenv("KGQA_LLM_READER", "false")  # the writer's queries followed here, not the reader's choice
    for reply in replies:
        tgi.enqueue(f" {reply}\nUSER:")
    assert main(["ask", "--generator", "tgi", "--kg", str(env), "--json", QUESTION]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _said_second(tgi: Any) -> str:
    """What the model was sent when asked again."""
    return str(tgi.requests[-1][1]["inputs"])


def test_a_declined_query_is_asked_again_with_what_it_lacks_and_the_second_answers(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    out = _ask(tgi, monkeypatch, capsys, env, RANKED_UP, RANKED_DOWN)
    assert out["outcome"] == "answered" and out["flat_answer"] == ["StoryLM-large"]
    assert any(n.startswith(RECONSIDERED) and "the highest value" in n for n in out["notes"])
    assert len(tgi.requests) == 2
    said = _said_second(tgi)
    assert "That query was not run: it does not use the highest value" in said and RANKED_UP in said
    assert [(a["ask"], a["verdict"]) for a in out["attempts"]] == [("prompt", "taken"), ("declined", "taken")]


def test_a_second_query_declined_too_leaves_the_decline_with_both_replies_on_record(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    out = _ask(tgi, monkeypatch, capsys, env, RANKED_UP, RANKED_UP)
    assert out["outcome"] == "declined" and out["sparql"] is None and out["answer"]["rows"] == []
    assert "the highest value (it ranks from the lowest first)" in out["explanation"] and out["offer"]
    assert len(tgi.requests) == 2
    assert [(a["ask"], a["verdict"], a["why"]) for a in out["attempts"]][-1] == (
        "declined", "not_taken", "the intent guard declined it too")


def test_a_second_query_about_another_dataset_is_not_run(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The guard would let a leaderboard of another dataset stand; it is not what was asked."""
    other = TIED_BEST.format(dataset="Tiny Objects 20", metric="Accuracy", order="DESC", extra="")
    out = _ask(tgi, monkeypatch, capsys, env, RANKED_UP, other)
    assert out["outcome"] == "declined" and out["sparql"] is None and out["flat_answer"] == []
    assert out["attempts"][-1]["why"] == "no query naming only what the question does"
