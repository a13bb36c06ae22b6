"""The Slack app: ``create_app(pipeline, settings)`` wires listeners that ack at once, hand work to a bounded pool
and only render. No query or prompt logic lives in bot/."""
from __future__ import annotations

import logging
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from slack_bolt import Ack, App, Assistant, Respond, SetSuggestedPrompts, SetTitle
from slack_sdk import WebClient
from slack_sdk.http_retry import RetryHandler, RetryState
from slack_sdk.http_retry.builtin_handlers import ConnectionErrorRetryHandler, RateLimitErrorRetryHandler
from slack_sdk.http_retry.builtin_interval_calculators import BackoffRetryIntervalCalculator
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse

from bot import ask, commands, teach
from bot.assistant import LookingAt, Prompts, context_changed, greet, offer_prompts
from bot.context import Bot
from bot.home import home_view
from bot.limits import Limits
from bot.render import OFFER
from pipeline.core import Pipeline
from pipeline.settings import Settings, revealed
from pipeline.state.admission.pool import WorkerPool

log = logging.getLogger("kgqa.bot")
RATE_LIMIT_RETRIES = 3  # each waits the Retry-After Slack sends
SERVER_ERROR_RETRIES = 2
# Calls that change nothing when repeated: a 5xx on them is retried. A message post is not among them (Slack may have
# posted before failing); when a post fails, the answer goes out in the next call instead (see bot.ask).
IDEMPOTENT = frozenset({"chat.update", "views.publish", "auth.test", "users.info", "conversations.replies",
                        "assistant.threads.setStatus", "assistant.threads.setTitle",
                        "assistant.threads.setSuggestedPrompts"})
# What manifest.yml must grant, no more (tests/bot/test_app.py holds the two together): the agent messaging experience.
# The assistant experience's events (assistant_thread_started, assistant_thread_context_changed) are still answered,
# for an app created before it became legacy.
EVENTS = ("app_mention", "message.im", "app_home_opened", "app_context_changed")
COMMANDS = ("/sparql", "/kgqa")
SCOPES = ("app_mentions:read", "im:history", "chat:write", "files:write", "commands", "assistant:write")


class IdempotentServerErrorRetryHandler(RetryHandler):
    """Retries a Slack 5xx (with backoff) only for the methods in ``IDEMPOTENT``."""

    def _can_retry(self, *, state: RetryState, request: HttpRequest, response: HttpResponse | None = None,
                   error: Exception | None = None) -> bool:
        method = request.url.rsplit("/", 1)[-1].split("?", 1)[0]
        return response is not None and response.status_code >= 500 and method in IDEMPOTENT


def make_client(settings: Settings) -> WebClient:
    """A Web API client for the bot token that waits out 429s (Retry-After), retries dropped connections and, where
    repeating is harmless, server errors."""
    kwargs: dict[str, Any] = {"base_url": settings.slack_api_url} if settings.slack_api_url else {}
    return WebClient(token=revealed(settings.slack_bot_token), timeout=int(max(1, settings.slack_timeout)), **kwargs,
                     retry_handlers=[ConnectionErrorRetryHandler(max_retry_count=1),
                                     RateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES),
                                     IdempotentServerErrorRetryHandler(
                                         max_retry_count=SERVER_ERROR_RETRIES,
                                         interval_calculator=BackoffRetryIntervalCalculator(backoff_factor=0.25))])


