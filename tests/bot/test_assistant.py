"""The conversation's start and context in both of Slack's event shapes, one code path behind them: the agent
messaging experience (the Messages tab opened as ``app_home_opened`` with ``tab == "messages"``, each message a
thread root, ``app_context_changed``) and the assistant experience (its thread events), still answered."""
from __future__ import annotations

import json
import logging
import time

import pytest

from bot.assistant import GREETING
from standins.harness import STORY_CLOZE, Harness, is_answer, streamed_text
from standins.slack.api import SlackAPIServer


def test_opening_the_messages_tab_greets_once_and_puts_prompts_at_the_top(slack: SlackAPIServer,
                                                                         agent: Harness) -> None:
    for _ in range(2):
        assert agent.event({"type": "app_home_opened", "user": "U1", "channel": "D5", "tab": "messages"}) == 200
    offers = slack.wait_for("assistant.threads.setSuggestedPrompts", count=2)
    assert all(o.params["channel_id"] == "D5" and not o.params.get("thread_ts") for o in offers)  # the top
    [greeting] = slack.calls_to("chat.postMessage")
    assert greeting.params["channel"] == "D5" and not greeting.params.get("thread_ts")
    assert GREETING.split(" — ")[0] in greeting.params["text"]
    assert offers[0].params["prompts"][0]["message"] in greeting.params["text"]  # the example is one offered


def test_each_message_in_the_messages_tab_is_the_root_of_its_own_answered_thread(slack: SlackAPIServer,
                                                                                agent: Harness) -> None:
    first = agent.dm(STORY_CLOZE, channel="D5")
    second = agent.dm("What models are being evaluated on the CoQA dataset?", channel="D5")
    agent.answers(count=2)
    starts = slack.calls_to("chat.startStream")
    assert sorted(c.params["thread_ts"] for c in starts) == sorted([first, second])
    assert sum(is_answer(c) for c in slack.calls) == 2


def test_a_follow_up_in_a_thread_is_answered_in_that_thread_in_either_experience(slack: SlackAPIServer,
                                                                                agent: Harness) -> None:
    root = agent.dm(STORY_CLOZE, channel="D5")
    agent.answers()
    ts = "1700000700.000100"
    agent.event({"type": "message", "channel": "D5", "channel_type": "im", "user": "U1", "text": "And on the CoQA "
                 "dataset?", "ts": ts, "thread_ts": root, "event_ts": ts, "team": "T1"})  # Bolt's assistant listener
    agent.answers(count=2)
    assert [c.params["thread_ts"] for c in slack.calls_to("chat.startStream")] == [root, root]
    [title] = slack.calls_to("assistant.threads.setTitle")  # named once, by the first question its listener saw
    assert title.params["thread_ts"] == root


def test_what_the_person_looks_at_is_read_from_both_context_events(agent: Harness,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="kgqa.bot"):
        assert agent.event({"type": "app_context_changed", "user": "U1", "context": {"entities": [
            {"type": "slack#/types/channel_id", "value": "C0123", "team_id": "T1"}]}}) == 200
        thread = {"user_id": "U2", "channel_id": "D1", "thread_ts": "1700000500.000100",
                  "context": {"channel_id": "C0456", "team_id": "T1"}}
        assert agent.event({"type": "assistant_thread_context_changed", "assistant_thread": thread,
                            "event_ts": "1700000500.000200"}) == 200
        assert agent.event({"type": "app_context_changed", "user": "U3", "context": {}}) == 200
        lines = _context_lines(caplog, 3)
    assert lines == {"U1": ["C0123"], "U2": ["C0456"], "U3": []}


def _context_lines(caplog: pytest.LogCaptureFixture, count: int) -> dict[str, list[str]]:
    """The ``context`` log lines by user, once ``count`` have been written (listeners run on their own threads)."""
    end = time.monotonic() + 10
    while time.monotonic() < end:
        lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("context ")]
        if len(lines) >= count:
            return {f["user"]: f["looking_at"] for f in (json.loads(line.split(" ", 1)[1]) for line in lines)}
        time.sleep(0.02)  # a bounded poll of the log, the listeners' only output here
    raise AssertionError("the context lines were not logged")


def test_a_new_assistant_thread_still_gets_prompts_and_its_question_a_streamed_answer(slack: SlackAPIServer,
                                                                                      agent: Harness) -> None:
    thread = {"user_id": "U1", "channel_id": "D7", "thread_ts": "1700000600.000100", "context": {}}
    assert agent.event({"type": "assistant_thread_started", "assistant_thread": thread,
                        "event_ts": "1700000600.000200"}) == 200
    [offer] = slack.wait_for("assistant.threads.setSuggestedPrompts")
    assert offer.params["thread_ts"] == thread["thread_ts"]
    agent.event({"type": "message", "channel": "D7", "channel_type": "im", "user": "U1", "text": STORY_CLOZE,
                 "ts": "1700000600.000300", "thread_ts": thread["thread_ts"], "event_ts": "1700000600.000300",
                 "team": "T1"})
    agent.answers()
    text = "".join(streamed_text(c) for c in slack.calls if c.method.startswith("chat.") and "Stream" in c.method)
    assert "GPT-3 175B (Few-Shot)" in text and not slack.calls_to("chat.postMessage")  # no greeting in threads
