"""The Slack stand-in's AI-app methods (assistant threads, chat streams with markdown, plan and task chunks), each
refused with the error a real workspace sends (docs.slack.dev, reference/methods): a streamed message holds at most
12,000 characters of markdown in all (``msg_too_long``) and takes appends for ``stream_limit_s`` after it started
(``message_not_in_streaming_state`` after). ``AgentAPI`` is mixed into ``SlackAPIServer`` beside ``methods.WebAPI``."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from standins.slack.blocks import blocks_error
from standins.slack.wire import maybe_json

MAX_MARKDOWN = 12_000  # markdown a streamed message holds, all its appends together ("msg_too_long" beyond)
STREAM_LIMIT_S = 300.0  # about five minutes after chat.startStream a stream no longer takes appends
MAX_PROMPTS = 4  # assistant.threads.setSuggestedPrompts
MAX_LOADING_MESSAGES = 10
TASK_STATES = ("pending", "in_progress", "complete", "error")
DISPLAY_MODES = ("plan", "timeline")


@dataclass
class Stream:
    """One streamed message: what it shows so far and whether it still takes appends."""

    channel: str
    thread_ts: str
    ts: str
    text: str = ""
    blocks: list[dict[str, Any]] = field(default_factory=list)
    open: bool = True
    started: float = field(default_factory=time.monotonic)
    tasks: dict[str, str] = field(default_factory=dict)  # task id -> its latest status
    title: str = ""  # the plan's title


def _chunks(params: dict[str, Any]) -> tuple[str, list[dict[str, Any]], str | None]:
    """The markdown a stream call adds (``markdown_text`` and markdown_text chunks), its plan and task chunks, or
    Slack's error for a chunk it cannot read."""
    text = str(params.get("markdown_text") or "")
    updates: list[dict[str, Any]] = []
    for chunk in maybe_json(params.get("chunks") or "[]"):
        kind = chunk.get("type") if isinstance(chunk, dict) else None
        if kind == "markdown_text":
            text += str(chunk.get("text", ""))
        elif chunk.get("title") and (kind == "plan_update" or (
                kind == "task_update" and chunk.get("id") and chunk.get("status") in TASK_STATES)):
            updates.append(chunk)
        else:
            return "", [], "invalid_chunks"
    return text, updates, None


def _apply(stream: Stream, text: str, updates: list[dict[str, Any]]) -> str | None:
    """Add what a call streams to its message, or the error Slack answers instead (nothing added then)."""
    if len(stream.text) + len(text) > MAX_MARKDOWN:
        return "msg_too_long"
    stream.text += text
    for update in updates:
        if update["type"] == "plan_update":
            stream.title = str(update["title"])
        else:
            stream.tasks[str(update["id"])] = str(update["status"])
    return None


class AgentAPI:
    """assistant.threads.* and chat.*Stream; the state they use is the server's."""

    streams: dict[tuple[str, str], Stream]
    stream_limit_s: float

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
        if params.get("task_display_mode") not in (None, *DISPLAY_MODES):
            return {"ok": False, "error": "invalid_arguments"}
        text, updates, error = _chunks(params)
        stream = Stream(channel, str(params["thread_ts"]), "")
        error = error or _apply(stream, text, updates)
        if error:
            return {"ok": False, "error": error}
        stream.ts = self._next_ts()
        self.streams[(channel, stream.ts)] = stream
        return {"ok": True, "channel": channel, "ts": stream.ts}

    def _open_stream(self, params: dict[str, Any]) -> Stream | dict[str, Any]:
        stream = self.streams.get((str(params.get("channel") or ""), str(params.get("ts") or "")))
        if stream is None:
            return {"ok": False, "error": "message_not_found"}
        if stream.open and time.monotonic() - stream.started > self.stream_limit_s:
            stream.open = False  # Slack ends a stream left open too long; the message keeps what it had
        if not stream.open:
            return {"ok": False, "error": "message_not_in_streaming_state"}
        return stream

    def _append_stream(self, params: dict[str, Any]) -> dict[str, Any]:
        stream = self._open_stream(params)
        if isinstance(stream, dict):
            return stream
        text, updates, error = _chunks(params)
        if not error and not text and not updates:
            error = "invalid_arguments"
        error = error or _apply(stream, text, updates)
        if error:
            return {"ok": False, "error": error}
        return {"ok": True, "channel": stream.channel, "ts": stream.ts}

    def _stop_stream(self, params: dict[str, Any]) -> dict[str, Any]:
        stream = self._open_stream(params)
        if isinstance(stream, dict):
            return stream
        text, updates, error = _chunks(params)
        error = error or ("invalid_blocks" if blocks_error(params.get("blocks")) else None)
        error = error or _apply(stream, text, updates)
        if error:
            return {"ok": False, "error": error}
        stream.blocks = list(maybe_json(params.get("blocks") or "[]"))
        stream.open = False
        return {"ok": True, "channel": stream.channel, "ts": stream.ts,
                "message": {"type": "message", "text": stream.text, "blocks": stream.blocks,
                            "thread_ts": stream.thread_ts, "ts": stream.ts}}
