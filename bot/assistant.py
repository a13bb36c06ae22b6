"""The app's Messages tab and assistant threads: suggested prompts from what the store can answer (its most common
question forms and what the team taught), and a thread's title from its first question."""
from __future__ import annotations

import logging
import threading

from slack_bolt import SetSuggestedPrompts, SetTitle
from slack_sdk.errors import SlackClientError

from bot.blocks import clip
from bot.context import Bot
from pipeline.glance.about import EXAMPLES, suggested_questions

log = logging.getLogger("kgqa.bot")
PROMPTS = 4  # Slack shows at most four
PROMPT_TITLE = 60  # characters of a prompt's label; its message is the whole question
TITLE = 100  # characters of a thread's title
PROMPTS_HEADING = "Ask the Open Research Knowledge Graph, for example:"


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


def offer_prompts(bot: Bot, prompts: Prompts, set_suggested_prompts: SetSuggestedPrompts | None) -> None:
    """A new assistant thread, or the Messages tab opened: up to four questions to start from."""
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
