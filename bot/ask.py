"""Questions from mentions and DMs: dedup, load limits, a placeholder at once, then the answer in its place."""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from slack_bolt import BoltResponse, SetTitle
from slack_sdk.errors import SlackApiError

from bot.assistant import title_thread
from bot.context import Bot
from bot.feedback import feedback_value
from bot.native import Kit
from bot.plan import Plan
from bot.render import Message, notice, picked_question, render_answer
from bot.streaming import READING, WAITING, Status, status_for
from bot.text import clean_question
from pipeline.glance.about import EXAMPLES
from pipeline.records import Answer, Outcome, Step
from pipeline.state.link import SharedStateDown

log = logging.getLogger("kgqa.bot")
WORKING = ":hourglass_flowing_sand: Working on it…"


@dataclass(frozen=True)
class Asked:
    """A question as the bot took it: its text, where the reply goes (the channel and thread), the ids its log lines
    carry, and when it arrived (``time.monotonic()``)."""

    question: str
    channel: str
    thread_ts: str
    ids: dict[str, Any]
    received: float


def is_question(event: dict[str, Any]) -> bool:
    """A person's mention of the bot, or a person's DM to it; never a bot's message or an edit/join/etc."""
    if event.get("bot_id") or event.get("subtype") or not event.get("user"):
        return False
    if event.get("type") == "app_mention":
        return True
    return event.get("type") == "message" and event.get("channel_type") == "im"


def dedup(bot: Bot) -> Callable[..., BoltResponse | None]:
    """Bolt middleware, run before the ack: drops Slack's retries (same ``event_id``), a message that arrives a second
    time as another event type (same channel and ``ts``), and message events that are no question to the bot.

    Deciding here, while the request is still open, means a retry that arrives later can never race the original.
    """

    def middleware(body: dict[str, Any], next: Callable[[], None]) -> BoltResponse | None:
        if body.get("type") == "event_callback":
            event = body.get("event") or {}
            if body.get("event_id") and not bot.seen.first("event:" + str(body["event_id"])):
                bot.log("duplicate", event_id=body["event_id"], why="retry")
                return BoltResponse(status=200, body="")
            if event.get("type") == "message" and not is_question(event):
                return BoltResponse(status=200, body="")  # bots, edits, joins, channel chatter: nothing to answer
            if is_question(event) and not bot.seen.first(f"message:{event.get('channel')}:{event.get('ts')}"):
                bot.log("duplicate", event_id=body.get("event_id"), why="same message")
                return BoltResponse(status=200, body="")
        next()
        return None

    return middleware


def on_question(bot: Bot, event: dict[str, Any], body: dict[str, Any], set_title: SetTitle | None = None) -> None:
    """Runs after the ack: check the question and the user's pace, show work at once, queue the answering;
    ``set_title`` (assistant threads) names the thread after its first question."""
    if not is_question(event):
        return
    received = time.monotonic()
    channel, user = str(event["channel"]), str(event["user"])
    thread_ts = str(event.get("thread_ts") or event["ts"])
    ids = {"event_id": body.get("event_id"), "team": body.get("team_id"), "channel": channel, "user": user,
           "ts": event["ts"]}
    cleaned = clean_question(str(event.get("text") or ""), bot.settings.max_question_chars)
    if not cleaned.text:
        refusal = f"Ask me a question in words, e.g. _{EXAMPLES[0]}_ (`/kgqa help` says more)."
        bot.try_post(channel, notice(refusal), thread_ts)
        bot.log("question", outcome="empty", **ids)
        return
    if cleaned.too_long:
        refusal = (f"That question is {cleaned.chars:,} characters long; I take at most "
                   f"{bot.settings.max_question_chars:,}. Please ask it more briefly.")
        bot.try_post(channel, notice(refusal), thread_ts)
        bot.log("question", outcome="too_long", **ids)
        return
    enqueue(bot, Asked(cleaned.text, channel, thread_ts, ids, received))
    title_thread(bot, set_title, channel, thread_ts, cleaned.text)


