"""The conversation's start and what the person is looking at, the same for Slack's two event shapes: the agent
messaging experience (``features.agent_view``: the Messages tab opened is ``app_home_opened`` with ``tab ==
"messages"``, ``app_context_changed``) and the assistant experience (``assistant_thread_started``,
``assistant_thread_context_changed``). Suggested prompts come from what the store can answer (its most common
question forms and what the team taught); a thread's title from its first question."""
from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from typing import Any

from slack_bolt import SetSuggestedPrompts, SetTitle
from slack_sdk.errors import SlackClientError

from bot.blocks import clip, escape
from bot.context import Bot
from bot.render import notice
from pipeline.glance.about import EXAMPLES, suggested_questions

log = logging.getLogger("kgqa.bot")
PROMPTS = 4  # Slack shows at most four
PROMPT_TITLE = 60  # characters of a prompt's label; its message is the whole question
TITLE = 100  # characters of a thread's title
PROMPTS_HEADING = "Ask the Open Research Knowledge Graph, for example:"
GREETING = ("Hi! I answer questions about research in the Open Research Knowledge Graph — benchmarks, models, "
            "scores, papers and their code — with the SPARQL I ran. Each message you send starts its own thread; "
            "follow-ups in a thread build on it. For example: _{example}_")
LOOKING_AT = 1000  # people whose latest context is remembered


class Prompts:
    """The suggested questions, read from the store again only when its number of pairs changes (a pair taught)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count = -1
        self._questions: list[str] = []

    def questions(self, bot: Bot) -> list[str]:
        store = bot.pipeline.store
        try:
            count = int(store.count())
            with self._lock:
                if count != self._count:
                    self._questions = suggested_questions(store.examples(), PROMPTS)
                    self._count = count
                return list(self._questions)
        except Exception as exc:  # a store that cannot be read still leaves the fixed examples to offer
            log.warning("could not read the store for suggested prompts (%s)", exc)
            return list(EXAMPLES[:PROMPTS])


class LookingAt:
    """What each person was last looking at while the app was open (``app_context_changed`` and
    ``assistant_thread_context_changed``): the entities Slack sends, most relevant first, for the log lines."""

    def __init__(self, size: int = LOOKING_AT) -> None:
        self._lock = threading.Lock()
        self._seen: OrderedDict[str, list[str]] = OrderedDict()
        self.size = size

    def update(self, user: str, context: dict[str, Any] | None) -> list[str]:
        entities = (context or {}).get("entities") or []
        found = [str(e.get("value")) for e in entities if isinstance(e, dict) and e.get("value")]
        if not found and (context or {}).get("channel_id"):  # the assistant experience's shape
            found = [str((context or {})["channel_id"])]
        with self._lock:
            self._seen[user] = found
            self._seen.move_to_end(user)
            while len(self._seen) > self.size:
                self._seen.popitem(last=False)
        return found

    def of(self, user: str) -> list[str]:
        with self._lock:
            return list(self._seen.get(user, []))


def context_changed(bot: Bot, looking: LookingAt, user: str, context: dict[str, Any] | None) -> None:
    """Either experience's context event: remembered and logged (the answer does not depend on it)."""
    if user:
        bot.log("context", user=user, looking_at=looking.update(user, context)[:3])


def greet(bot: Bot, prompts: Prompts, channel: str, user: str) -> None:
    """The Messages tab opened (agent experience): a greeting the first time, and prompts at the top."""
    if not channel:
        return
    if bot.seen.first(f"greeting:{channel}"):
        questions = prompts.questions(bot)
        bot.try_post(channel, notice(GREETING.format(example=escape(questions[0] if questions else EXAMPLES[0]))))
    offer_prompts(bot, prompts, SetSuggestedPrompts(client=bot.client, channel_id=channel))


def offer_prompts(bot: Bot, prompts: Prompts, set_suggested_prompts: SetSuggestedPrompts | None) -> None:
    """A new conversation (a thread in the assistant experience, the Messages tab in the agent one): up to four
    questions to start from."""
    if set_suggested_prompts is None:
        return
    questions = prompts.questions(bot)
    try:
        set_suggested_prompts(prompts=[{"title": clip(q, PROMPT_TITLE), "message": q} for q in questions],
                              title=PROMPTS_HEADING)
    except (SlackClientError, OSError) as exc:  # only an offer: the thread works without it
        log.warning("could not set suggested prompts in %s (%s)", set_suggested_prompts.channel_id, exc)


def title_thread(bot: Bot, set_title: SetTitle | None, channel: str, thread_ts: str, question: str) -> None:
    """The thread's title, from its first question (later ones keep it)."""
    if set_title is None or not question.strip() or not bot.seen.first(f"title:{channel}:{thread_ts}"):
        return
    try:
        set_title(clip(" ".join(question.split()), TITLE))
    except (SlackClientError, OSError) as exc:
        log.warning("could not title the thread %s in %s (%s)", thread_ts, channel, exc)
