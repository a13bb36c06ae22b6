"""The stand-in's AI-app methods and Block Kit limits against the real slack_sdk WebClient: each refused where a
real workspace would refuse, with Slack's error."""
from __future__ import annotations

from typing import Any

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from standins.slack.api import SlackAPIServer


def error(call: Any, **kwargs: Any) -> str:
    with pytest.raises(SlackApiError) as caught:
        call(**kwargs)
    return str(caught.value.response["error"])


def table(rows: int, cells: int) -> dict[str, Any]:
    return {"type": "table", "rows": [[{"type": "raw_text", "text": f"r{r}c{c}"} for c in range(cells)]
                                      for r in range(rows)]}


def test_a_stream_takes_appends_until_it_stops_and_none_after(srv: SlackAPIServer, client: WebClient) -> None:
    ts = client.chat_startStream(channel="D1", thread_ts="1.1", markdown_text="The best is ")["ts"]
    client.chat_appendStream(channel="D1", ts=ts, markdown_text="GPT-3.")
    client.chat_stopStream(channel="D1", ts=ts, blocks=[table(2, 2)])
    assert srv.streams[("D1", ts)].text == "The best is GPT-3." and not srv.streams[("D1", ts)].open
    assert error(client.chat_appendStream, channel="D1", ts=ts, markdown_text="more") == \
        "message_not_in_streaming_state"
    assert error(client.chat_stopStream, channel="D1", ts=ts) == "message_not_in_streaming_state"
    assert error(client.chat_appendStream, channel="D1", ts="9.9", markdown_text="x") == "message_not_found"


def test_stream_text_is_held_to_twelve_thousand_characters(client: WebClient) -> None:
    assert error(client.chat_startStream, channel="D1", thread_ts="1.1", markdown_text="x" * 12_001) == \
        "msg_too_long"
    ts = client.chat_startStream(channel="D1", thread_ts="1.1", markdown_text="x" * 12_000)["ts"]
    assert error(client.chat_appendStream, channel="D1", ts=ts, markdown_text="y" * 12_001) == "msg_too_long"


def test_a_stream_in_a_channel_needs_its_recipient_and_always_a_thread(client: WebClient) -> None:
    assert error(client.chat_startStream, channel="C1", thread_ts="1.1", markdown_text="hi") == "invalid_arguments"
    assert client.chat_startStream(channel="C1", thread_ts="1.1", markdown_text="hi", recipient_team_id="T1",
                                   recipient_user_id="U1")["ok"]
    assert error(client.api_call, api_method="chat.startStream", json={"channel": "D1", "markdown_text": "hi"}) == \
        "invalid_arguments"


@pytest.mark.parametrize("blocks", [
    [table(101, 2)],  # over 100 rows
    [table(2, 21)],  # over 20 cells in a row
    [table(2, 2), table(2, 2)],  # two tables in one message
    [{"type": "table", "rows": [[{"type": "raw_text", "text": ""}]]}],  # an empty cell
    [{"type": "context_actions", "elements": [{"type": "button"}]}],  # not a feedback or icon button
    [{"type": "context_actions", "elements": [{"type": "feedback_buttons",
                                                "positive_button": {"text": {"type": "plain_text", "text": "x" * 76},
                                                                    "value": "up"},
                                                "negative_button": {"text": {"type": "plain_text", "text": "No"},
                                                                    "value": "down"}}]}],
])
def test_blocks_over_slacks_limits_are_invalid_blocks_wherever_they_are_sent(client: WebClient,
                                                                          blocks: list[dict[str, Any]]) -> None:
    ts = client.chat_startStream(channel="D1", thread_ts="1.1", markdown_text="x")["ts"]
    assert error(client.chat_stopStream, channel="D1", ts=ts, blocks=blocks) == "invalid_blocks"
    assert error(client.chat_postMessage, channel="D1", text="x", blocks=blocks) == "invalid_blocks"
    assert error(client.chat_update, channel="D1", ts=ts, text="x", blocks=blocks) == "invalid_blocks"
    assert client.chat_stopStream(channel="D1", ts=ts, blocks=[table(100, 20)])["ok"]  # the stream stayed open


def test_status_needs_a_thread_and_prompts_are_at_most_four(client: WebClient) -> None:
    assert client.assistant_threads_setStatus(channel_id="C1", thread_ts="1.1", status="is thinking…")["ok"]
    assert error(client.api_call, api_method="assistant.threads.setStatus",
                 json={"channel_id": "C1", "status": "is thinking…"}) == "invalid_arguments"
    prompts = [{"title": f"Q{i}", "message": f"Question {i}?"} for i in range(5)]
    assert client.assistant_threads_setSuggestedPrompts(channel_id="D1", prompts=prompts[:4])["ok"]
    assert error(client.assistant_threads_setSuggestedPrompts, channel_id="D1", prompts=prompts) == \
        "invalid_arguments"
    assert error(client.assistant_threads_setSuggestedPrompts, channel_id="D1",
                 prompts=[{"title": "no message"}]) == "invalid_arguments"
    assert error(client.assistant_threads_setTitle, channel_id="D1", thread_ts="1.1", title="") == \
        "invalid_arguments"


def test_a_refused_method_stays_refused_until_reset(srv: SlackAPIServer, client: WebClient) -> None:
    srv.refuse("assistant.threads.setStatus", "missing_scope")
    for _ in range(2):
        assert error(client.assistant_threads_setStatus, channel_id="C1", thread_ts="1.1", status="x") == \
            "missing_scope"
    assert [c.ok for c in srv.calls] == [False, False]
    srv.reset()
    assert client.assistant_threads_setStatus(channel_id="C1", thread_ts="1.1", status="x")["ok"]