def enqueue(bot: Bot, asked: Asked) -> None:
    """The asker's pace checked, work shown at once, the answering queued (a question, or a picked name's re-run)."""
    channel, thread_ts, ids = asked.channel, asked.thread_ts, asked.ids
    user = str(ids.get("user") or "")
    if wait := bot.limiter.wait(user):
        bot.try_post(channel, notice(f"You have asked {bot.limits.user_questions} questions in the last "
                                     f"{bot.limits.user_window_s:.0f} s; please ask again in {wait:.0f} s."),
                     thread_ts)
        bot.log("question", outcome="rate_limited", **ids)
        return
    admitted = admit(bot)
    if admitted is None:
        bot.try_post(channel, notice(":no_entry: I am answering as many questions as I can right now; "
                                     "please ask again in a minute."), thread_ts)
        bot.log("question", outcome="busy", **ids, **bot.pool.stats())
        return
    ahead, token = admitted
    status = WORKING if ahead == 0 else \
        f":hourglass: Busy — your question is queued behind {ahead} other{'s' * (ahead > 1)}; I will answer here."
    team = str(ids.get("team") or "")
    line: Status | None = None
    if bot.settings.slack_surface == "agent" and bot.surfaces.agent(team):
        line = status_for(bot.client, channel, thread_ts, bot.surfaces, team)
    placeholder: str | None = None

    def job() -> None:
        if token and bot.queue is not None:
            bot.queue.leave(token)  # started: its waiting place is free for the deployment
        answer_job(bot, asked, placeholder, ahead, line)

    try:
        waiting = READING if ahead == 0 else f"{WAITING}: {ahead} question{'s' * (ahead > 1)} ahead…"
        if line is not None and not line.show(waiting):
            line = None  # this workspace refuses status lines (recorded): the placeholder instead
        if line is None:
            # Without a placeholder (Slack failed the post) the answer is posted afresh when it is ready.
            placeholder = bot.try_post(channel, notice(status), thread_ts)
        bot.pool.run(job)
    except BaseException:
        if line is not None:
            line.clear()
        bot.pool.release()
        if token and bot.queue is not None:
            bot.queue.leave(token)
        raise


def admit(bot: Bot) -> tuple[int, str] | None:
    """A place in this replica's queue and, when the question has to wait and Redis is shared, in the deployment's:
    (questions ahead, the shared place's token or ""), or None when either is full."""
    ahead = bot.pool.admit()
    if ahead is None or ahead == 0 or bot.queue is None:
        return None if ahead is None else (ahead, "")
    try:
        joined = bot.queue.join()
    except SharedStateDown:
        return ahead, ""  # Redis unavailable: this replica's own count decides
    if joined is None:
        bot.pool.release()
        return None
    return max(ahead, joined[1] + 1), joined[0]


def on_pick(bot: Bot, ack: Callable[[], object], body: dict[str, Any], action: dict[str, Any]) -> None:
    """A "did you mean" button: the question asked again, in the same thread, with the picked label."""
    ack()
    message, container = body.get("message") or {}, body.get("container") or {}
    channel = str((body.get("channel") or {}).get("id") or container.get("channel_id") or "")
    thread_ts = str(message.get("thread_ts") or container.get("thread_ts") or message.get("ts") or "")
    question = picked_question(str(action.get("value") or ""))
    ids = {"team": (body.get("team") or {}).get("id"), "channel": channel,
           "user": (body.get("user") or {}).get("id"), "ts": thread_ts, "action": action.get("action_id")}
    if not channel or not thread_ts or question is None:
        bot.log("pick", outcome="unreadable", **ids)
        return
    enqueue(bot, Asked(question, channel, thread_ts, ids, time.monotonic()))


def on_offer(bot: Bot, ack: Callable[[], object], body: dict[str, Any], action: dict[str, Any]) -> None:
    """The "Ask: …" button of a declined answer: its question is asked in the same thread."""
    ack()
    message, container = body.get("message") or {}, body.get("container") or {}
    channel = str((body.get("channel") or {}).get("id") or container.get("channel_id") or "")
    thread_ts = str(message.get("thread_ts") or container.get("thread_ts") or message.get("ts") or "")
    question = str(action.get("value") or "").strip()
    ids = {"team": (body.get("team") or {}).get("id"), "channel": channel,
           "user": (body.get("user") or {}).get("id"), "ts": thread_ts, "action": action.get("action_id")}
    if not channel or not thread_ts or not question:
        bot.log("offer", outcome="unreadable", **ids)
        return
    enqueue(bot, Asked(question, channel, thread_ts, ids, time.monotonic()))


