"""👍/👎 on answers, maintainers' Approve/Reject, and `/kgqa teach`: only a maintainer puts a pair in the store."""
from __future__ import annotations

import logging
from typing import Any

from slack_bolt import Ack, Respond

from bot.blocks import actions, button, code, escape, section
from bot.context import Bot
from bot.feedback import read_feedback
from bot.native import DOWN_VALUE, FEEDBACK
from bot.render import Message, notice
from bot.state.proposals.base import Proposal
from bot.text import clean_question, split_teach
from pipeline.errors import KgqaError
from pipeline.question import tidy
from pipeline.records import Example
from pipeline.sparql.gate import gate
from pipeline.store.chroma import team_id
from pipeline.store.team import JOURNAL, record

log = logging.getLogger("kgqa.bot")
APPROVE, REJECT = "kgqa_approve", "kgqa_reject"


def check_and_add(bot: Bot, question: str, sparql: str) -> tuple[str | None, str]:
    """Validate a pair (a question in words; SPARQL that parses, is read-only and runs) and add it to the store.

    Returns (the stored id, a note) or (None, the reason it was not added).
    """
    cleaned = clean_question(question, bot.settings.max_question_chars)
    if not cleaned.text or cleaned.too_long:
        return None, "the question is empty or too long"
    asked = tidy(cleaned.text)  # the question, not "hey, quick one: ... thanks!" around it
    check = gate(sparql, bot.pipeline.row_cap)  # the pipeline's own gate; a pair in Virtuoso's dialect is not taught
    if check.errors or check.warnings:
        return None, (check.errors or check.warnings)[0]
    answer = bot.pipeline.run_sparql(sparql)
    if not answer.outcome.ok:
        return None, answer.error
    rows = answer.rows
    found = "yes/no" if rows and rows.boolean is not None else f"{len(rows.rows) if rows else 0} rows"
    example = Example(team_id(asked), asked, sparql, "", "team")
    bot.pipeline.store.add([example])
    try:
        record(bot.settings.home / JOURNAL, [example])
    except OSError as exc:  # the pair is stored; only its copy for a rebuild is missing
        log.warning("could not add %s to the team journal: %s", example.id, exc)
    bot.log("taught", id=example.id, rows=found)
    return example.id, f"it ran and returned {found}"


def _proposal_message(p: Proposal) -> Message:
    blocks = [
        section(f":bulb: <@{p.proposer}> says this answer was right and proposes adding the pair to the team's "
                f"examples, so similar questions use it.\n*Question:* {escape(p.question)}"),
        code("*SPARQL*", p.sparql)[0],
        actions("kgqa_review", [button("Approve", APPROVE, p.id, "primary"), button("Reject", REJECT, p.id, "danger")]),
    ]
    return Message(f"Proposed for the team's examples: {p.question}", blocks)


def on_feedback(bot: Bot, ack: Ack, body: dict[str, Any], action: dict[str, Any], respond: Respond) -> None:
    """👍 proposes the answer's pair to the maintainers; 👎 is noted. Neither changes the store."""
    ack()
    user = body.get("user", {}).get("id", "")
    # a plain 👍 button (kgqa_up), or Slack's feedback buttons: one action_id, the clicked button's value
    up = action.get("action_id") == "kgqa_up" or (action.get("action_id") == FEEDBACK
                                                 and action.get("value") != DOWN_VALUE)
    if not up:
        bot.log("feedback", vote="down", user=user, channel=body.get("channel", {}).get("id"))
        respond(text="Thanks — noted that this answer was wrong. Rephrasing the question often helps; "
                     "`/kgqa lookup` shows the questions I know.", response_type="ephemeral", replace_original=False)
        return
    pair = read_feedback(str(action.get("value", "")), bot.recent)
    if pair is None or not pair[1].strip():
        respond(text="There is no query to propose from this answer.", response_type="ephemeral",
                replace_original=False)
        return
    maintainers = bot.settings.maintainer_ids
    if not maintainers:
        respond(text="Thanks! No maintainers are configured (`KGQA_MAINTAINERS`), so nobody can approve this pair.",
                response_type="ephemeral", replace_original=False)
        return
    proposal, new = bot.proposals.propose(pair[0], pair[1], user, body.get("channel", {}).get("id", ""))
    bot.log("feedback", vote="up", user=user, proposal=proposal.id, new=new)
    told = 0
    if new:
        message = _proposal_message(proposal)
        for maintainer in sorted(maintainers):  # a DM reaches them wherever the answer was; one bad id stops no one
            told += bot.try_post(maintainer, message) is not None
    if new and not told:
        text = ("Thanks! The pair is saved as a proposal, but no maintainer could be told (check "
                "`KGQA_MAINTAINERS`); it waits for their review.")
    else:
        text = "Thanks! The pair is proposed; a maintainer will review it." if new else \
            "Thanks! This pair is already waiting for a maintainer."
    respond(text=text, response_type="ephemeral", replace_original=False)