def create_app(pipeline: Pipeline, settings: Settings, client: WebClient | None = None, *,
               pool: WorkerPool | None = None, limits: Limits | None = None,
               on_close: list[Callable[[], object]] | None = None) -> App:
    """A Bolt app answering with ``pipeline``. Pass ``pool`` to own its lifetime (close it on shutdown); ``on_close``
    gets what to call when the bot stops (it clears the status lines of questions still in hand)."""
    limits = limits or Limits.from_settings(settings)
    client = client or make_client(settings)
    bot = Bot(pipeline=pipeline, settings=settings, client=client,
              pool=pool or WorkerPool(settings.workers, limits.queue_size), limits=limits)
    # "" rather than None when unset (Socket Mode): with None, Bolt would read SLACK_SIGNING_SECRET itself
    app = App(client=client, signing_secret=revealed(settings.slack_signing_secret) or "",
              process_before_response=False, token_verification_enabled=True, ignoring_self_events_enabled=True,
              # listeners only check, post a placeholder and queue; answering happens in bot.pool
              listener_executor=ThreadPoolExecutor(max_workers=16, thread_name_prefix="kgqa-listener"))
    app.middleware(ask.dedup(bot))  # first: a retried event never reaches the assistant listeners either
    if on_close is not None:
        on_close.append(bot.surfaces.clear_all)
    prompts, looking = Prompts(), LookingAt()
    assistant = Assistant()

    @assistant.thread_started
    def on_thread_started(set_suggested_prompts: SetSuggestedPrompts) -> None:
        offer_prompts(bot, prompts, set_suggested_prompts)

    @assistant.thread_context_changed
    def on_thread_context(event: dict[str, Any]) -> None:
        thread = event.get("assistant_thread") or {}
        context_changed(bot, looking, str(thread.get("user_id") or ""), thread.get("context"))

    @assistant.user_message
    def on_thread_message(event: dict[str, Any], body: dict[str, Any], set_title: SetTitle) -> None:
        ask.on_question(bot, event, body, set_title=set_title)

    app.assistant(assistant)

    @app.event("app_mention")
    def on_mention(event: dict[str, Any], body: dict[str, Any]) -> None:
        ask.on_question(bot, event, body)

    @app.event("message")
    def on_message(event: dict[str, Any], body: dict[str, Any]) -> None:
        ask.on_question(bot, event, body)

    @app.event("app_home_opened")
    def on_home(event: dict[str, Any]) -> None:
        if event.get("tab", "home") == "home":
            client.views_publish(user_id=event["user"], view=home_view(pipeline, settings.maintainer_ids))
        elif event.get("tab") == "messages" and settings.slack_surface == "agent":
            greet(bot, prompts, str(event.get("channel") or ""), str(event.get("user") or ""))

    @app.event("app_context_changed")
    def on_context(event: dict[str, Any], body: dict[str, Any]) -> None:
        user = event.get("user") or next((a.get("user_id") for a in body.get("authorizations") or []
                                          if not a.get("is_bot")), "")
        context_changed(bot, looking, str(user or ""), event.get("context"))

    @app.command("/sparql")
    def on_sparql(ack: Ack, command: dict[str, Any], respond: Respond) -> None:
        commands.on_sparql(bot, ack, command, respond)

    @app.command("/kgqa")
    def on_kgqa(ack: Ack, command: dict[str, Any], respond: Respond) -> None:
        commands.on_kgqa(bot, ack, command, respond)

    @app.action(re.compile(r"^kgqa_(up|down|feedback)$"))
    def on_feedback(ack: Ack, body: dict[str, Any], action: dict[str, Any], respond: Respond) -> None:
        teach.on_feedback(bot, ack, body, action, respond)

    @app.action(re.compile(r"^kgqa_pick_\d+$"))
    def on_pick(ack: Ack, body: dict[str, Any], action: dict[str, Any]) -> None:
        ask.on_pick(bot, ack, body, action)

    @app.action(OFFER)
    def on_offer(ack: Ack, body: dict[str, Any], action: dict[str, Any]) -> None:
        ask.on_offer(bot, ack, body, action)

    @app.action(re.compile(f"^({teach.APPROVE}|{teach.REJECT})$"))
    def on_review(ack: Ack, body: dict[str, Any], action: dict[str, Any], respond: Respond) -> None:
        teach.on_review(bot, ack, body, action, respond)

    @app.error
    def on_error(error: Exception, body: dict[str, Any]) -> None:
        log.error("listener failed (%s: %s) for %s", type(error).__name__, error,
                  body.get("event_id") or body.get("command") or body.get("type"), exc_info=error)

    return app