def answer_job(bot: Bot, asked: Asked, placeholder: str | None, ahead: int, line: Status | None = None) -> None:
    """In a worker: ask the pipeline (its steps on the status ``line`` and, with it, as the stream's plan), render,
    stream the answer or put it where the placeholder was (``ahead``: it waited behind that many); the status cleared
    whatever happens; one log line."""
    channel, thread_ts, ids = asked.channel, asked.thread_ts, asked.ids
    started = time.monotonic()
    if ahead and placeholder:
        try:
            bot.client.chat_update(channel=channel, ts=placeholder, text=WORKING, blocks=notice(WORKING).blocks)
        except SlackApiError as exc:  # only a status; the answer still goes out below
            log.warning("could not mark event %s as in progress (%s)", ids.get("event_id"), exc.response.get("error"))
    plan = None if line is None else Plan(bot.client, channel, thread_ts, str(ids.get("team") or ""),
                                          str(ids.get("user") or ""), bot.surfaces)
    answer: Answer | None = None
    kits: dict[Kit, Message] = {}
    try:
        answer = bot.ask(channel, thread_ts, asked.question, progress=_progress(line, plan))
        sparql = (answer.generation.sparql if answer.generation else None) or answer.sparql or ""
        elapsed, value = (time.monotonic() - asked.received) * 1000, feedback_value(answer.question, sparql, bot.recent)
        for kit in (Kit.DATA, Kit.TABLE, Kit.CLASSIC) if plan else (Kit.CLASSIC,):
            kits[kit] = render_answer(answer, elapsed_ms=elapsed, feedback=value, kit=kit)
        kind = answer.outcome.value
    except Exception as exc:  # the pipeline reports failures as data; this is a bug, and the user still hears of it
        log.exception("answering failed for event %s", ids.get("event_id"))
        kits = {Kit.CLASSIC: notice(f":warning: Something went wrong on my side ({type(exc).__name__}). The "
                                    f"maintainers can find it in the logs under `{ids.get('event_id')}`.")}
        kind = "crash"
    message = kits[Kit.CLASSIC]
    try:
        if plan is None:
            bot.deliver(channel, placeholder, thread_ts, message)
        else:
            streamed(bot, plan, channel, thread_ts, kits, answer)
    except Exception as exc:  # Slack refused every way of answering; the log keeps what the user could not see
        log.error("could not deliver the answer to event %s (%s: %s)", ids.get("event_id"), type(exc).__name__,
                  _slack_error(exc))
        kind = f"undelivered_{kind}"
    finally:
        if line is not None:
            line.clear()
    bot.log("question", outcome=kind, question=asked.question[:200], generator=answer.generator if answer else "",
            kg=bot.pipeline.kg.name, rows=len(answer.rows.rows) if answer and answer.rows else 0,
            error=answer.error[:200] if answer else "", files=len(message.files),
            queued_ms=round((started - asked.received) * 1000, 1),
            total_ms=round((time.monotonic() - asked.received) * 1000, 1),
            timings_ms={k: round(v, 1) for k, v in answer.timings_ms.items()} if answer else {}, **ids)


def _progress(line: Status | None, plan: Plan | None) -> Callable[[Step], None] | None:
    """The pipeline's progress hook: each step on the status line and as a task of the stream's plan."""
    if line is None or plan is None:
        return None

    def progress(step: Step) -> None:
        line.step(step)
        plan.step(step)

    return progress


def streamed(bot: Bot, plan: Plan, channel: str, thread_ts: str, kits: dict[Kit, Message],
             answer: Answer | None) -> None:
    """The answer at the end of the plan's stream: its summary (or the notice) streamed as text, whole, then the
    richest blocks the workspace takes; the classic message in the stream's place (or posted, if none started)
    where Slack refuses. The files of the blocks that went out are attached after."""
    classic = kits[Kit.CLASSIC]
    lead = bool(answer and answer.summary and classic.blocks)
    text = bot.scrubber.text(answer.summary if answer and answer.summary else classic.text)
    tiers = [(kit, [bot.scrubber.data(b) for b in (m.blocks[1:] if lead else m.blocks)]) for kit, m in kits.items()]
    ts, used = plan.finish(text, tiers, ok=bool(answer and answer.outcome is Outcome.ANSWERED))
    if used is None:
        bot.deliver(channel, ts, thread_ts, classic)
        return
    failed = bot.upload(channel, thread_ts, kits[used].files)
    if failed:
        bot.post(channel, notice(f"The full result could not be attached ({failed})."), thread_ts)


def _slack_error(exc: Exception) -> str:
    return str(exc.response.get("error", "")) if isinstance(exc, SlackApiError) else str(exc)[:200]
