"""Slash commands: `/sparql QUERY` and `/kgqa help|lookup|teach`. Each acks at once; the work runs in the pool."""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from slack_bolt import Ack, Respond

from bot.context import Bot
from bot.home import help_message
from bot.render import Message, answered, render_answer, render_lookup
from bot.teach import teach
from bot.text import command_text
from pipeline.errors import KgqaError
from pipeline.sparql.text import MAX_QUERY_CHARS

log = logging.getLogger("kgqa.bot")
LOOKUP_K = 5
SPARQL_USAGE = "Usage: `/sparql SELECT ?x WHERE { … }` — read-only SPARQL (SELECT or ASK) on the knowledge graph."
BUSY = ":no_entry: I am answering as many questions as I can right now; please try again in a minute."


def _send(bot: Bot, respond: Respond, message: Message, public: bool = False) -> None:
    respond(text=bot.scrubber.text(message.text), blocks=bot.scrubber.data(message.blocks) or None,
            response_type="in_channel" if public else "ephemeral", replace_original=False)


def _in_pool(bot: Bot, respond: Respond, job: Callable[[], None]) -> None:
    if not bot.pool.submit(job):
        respond(text=BUSY, response_type="ephemeral")


def on_sparql(bot: Bot, ack: Ack, command: dict[str, Any], respond: Respond) -> None:
    """Raw SPARQL through the pipeline's read-only gate; results shared in the channel, refusals only to the user."""
    query = command_text(str(command.get("text") or ""))
    if not query:
        ack(text=SPARQL_USAGE)
        return
    if len(query) > MAX_QUERY_CHARS:
        ack(text=f"That query is {len(query):,} characters long; I run queries of at most {MAX_QUERY_CHARS:,}.")
        bot.log("sparql", outcome="too_long", chars=len(query), user=command.get("user_id"))
        return
    ack()
    received = time.monotonic()
    ids = {"user": command.get("user_id"), "channel": command.get("channel_id"), "team": command.get("team_id")}

    def job() -> None:
        answer = bot.pipeline.run_sparql(query)
        message = render_answer(answer, elapsed_ms=(time.monotonic() - received) * 1000)
        public = answered(answer)
        _send(bot, respond, message, public)
        if message.files and public:
            failed = bot.upload(str(command.get("channel_id")), None, message.files)
            if failed:
                respond(text=f"The full result could not be attached ({failed}); invite me to the channel to "
                             "get files.", response_type="ephemeral", replace_original=False)
        bot.log("sparql", outcome=answer.outcome.value, error=answer.error[:200], kg=bot.pipeline.kg.name,
                total_ms=round((time.monotonic() - received) * 1000, 1), **ids)

    _in_pool(bot, respond, job)


def on_kgqa(bot: Bot, ack: Ack, command: dict[str, Any], respond: Respond) -> None:
    """`/kgqa help`, `/kgqa lookup TEXT`, `/kgqa teach QUESTION ||| SPARQL` (maintainers)."""
    text = command_text(str(command.get("text") or ""))
    parts = text.split(None, 1)
    sub, rest = (parts[0].lower(), parts[1].strip() if len(parts) > 1 else "") if parts else ("help", "")
    user = str(command.get("user_id") or "")
    ack()
    if sub == "lookup" and rest:
        def lookup() -> None:
            try:
                message = render_lookup(rest, bot.pipeline.lookup(rest, LOOKUP_K))
            except KgqaError as exc:
                message = Message(f"The example store cannot be searched: {exc}")
            _send(bot, respond, message)

        _in_pool(bot, respond, lookup)
    elif sub == "teach":
        if not bot.is_maintainer(user):
            respond(text="Only a maintainer can teach pairs directly; 👍 on a right answer proposes it instead.",
                    response_type="ephemeral")
            bot.log("teach", user=user, refused=True)
            return
        _in_pool(bot, respond, lambda: teach(bot, user, rest, respond))
    elif sub == "help" or sub == "lookup":
        _send(bot, respond, help_message(bot.pipeline, bot.settings.maintainer_ids))
    else:
        respond(text=f"I do not know `/kgqa {sub}`. Try `/kgqa help`, `/kgqa lookup TEXT` or "
                     "`/kgqa teach QUESTION ||| SPARQL`.", response_type="ephemeral")
