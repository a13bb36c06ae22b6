"""Slack's AI-app surface end to end (signed events in, the Web API stand-in out): the Messages tab and its prompts,
status lines in pipeline order, the streamed answer with its table, SPARQL and feedback, the per-workspace fallback
where Slack refuses a method, and retries that never double."""
from __future__ import annotations

import json
import logging
from collections.abc import Callable

import pytest

from bot.streaming import READING, STATUS
from pipeline.records import Example, Step
from standins.harness import MAINTAINER, STORY_CLOZE, Harness, blocks_of, is_answer, shown, streamed_text
from standins.slack.api import Call, SlackAPIServer
from tests.bot.test_plan import Broken

STREAMS = ("chat.startStream", "chat.appendStream", "chat.stopStream")


def statuses(slack: SlackAPIServer, thread_ts: str) -> list[str]:
    return [c.params["status"] for c in slack.calls_to("assistant.threads.setStatus")
            if c.params["thread_ts"] == thread_ts]


def feedback_value(call: Call) -> str:
    [block] = [b for b in blocks_of(call) if b["type"] == "context_actions"]
    return str(block["elements"][0]["positive_button"]["value"])


def test_the_messages_tab_offers_prompts_from_what_the_store_can_answer(slack: SlackAPIServer, agent: Harness,
                                                                      train_examples: list[Example]) -> None:
    assert agent.event({"type": "app_home_opened", "user": "U1", "channel": "D1", "tab": "messages"}) == 200
    [offer] = slack.wait_for("assistant.threads.setSuggestedPrompts")
    prompts = offer.params["prompts"]
    assert offer.params["channel_id"] == "D1" and 1 <= len(prompts) <= 4
    stored = {e.question for e in train_examples}
    assert all(p["message"] in stored and p["title"] for p in prompts)  # questions the store holds, not made up
    templates = {e.template_id for e in train_examples if e.question in {p["message"] for p in prompts}}
    assert len(templates) == len(prompts)  # one per question form
    assert not slack.calls_to("views.publish")


def test_a_new_assistant_thread_gets_prompts_led_by_what_the_team_taught(slack: SlackAPIServer, agent: Harness) -> None:
    taught = "Which paper introduced the Zebra benchmark dataset?"
    agent.pipeline.store.add([Example("team-1", taught, "SELECT ?p WHERE { ?p ?q ?r }", "", "team")])
    thread = {"user_id": "U1", "channel_id": "D1", "thread_ts": "1700000500.000100", "context": {}}
    assert agent.event({"type": "assistant_thread_started", "assistant_thread": thread,
                        "event_ts": "1700000500.000200"}) == 200
    [offer] = slack.wait_for("assistant.threads.setSuggestedPrompts")
    assert offer.params["thread_ts"] == "1700000500.000100"
    assert offer.params["prompts"][0]["message"] == taught and len(offer.params["prompts"]) <= 4


def test_a_question_in_an_assistant_thread_gets_a_title_status_and_streamed_answer(slack: SlackAPIServer,
                                                                                  agent: Harness) -> None:
    thread = "1700000600.000100"
    agent.event({"type": "message", "channel": "D7", "channel_type": "im", "user": "U1", "text": STORY_CLOZE,
                 "ts": "1700000600.000300", "thread_ts": thread, "event_ts": "1700000600.000300", "team": "T1"})
    [answer] = agent.answers()
    [title] = slack.calls_to("assistant.threads.setTitle")
    assert title.params["title"] == STORY_CLOZE and title.params["thread_ts"] == thread
    assert answer.method == "chat.stopStream" and statuses(slack, thread)[0] == READING
    [start] = slack.calls_to("chat.startStream")
    assert start.params["thread_ts"] == thread and start.params["channel"] == "D7"