def on_review(bot: Bot, ack: Ack, body: dict[str, Any], action: dict[str, Any], respond: Respond) -> None:
    """Approve/Reject on a proposal: maintainers only; approval validates the pair, then adds it."""
    ack()
    user = body.get("user", {}).get("id", "")
    if not bot.is_maintainer(user):
        bot.log("review", refused=True, user=user, proposal=action.get("value"))
        respond(text="Only a maintainer can approve or reject proposed pairs.", response_type="ephemeral",
                replace_original=False)
        return
    proposal = bot.proposals.take(str(action.get("value", "")))
    if proposal is None:
        respond(text="This proposal was already decided.", response_type="ephemeral", replace_original=False)
        return
    if action.get("action_id") == REJECT:
        _close(bot, body, f":x: <@{user}> rejected: _{escape(proposal.question)}_")
        bot.log("review", decision="rejected", user=user, proposal=proposal.id)
        return

    def approve() -> None:
        try:
            stored, note = check_and_add(bot, proposal.question, proposal.sparql)
        except KgqaError as exc:  # the store (or the journal behind it) failed: the proposal waits, and they hear why
            bot.proposals.propose(proposal.question, proposal.sparql, proposal.proposer, proposal.channel)
            respond(text=f"Not added yet: {exc}. The proposal is kept; approve it again when that is fixed.",
                    response_type="ephemeral", replace_original=False)
            bot.log("review", decision="kept", user=user, proposal=proposal.id, error=str(exc)[:200])
            return
        if stored:
            _close(bot, body, f":white_check_mark: <@{user}> approved: _{escape(proposal.question)}_ is now "
                              f"`{stored}` in the team's examples ({escape(note)}).")
        else:
            _close(bot, body, f":warning: Not added: _{escape(proposal.question)}_ — {escape(note)}.")
        bot.log("review", decision="approved" if stored else "invalid", user=user, proposal=proposal.id)

    if not bot.pool.submit(approve):
        bot.proposals.propose(proposal.question, proposal.sparql, proposal.proposer, proposal.channel)
        respond(text="I am too busy to check the pair right now; please approve again in a minute.",
                response_type="ephemeral", replace_original=False)


def _close(bot: Bot, body: dict[str, Any], text: str) -> None:
    """Replace the proposal (its buttons gone) with the decision."""
    channel = body.get("channel", {}).get("id") or body.get("container", {}).get("channel_id")
    ts = body.get("message", {}).get("ts") or body.get("container", {}).get("message_ts")
    message = notice(text)
    if channel and ts:
        bot.client.chat_update(channel=channel, ts=ts, text=bot.scrubber.text(message.text),
                               blocks=bot.scrubber.data(message.blocks))


def teach(bot: Bot, user: str, text: str, respond: Respond) -> None:
    """`/kgqa teach QUESTION ||| SPARQL`, run in a worker; the caller has checked that ``user`` is a maintainer."""
    pair = split_teach(text)
    if pair is None:
        respond(text="Usage: `/kgqa teach QUESTION ||| SPARQL`", response_type="ephemeral")
        return
    stored, note = check_and_add(bot, *pair)
    if stored:
        respond(text=f"Added `{stored}`: {pair[0]} — {note}.", response_type="ephemeral")
    else:
        respond(text=f"Not added: {note}.", response_type="ephemeral")
    bot.log("teach", user=user, stored=stored, note=note[:200])
