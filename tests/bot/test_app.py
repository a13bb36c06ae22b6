"""create_app's wiring against the Web API stand-in: rate limits honoured, Slack failures survived, App Home."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import yaml
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler

from bot.app import COMMANDS, EVENTS, SCOPES, make_client
from pipeline.settings import Settings
from standins.harness import STORY_CLOZE, Harness, is_answer, shown
from standins.slack.api import SlackAPIServer


def test_the_client_uses_the_configured_api_url_and_waits_out_rate_limits(settings: Settings) -> None:
    client = make_client(settings.with_(slack_api_url="http://127.0.0.1:9/api/", slack_bot_token="xoxb-1"))
    assert client.base_url == "http://127.0.0.1:9/api/" and client.token == "xoxb-1"
    assert any(isinstance(h, RateLimitErrorRetryHandler) for h in client.retry_handlers)
    assert make_client(settings).base_url == "https://slack.com/api/"


def test_a_429_on_posting_is_retried_after_retry_after(slack: SlackAPIServer, bot: Harness) -> None:
    slack.fail_next("chat.postMessage", status=429, retry_after=1)
    ts = bot.mention(STORY_CLOZE)

    limited, placeholder = slack.wait_for(lambda c: c.method == "chat.postMessage" and c.params["thread_ts"] == ts,
                                          count=2)
    assert (limited.status, placeholder.status) == (429, 200)
    assert placeholder.at - limited.at >= 1.0
    [answer] = bot.answers()
    assert "GPT-3 175B (Few-Shot)" in shown(answer)


def test_a_500_on_updating_is_retried_since_an_update_is_idempotent(slack: SlackAPIServer, bot: Harness) -> None:
    slack.fail_next("chat.update", status=500)
    bot.mention(STORY_CLOZE)
    [answer] = bot.answers()
    assert answer.method == "chat.update"
    assert [c.status for c in slack.calls_to("chat.update")] == [500, 200]


def test_when_the_placeholder_cannot_be_updated_the_answer_is_posted(slack: SlackAPIServer, bot: Harness) -> None:
    slack.fail_next("chat.update", status=500, count=3)  # the first try and both retries
    ts = bot.mention(STORY_CLOZE)
    [answer] = bot.answers()
    assert answer.method == "chat.postMessage" and answer.params["thread_ts"] == ts
    assert [c.status for c in slack.calls_to("chat.update")] == [500, 500, 500]


def test_app_home_shows_what_it_answers_and_its_setup(slack: SlackAPIServer, bot: Harness) -> None:
    assert bot.event({"type": "app_home_opened", "user": "U1", "channel": "D1", "tab": "home"}) == 200
    [published] = slack.wait_for("views.publish")
    assert published.params["user_id"] == "U1"
    view = published.json("view")
    text = str(view)
    assert view["type"] == "home" and "Story Cloze Test" in text
    assert "Knowledge graph: `snapshot`" in text and "`adapter`" in text and "80 pairs" in text


def test_answers_use_the_bot_token_only(slack: SlackAPIServer, bot: Harness) -> None:
    bot.mention(STORY_CLOZE)
    bot.answers()
    assert {c.token for c in slack.calls if c.method != "response_url"} == {"xoxb-1111-2222-SeCrEtBoTtOkEn"}


def test_two_questions_at_once_both_get_answered(start_bot: Callable[..., Harness]) -> None:
    bot = start_bot(workers=2)
    first, second = bot.mention(STORY_CLOZE), bot.dm(STORY_CLOZE)
    answers = bot.answers(count=2)
    assert {a.params["channel"] for a in answers} == {"C1", "D1"}
    assert sum(is_answer(c) for c in bot.slack.calls) == 2 and first != second


def test_the_manifest_grants_exactly_what_the_app_uses() -> None:
    manifest = yaml.safe_load((Path(__file__).resolve().parents[2] / "manifest.yml").read_text(encoding="utf-8"))
    settings = manifest["settings"]
    assert sorted(manifest["oauth_config"]["scopes"]["bot"]) == sorted(SCOPES)
    assert sorted(settings["event_subscriptions"]["bot_events"]) == sorted(EVENTS)
    commands = manifest["features"]["slash_commands"]
    assert sorted(c["command"] for c in commands) == sorted(COMMANDS)
    assert all(c["should_escape"] is False for c in commands)  # IRIs arrive as typed, not as Slack links
    assert settings["interactivity"]["is_enabled"] and manifest["features"]["app_home"]["home_tab_enabled"]
    assert manifest["features"]["app_home"]["messages_tab_enabled"]
    agent = manifest["features"]["agent_view"]  # the agent messaging experience; assistant_view is legacy
    assert 0 < len(agent["agent_description"]) <= 300 and "assistant_view" not in manifest["features"]