def test_status_lines_follow_the_pipeline_in_order_and_are_cleared_after_the_answer(slack: SlackAPIServer,
                                                                                     named_agent: Harness) -> None:
    ts = named_agent.mention(STORY_CLOZE)
    [answer] = named_agent.answers()
    steps = (Step.RETRIEVE, Step.GENERATE, Step.NAMES, Step.RUN)  # this pipeline has no intent step
    [cleared] = slack.wait_for(lambda c: c.method == "assistant.threads.setStatus" and c.params["status"] == "")
    assert statuses(slack, ts) == [READING] + [STATUS[s] for s in steps] + [""]
    assert cleared.at >= answer.at
    assert not slack.calls_to("chat.postMessage") and not slack.calls_to("chat.update")  # no placeholder


def test_the_streamed_answer_leads_with_the_summary_and_ends_with_data_table_sparql_and_feedback(
        slack: SlackAPIServer, agent: Harness) -> None:
    ts = agent.mention(STORY_CLOZE)
    [answer] = agent.answers()
    streamed = [c for c in slack.calls if c.method in STREAMS]
    assert "GPT-3 175B (Few-Shot)" in "".join(streamed_text(c) for c in streamed)
    [start] = slack.calls_to("chat.startStream")
    assert start.params["recipient_team_id"] == "T1" and start.params["recipient_user_id"] == "U1"
    kinds = [b["type"] for b in blocks_of(answer)]
    assert kinds.index("data_table") < kinds.index("context_actions") and kinds[-1] == "context_actions"
    [table] = [b for b in blocks_of(answer) if b["type"] == "data_table"]
    assert table["rows"][0] == [{"type": "raw_text", "text": "model"}]
    assert "GPT-3 175B (Few-Shot)" in json.dumps(table["rows"][1]) and "orkg.org/resource/" in json.dumps(table)
    assert "*SPARQL*" in shown(answer) and 'FILTER(str(?dataset_lbl) = \\"Story Cloze Test\\")' in shown(answer)
    assert [c.params["thread_ts"] for c in slack.calls_to("chat.startStream")] == [ts]


def test_the_feedback_buttons_go_to_a_maintainer_never_into_the_store(slack: SlackAPIServer, agent: Harness) -> None:
    agent.mention(STORY_CLOZE)
    [answer] = agent.answers()
    before = agent.pipeline.store.count()
    assert agent.click("kgqa_feedback", feedback_value(answer), reply="up") == 200
    assert "a maintainer will review it" in shown(agent.replies("up")[0])
    [proposal] = slack.wait_for(lambda c: c.method == "chat.postMessage" and c.params["channel"] == MAINTAINER)
    assert "Story Cloze Test" in shown(proposal)
    assert agent.pipeline.store.count() == before
    assert agent.click("kgqa_feedback", "down", reply="down") == 200
    assert "noted that this answer was wrong" in shown(agent.replies("down")[0])


def test_a_workspace_refusing_status_lines_gets_the_placeholder_path_chosen_once(
        slack: SlackAPIServer, agent: Harness, caplog: pytest.LogCaptureFixture) -> None:
    slack.refuse("assistant.threads.setStatus", "missing_scope")
    with caplog.at_level(logging.INFO, logger="kgqa.bot"):
        for n in range(2):
            ts = agent.mention(STORY_CLOZE)
            answer = agent.answers(count=n + 1)[-1]
            assert answer.method == "chat.update" and "GPT-3 175B (Few-Shot)" in shown(answer)
            assert any(c.params.get("thread_ts") == ts for c in slack.calls_to("chat.postMessage"))
    assert len(slack.calls_to("assistant.threads.setStatus")) == 1  # decided at the first refusal
    assert not any(slack.calls_to(m) for m in STREAMS)
    assert sum("missing_scope" in r.getMessage() and "surface" in r.getMessage() for r in caplog.records) == 1


