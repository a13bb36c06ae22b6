"""Talking in threads through the real bot (signed requests, the Slack Web API stand-in): a follow-up read with its
thread's earlier question, threads kept apart, and "did you mean" buttons that ask again in the same thread."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pipeline.core import Bounds, Parts, Pipeline
from pipeline.generators.adapter import AdapterGenerator
from pipeline.intent.step import IntentStep
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.kg.snapshot import SnapshotKG
from pipeline.names.check import NameCheck
from pipeline.names.sources import LabelSource
from pipeline.settings import Settings
from pipeline.store.chroma import ChromaStore
from standins.harness import SECRET, STORY_CLOZE, Harness, blocks_of, button_value, click_payload, shown
from standins.orkg_fixture import write_ntriples
from standins.slack.api import SlackAPIServer
from standins.slack.signing import post_interaction
from tests.intent import gold

MUTAG = "Which model has achieved the highest Accuracy score on the MUTAG benchmark dataset?"


@pytest.fixture
def talker(slack: SlackAPIServer, store: ChromaStore, snapshot_kg: SnapshotKG,
           bot_settings: Settings) -> Iterator[Harness]:
    pipeline = Pipeline(Parts(store, AdapterGenerator(0.45), snapshot_kg,
                              names=NameCheck(LabelSource(snapshot_kg, None, ttl=604800.0, page=1000).available)),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    harness = Harness.start(slack, pipeline, bot_settings)
    yield harness
    harness.close()


def _in_thread(harness: Harness, first: str, reply: str) -> Any:
    """The answer to ``reply``, mentioned in the thread of ``first`` once that is answered."""
    asked = harness.mention(first)
    harness.answers(1)
    harness.mention(reply, thread_ts=asked)
    return harness.answers(2)[1]


def test_a_follow_up_in_the_thread_is_read_with_the_earlier_question(talker: Harness) -> None:
    follow_up = _in_thread(talker, STORY_CLOZE, "and on MUTAG?")
    assert f"I read this as: _{MUTAG}_" in shown(follow_up)
    assert "MUTAG" in shown(follow_up) and "No answer" not in shown(follow_up)
    stored = Path(talker.settings.home / "bot" / "threads.sqlite3")
    assert stored.is_file()  # remembered where a restart or another replica on this host finds it


def test_another_thread_or_channel_knows_nothing_of_it(talker: Harness) -> None:
    talker.mention(STORY_CLOZE, channel="C1")
    talker.answers(1)
    talker.mention("and on MUTAG?", channel="C2")
    other = talker.answers(2)[1]
    assert "I read this as" not in shown(other)


def _picks(reply: Any) -> list[dict[str, Any]]:
    """The "did you mean" / "which one?" buttons of a reply."""
    return [e for b in blocks_of(reply) if b.get("block_id") == "kgqa_did_you_mean" for e in b["elements"]]


def _click(harness: Harness, reply: Any, pick: dict[str, Any], thread: str) -> None:
    """A signed click on one of the reply's buttons, in its thread."""
    payload = click_payload(pick["action_id"], button_value(reply, pick["action_id"]), user="U1", channel="C1",
                            message_ts="1.0", response_url=harness.slack.response_url("pick"))
    payload["message"]["thread_ts"] = thread
    status, _ = post_interaction(harness.server.url, SECRET, payload)
    assert status == 200


def test_an_ambiguous_name_offers_buttons_and_a_click_asks_again_in_the_thread(talker: Harness) -> None:
    asked = talker.mention("Which model has achieved the highest Score score on the Atari 2600 benchmark dataset?")
    [held] = talker.answers(1)
    picks = _picks(held)
    assert 1 < len(picks) <= 5 and all(p["text"]["text"].startswith("Atari 2600 ") for p in picks)
    assert "could be several dataset names" in shown(held)
    label = picks[0]["text"]["text"]
    _click(talker, held, picks[0], asked)
    again = talker.answers(2)[1]
    assert label in shown(again) and "could be several" not in shown(again)
    posted = talker.slack.calls_to("chat.postMessage")
    assert all(c.params.get("thread_ts") == asked for c in posted)


def test_a_button_value_that_is_not_ours_is_ignored(talker: Harness) -> None:
    assert talker.click("kgqa_pick_0", json.dumps({"sparql": "DROP ALL"})) == 200
    assert talker.click("kgqa_pick_1", "not json") == 200
    talker.mention(STORY_CLOZE)
    [_answer] = talker.answers(1)
    assert len(talker.slack.calls_to("chat.postMessage")) == 1  # only the placeholder of the real question


@pytest.fixture
def asker(slack: SlackAPIServer, store: ChromaStore, bot_settings: Settings, tmp_path: Path) -> Iterator[Harness]:
    """The bot over the ORKG-shaped fixture graph, where LoreQA Reading Set has scores by two metrics."""
    kg = OxigraphKG(write_ntriples(tmp_path / "fixture.nt"), row_cap=1000)
    pipeline = Pipeline(Parts(store, AdapterGenerator(0.45), kg, intent=IntentStep()),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    harness = Harness.start(slack, pipeline, bot_settings)
    yield harness
    harness.close()


RANKED = "top 2 models on LoreQA Reading Set"


def _top_two(metric: str) -> list[str]:
    """The first word of each of the two best models' names (as Slack shows them: quotes escaped)."""
    return [model.split()[0] for model, _ in gold.scores("LoreQA Reading Set", metric)[:2]]


def test_a_ranking_two_metrics_measure_is_asked_back_with_buttons_and_answered_on_the_click(asker: Harness) -> None:
    asked = asker.mention(RANKED)
    [back] = asker.answers(1)
    picks = _picks(back)
    assert [p["text"]["text"] for p in picks] == ["Exact Match", "F1"] and "which one do you mean" in shown(back)
    _click(asker, back, picks[1], asked)
    again = asker.answers(2)[1]
    assert all(model in shown(again) for model in _top_two("F1")) and "which one" not in shown(again)
    assert all(c.params.get("thread_ts") == asked for c in asker.slack.calls_to("chat.postMessage"))


def test_a_typed_reply_in_the_thread_picks_the_choice(asker: Harness) -> None:
    again = _in_thread(asker, RANKED, "exact match")
    assert f"I read this as: _{RANKED} by Exact Match?_" in shown(again)
    assert all(model in shown(again) for model in _top_two("Exact Match"))
