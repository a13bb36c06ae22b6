"""The Slack stand-in's AI-app methods (assistant threads, chat streams) and the Block Kit limits Slack enforces on
every message, each refused with the error a real workspace sends (docs.slack.dev, reference/methods and
reference/block-kit). ``AgentAPI`` is mixed into ``SlackAPIServer`` beside ``methods.WebAPI``."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from standins.slack.wire import maybe_json

MAX_BLOCKS = 50
MAX_SECTION = 3000
MAX_MARKDOWN = 12_000  # markdown_text of chat.startStream / appendStream / stopStream
MAX_TABLE_ROWS = 100
MAX_TABLE_CELLS = 20
MAX_CONTEXT_ACTIONS = 5
MAX_FEEDBACK_TEXT = 75
MAX_FEEDBACK_VALUE = 2000
MAX_PROMPTS = 4  # assistant.threads.setSuggestedPrompts
MAX_LOADING_MESSAGES = 10
TABLE_CELLS = ("raw_text", "rich_text", "raw_number")


@dataclass
class Stream:
    """One streamed message: what it shows so far and whether it still takes appends."""

    channel: str
    thread_ts: str
    ts: str
    text: str = ""
    blocks: list[dict[str, Any]] = field(default_factory=list)
    open: bool = True


def _cell_ok(cell: Any) -> bool:
    if not isinstance(cell, dict) or cell.get("type") not in TABLE_CELLS:
        return False
    if cell["type"] == "rich_text":
        return bool(cell.get("elements"))
    return bool(str(cell.get("text", "")))


def _block_error(block: dict[str, Any], tables: int) -> str | None:
    kind = block.get("type")
    if kind == "section" and len(str((block.get("text") or {}).get("text", ""))) > MAX_SECTION:
        return "section text over 3000 characters"
    if kind == "table":
        rows = block.get("rows")
        if tables > 1:
            return "only one table per message"
        if not isinstance(rows, list) or not 1 <= len(rows) <= MAX_TABLE_ROWS:
            return f"a table holds 1 to {MAX_TABLE_ROWS} rows"
        if any(not isinstance(r, list) or not 1 <= len(r) <= MAX_TABLE_CELLS or not all(map(_cell_ok, r))
               for r in rows):
            return f"each table row holds 1 to {MAX_TABLE_CELLS} raw_text, rich_text or raw_number cells"
        if len(block.get("column_settings") or []) > MAX_TABLE_CELLS:
            return "at most 20 column settings"
    if kind == "context_actions":
        elements = block.get("elements") or []
        if not 1 <= len(elements) <= MAX_CONTEXT_ACTIONS:
            return "a context_actions block holds 1 to 5 elements"
        for element in elements:
            if element.get("type") == "feedback_buttons":
                for side in ("positive_button", "negative_button"):
                    button = element.get(side) or {}
                    text = str((button.get("text") or {}).get("text", ""))
                    if not text or len(text) > MAX_FEEDBACK_TEXT or len(str(button.get("value", ""))) > \
                            MAX_FEEDBACK_VALUE or not button.get("value"):
                        return f"feedback_buttons.{side} needs text (≤ 75) and a value (≤ 2000)"
            elif element.get("type") != "icon_button":
                return "context_actions takes feedback_buttons and icon_button elements only"
    return None


def blocks_error(raw: Any) -> str | None:
    """Why Slack would answer ``invalid_blocks`` for these blocks, or None when it takes them."""
    if raw in (None, "", "[]"):
        return None
    blocks = maybe_json(raw)
    if not isinstance(blocks, list) or len(blocks) > MAX_BLOCKS:
        return "blocks must be a list of at most 50"
    tables = 0
    for block in blocks:
        tables += isinstance(block, dict) and block.get("type") == "table"
        why = _block_error(block, tables) if isinstance(block, dict) else "a block must be an object"
        if why:
            return why
    return None


def _chunks_text(params: dict[str, Any]) -> tuple[str, str | None]:
    """The markdown a stream call adds (``markdown_text`` and markdown_text chunks), or an error."""
    text = str(params.get("markdown_text") or "")
    for chunk in maybe_json(params.get("chunks") or "[]"):
        if not isinstance(chunk, dict) or chunk.get("type") not in ("markdown_text", "task_update", "plan_update"):
            return "", "invalid_chunks"
        text += str(chunk.get("text", "")) if chunk["type"] == "markdown_text" else ""
    return text, "msg_too_long" if len(text) > MAX_MARKDOWN else None


class AgentAPI:
    """assistant.threads.* and chat.*Stream; the state they use is the server's."""

    streams: dict[tuple[str, str], Stream]

    def _next_ts(self) -> str:
        raise NotImplementedError

    def _set_status(self, params: dict[str, Any]) -> dict[str, Any]:
        # usable from mention listeners too: any channel, but always for a thread
        if not params.get("channel_id") or not params.get("thread_ts") or "status" not in params:
            return {"ok": False, "error": "invalid_arguments"}
        if len(maybe_json(params.get("loading_messages") or "[]")) > MAX_LOADING_MESSAGES:
            return {"ok": False, "error": "invalid_arguments"}
        return {"ok": True}

    def _set_suggested_prompts(self, params: dict[str, Any]) -> dict[str, Any]:
        prompts = maybe_json(params.get("prompts") or "[]")
        if not params.get("channel_id") or not isinstance(prompts, list) or not 1 <= len(prompts) <= MAX_PROMPTS:
            return {"ok": False, "error": "invalid_arguments"}
        if any(not isinstance(p, dict) or not p.get("title") or not p.get("message") for p in prompts):
            return {"ok": False, "error": "invalid_arguments"}
        return {"ok": True}

    def _set_title(self, params: dict[str, Any]) -> dict[str, Any]:
        if not params.get("channel_id") or not params.get("thread_ts") or not params.get("title"):
            return {"ok": False, "error": "invalid_arguments"}
        return {"ok": True}

    def _start_stream(self, params: dict[str, Any]) -> dict[str, Any]:
        channel = str(params.get("channel") or "")
        if not channel:
            return {"ok": False, "error": "channel_not_found"}
        if not params.get("thread_ts"):
            return {"ok": False, "error": "invalid_arguments"}  # a stream always replies in a thread
        if not channel.startswith("D") and not (params.get("recipient_team_id") and params.get("recipient_user_id")):
            return {"ok": False, "error": "invalid_arguments"}  # in channels Slack needs who it streams to
        text, error = _chunks_text(params)
        if error:
            return {"ok": False, "error": error}
        ts = self._next_ts()
        self.streams[(channel, ts)] = Stream(channel, str(params["thread_ts"]), ts, text)
        return {"ok": True, "channel": channel, "ts": ts}

    def _open_stream(self, params: dict[str, Any]) -> Stream | dict[str, Any]:
        stream = self.streams.get((str(params.get("channel") or ""), str(params.get("ts") or "")))
        if stream is None:
            return {"ok": False, "error": "message_not_found"}
        if not stream.open:
            return {"ok": False, "error": "message_not_in_streaming_state"}
        return stream

    def _append_stream(self, params: dict[str, Any]) -> dict[str, Any]:
        stream = self._open_stream(params)
        if isinstance(stream, dict):
            return stream
        text, error = _chunks_text(params)
        if error or not text:
            return {"ok": False, "error": error or "invalid_arguments"}
        stream.text += text
        return {"ok": True, "channel": stream.channel, "ts": stream.ts}

    def _stop_stream(self, params: dict[str, Any]) -> dict[str, Any]:
        stream = self._open_stream(params)
        if isinstance(stream, dict):
            return stream
        text, error = _chunks_text(params)
        error = error or ("invalid_blocks" if blocks_error(params.get("blocks")) else None)
        if error:
            return {"ok": False, "error": error}
        stream.text += text
        stream.blocks = list(maybe_json(params.get("blocks") or "[]"))
        stream.open = False
        return {"ok": True, "channel": stream.channel, "ts": stream.ts,
                "message": {"type": "message", "text": stream.text, "blocks": stream.blocks,
                            "thread_ts": stream.thread_ts, "ts": stream.ts}}