def test_a_workspace_refusing_streams_gets_one_posted_answer_and_no_more_stream_tries(slack: SlackAPIServer,
                                                                                     agent: Harness) -> None:
    slack.refuse("chat.startStream", "not_allowed_token_type")
    first = agent.mention(STORY_CLOZE)
    [answer] = agent.answers()
    assert answer.method == "chat.postMessage" and answer.params["thread_ts"] == first
    assert "GPT-3 175B (Few-Shot)" in shown(answer) and "kgqa_up" in shown(answer)  # nothing lost
    agent.mention(STORY_CLOZE)
    agent.answers(count=2)
    assert len(slack.calls_to("chat.startStream")) == 1
    assert sum(is_answer(c) for c in slack.calls) == 2


def test_a_refused_data_table_ends_the_same_stream_with_a_table_block_then_mrkdwn_and_later_answers_skip_them(
        slack: SlackAPIServer, agent: Harness) -> None:
    slack.fail_next("chat.stopStream", status=200, error="invalid_blocks", retry_after=None)
    agent.mention(STORY_CLOZE)
    [answer] = agent.answers()
    stops = slack.calls_to("chat.stopStream")
    assert [c.ok for c in stops] == [False, True] and stops[0].params["ts"] == stops[1].params["ts"]
    assert "data_table" in [b["type"] for b in blocks_of(stops[0])]
    assert "table" in [b["type"] for b in blocks_of(answer)] and "GPT-3 175B (Few-Shot)" in shown(answer)
    assert len(slack.calls_to("chat.startStream")) == 1 and not slack.calls_to("chat.postMessage")
    slack.fail_next("chat.stopStream", status=200, error="invalid_blocks", retry_after=None)
    agent.mention(STORY_CLOZE)
    second = agent.answers(count=2)[-1]
    kinds = [b["type"] for b in blocks_of(second)]
    assert "table" not in kinds and "data_table" not in kinds and len(slack.calls_to("chat.stopStream")) == 4
    agent.mention(STORY_CLOZE)
    third = agent.answers(count=3)[-1]
    assert "table" not in [b["type"] for b in blocks_of(third)] and len(slack.calls_to("chat.stopStream")) == 5


def test_a_stream_that_cannot_stop_is_replaced_in_place_not_posted_twice(slack: SlackAPIServer,
                                                                         agent: Harness) -> None:
    slack.refuse("chat.stopStream", "feature_not_enabled")
    agent.mention(STORY_CLOZE)
    [answer] = agent.answers()
    [start] = slack.calls_to("chat.startStream")
    assert answer.method == "chat.update" and not slack.calls_to("chat.postMessage")
    assert answer.params["ts"] == slack.calls_to("chat.stopStream")[0].params["ts"]
    assert start.status == 200


def test_slack_retries_never_double_the_stream(slack: SlackAPIServer, agent: Harness) -> None:
    ts = agent.mention(STORY_CLOZE, event_id="Ev-agent")
    for retry in (1, 2):
        agent.mention(STORY_CLOZE, ts=ts, event_id="Ev-agent", retry_num=retry)
    agent.dm(STORY_CLOZE, channel="C1", ts=ts)  # the same message as another event type
    agent.answers()
    agent.mention("What models are being evaluated on the CoQA dataset?")  # a later question, answered after
    agent.answers(count=2)
    assert [c.params["thread_ts"] for c in slack.calls_to("chat.startStream")].count(ts) == 1
    assert statuses(slack, ts).count(READING) == 1


def test_a_crash_while_answering_still_reaches_the_thread_as_one_stream(start_bot: Callable[..., Harness]) -> None:
    bot = start_bot(slack_surface="agent", generator=Broken())
    ts = bot.mention(STORY_CLOZE)
    [stop] = bot.slack.wait_for(lambda c: c.method == "chat.stopStream" and c.ok)
    [start] = bot.slack.calls_to("chat.startStream")
    text = "".join(streamed_text(c) for c in bot.slack.calls if c.method in STREAMS)
    assert start.params["thread_ts"] == ts and "Something went wrong on my side (RuntimeError)" in text
    assert blocks_of(stop) and "Something went wrong" in shown(stop) and not bot.slack.calls_to("chat.postMessage")
