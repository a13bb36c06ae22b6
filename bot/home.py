"""What the bot says about itself: `/kgqa help` and the App Home tab (/healthz is bot.health)."""
from __future__ import annotations

from typing import Any

from bot.blocks import Block, context, escape, section
from bot.render import Message
from pipeline.core import Pipeline
from pipeline.glance.about import CAN_ANSWER, EXAMPLES

COMMANDS = (
    "• Mention me in a channel (`@kgqa your question`) or DM me — I answer in the thread.\n"
    "• `/sparql SELECT …` — run a read-only SPARQL query (SELECT or ASK) on the knowledge graph.\n"
    "• `/kgqa lookup TEXT` — the stored question→SPARQL pairs closest to TEXT.\n"
    "• `/kgqa teach QUESTION ||| SPARQL` — maintainers: add a pair after it is checked and run.\n"
    "• 👍 under an answer proposes its pair; a maintainer's approval adds it, so similar questions use it."
)


def store_count(pipeline: Pipeline) -> int | None:
    """Pairs in the example store, or None when the store cannot say."""
    try:
        return int(pipeline.store.count())
    except Exception:  # a broken store is reported as such by the caller, not raised from a status page
        return None


def team_count(pipeline: Pipeline) -> int | None:
    try:
        return len(pipeline.store.examples("team"))
    except Exception:
        return None


def _status_lines(pipeline: Pipeline, maintainers: frozenset[str]) -> str:
    count, team = store_count(pipeline), team_count(pipeline)
    store = "unavailable — run `kgqa index`" if not count else f"{count:,} pairs" + (
        f" ({team:,} from the team)" if team else "")
    who = ", ".join(f"<@{m}>" for m in sorted(maintainers)) or "none configured (`KGQA_MAINTAINERS`)"
    return (f"• Knowledge graph: `{escape(pipeline.kg.name)}`\n"
            f"• Query writer: `{escape(pipeline.generator.name)}`, {pipeline.shots} examples per question\n"
            f"• Example store: {store}\n"
            f"• Maintainers: {who}")


def help_message(pipeline: Pipeline, maintainers: frozenset[str]) -> Message:
    blocks = [section(CAN_ANSWER), section("*How to use me*\n" + COMMANDS),
              section("*Try*\n" + "\n".join(f"• _{escape(q)}_" for q in EXAMPLES[:3])),
              context([_status_lines(pipeline, maintainers).replace("\n", "  ")])]
    return Message("What I can answer, and how to ask", blocks)


def home_view(pipeline: Pipeline, maintainers: frozenset[str]) -> dict[str, Any]:
    blocks: list[Block] = [
        {"type": "header", "text": {"type": "plain_text", "text": "Ask the Open Research Knowledge Graph"}},
        section(CAN_ANSWER),
        {"type": "divider"},
        section("*How to use me*\n" + COMMANDS),
        section("*Questions I can answer, for example*\n" + "\n".join(f"• _{escape(q)}_" for q in EXAMPLES)),
        {"type": "divider"},
        section("*Status*\n" + _status_lines(pipeline, maintainers)),
        context(["Method: few-shot SPARQL generation after Taffa & Usbeck (2023), SciQA benchmark (CC BY 4.0)."]),
    ]
    return {"type": "home", "blocks": blocks}
