"""Block Kit pieces within Slack's limits: escaped mrkdwn, sections, context lines, code, linked cells, CSV."""
from __future__ import annotations

import csv
import io
from typing import Any

from pipeline.glance.terms import short_name
from pipeline.records import Rows, Term

MAX_BLOCKS = 50  # blocks in one message
MAX_SECTION = 3000  # characters in a section's text
MAX_CONTEXT_ITEM = 2000  # characters in one context element
MAX_CONTEXT_ITEMS = 10
MAX_BUTTON_VALUE = 2000
MAX_TEXT = 3000  # our own cap on the notification text (Slack allows more, but nobody reads it)

ORKG_BASE = "http://orkg.org/orkg/"
ORKG_PAGES = {"resource/": "resource/", "predicate/": "property/", "class/": "class/"}
Block = dict[str, Any]


def escape(text: str) -> str:
    """Slack's mrkdwn needs exactly these three escaped; everything else is shown as written."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": clip(text, MAX_SECTION)}}


def context(items: list[str]) -> Block:
    return {"type": "context",
            "elements": [{"type": "mrkdwn", "text": clip(t, MAX_CONTEXT_ITEM)} for t in items[:MAX_CONTEXT_ITEMS]]}


def code(title: str, body: str) -> tuple[Block, bool]:
    """A section holding ``body`` in a code block under ``title``; true when the body had to be cut."""
    room = MAX_SECTION - len(title) - len("\n``````")
    body = body.replace("```", "`\u200b``")  # a fence inside the query would end the block
    text = escape(body)
    cut = len(text) > room
    if cut:  # cut whole characters, never inside an entity such as &lt;
        pieces: list[str] = []
        size = 0
        for ch in body:
            piece = escape(ch)
            if size + len(piece) > room - 1:
                break
            pieces.append(piece)
            size += len(piece)
        text = "".join(pieces) + "…"
    return section(f"{title}\n```{text}```"), cut


def button(label: str, action_id: str, value: str, style: str | None = None) -> Block:
    out: Block = {"type": "button", "text": {"type": "plain_text", "text": label, "emoji": True},
                  "action_id": action_id, "value": value[:MAX_BUTTON_VALUE]}
    if style:
        out["style"] = style
    return out


def actions(block_id: str, elements: list[Block]) -> Block:
    return {"type": "actions", "block_id": block_id, "elements": elements}


def page_url(iri: str) -> str:
    """ORKG's web page for an ORKG IRI (``http://orkg.org/orkg/resource/R1`` -> ``https://orkg.org/resource/R1``)."""
    for kind, page in ORKG_PAGES.items():
        if iri.startswith(ORKG_BASE + kind):
            return "https://orkg.org/" + page + iri[len(ORKG_BASE + kind):]
    return iri


def link(url: str, label: str) -> str:
    if not url.startswith(("http://", "https://")) or any(c in url for c in "<>| "):
        return escape(label)
    return f"<{url}|{escape(label).replace('|', '¦')}>"


def cell(term: Term | None, label: Term | None = None, limit: int = 120) -> str:
    """One value as mrkdwn: IRIs linked (ORKG IRIs to orkg.org), labels in place of ids when the row has them."""
    if term is None:
        return escape(clip(label["value"], limit)) if label else "–"
    value = term.get("value", "")
    if term.get("type") == "uri":
        text = label["value"] if label else short_name(value)
        return link(page_url(value), clip(text, limit))
    if term.get("type") == "bnode":
        return "_:" + escape(clip(value, limit))
    return escape(clip(value, limit)) if value else "“”"


def csv_text(rows: Rows) -> str:
    """The whole result as CSV: one column per variable, full IRIs and literal values."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    if rows.boolean is not None:
        writer.writerows([["boolean"], [str(rows.boolean).lower()]])
        return buffer.getvalue()
    writer.writerow(rows.vars)
    for row in rows.rows:
        writer.writerow([row[v]["value"] if v in row else "" for v in rows.vars])
    return buffer.getvalue()


def pack(lines: list[str], limit: int = MAX_SECTION, max_chunks: int = 8) -> tuple[list[str], int]:
    """Lines joined into at most ``max_chunks`` texts of at most ``limit`` chars; and how many lines fit."""
    chunks: list[str] = []
    current = ""
    used = 0
    for line in lines:
        line = clip(line, limit)
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) <= limit:
            current = candidate
        else:
            if len(chunks) + 1 >= max_chunks:
                break
            chunks.append(current)
            current = line
        used += 1
    if current:
        chunks.append(current)
    return chunks, used
