"""One answer's stream: the pipeline's steps as a plan of tasks (each task's state as the pipeline reaches it), then
the answer's text and blocks, within Slack's stream limits. A stream is finished before Slack would end it (about
five minutes after it started) and a new one continues below it; text rolls over into a new message before the
cumulative cap; the answer lands once, in the last stream (or, where Slack refuses, replaces it)."""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackClientError
from slack_sdk.web.chat_stream import ChatStream

from bot.blocks import Block
from bot.native import Kit
from bot.streaming import Feature, Surfaces, error_of
from pipeline.records import Step

log = logging.getLogger("kgqa.bot")
STREAM_LIFETIME_S = 240.0  # a stream is finished this long after it started (Slack ends it after about five minutes)
MAX_STREAM_TEXT = 11_000  # markdown in one streamed message (Slack refuses more than 12,000 in all: msg_too_long)
APPEND = 3_000  # markdown sent per append
TASKS = {  # the plan's tasks, one per pipeline step, titled as the person reads them
    Step.RETRIEVE: "Find similar questions",
    Step.GENERATE: "Write the SPARQL",
    Step.INTENT: "Check the query against the question",
    Step.NAMES: "Check names against the ORKG",
    Step.RUN: "Run the query",
    Step.RETRY: "Try another query",
}
PLAN_TITLE = "Answering your question"
CONTINUED = "\n_Still working — I continue below._"
GONE = "message_not_in_streaming_state"
KIT_FEATURE = {Kit.DATA: Feature.DATA, Kit.TABLE: Feature.TABLE}
Tier = tuple[Kit, list[Block]]


class Plan:
    """The stream of one answer in a thread; ``step`` is the pipeline's progress hook, ``finish`` ends it."""

    def __init__(self, client: WebClient, channel: str, thread_ts: str, team: str, user: str,
                 surfaces: Surfaces) -> None:
        self.client, self.channel, self.thread_ts = client, channel, thread_ts
        self.team, self.user, self.surfaces = team, user, surfaces
        self._lock = threading.RLock()
        self._stream: ChatStream | None = None
        self._started = 0.0
        self._text = 0  # markdown characters the open stream holds
        self._timer: threading.Timer | None = None
        self._tasks: list[dict[str, str]] = []  # id, title, status, in the order the pipeline reached them
        self.failed = False  # a stream call failed: the answer goes out another way
        self.done = False  # finished: a step announced late (a stage past its deadline) opens no stream
        self.messages: list[str] = []  # the ts of every message streamed, oldest first

    def step(self, step: Step) -> None:
        """A pipeline step started: the task before it is done, this one is in progress."""
        with self._lock:
            if not self.done:
                self._send(chunks=self._advance(step.value, TASKS[step]))

    def finish(self, lead: str, tiers: Sequence[Tier], ok: bool) -> tuple[str | None, Kit | None]:
        """The last task closed (complete, or error when ``ok`` is false), ``lead`` streamed whole, and the stream
        stopped with the richest tier of blocks the workspace takes. Returns the last message's ts and the kit it
        ended with, or None for the kit when the answer still has to go out another way (nothing posted twice)."""
        with self._lock:
            self.done = True
            if self._timer is not None:
                self._timer.cancel()
            closing = self._close("complete" if ok else "error")
            if closing:
                self._send(chunks=closing)
            for start in range(0, len(lead), APPEND):
                self._send(markdown=lead[start:start + APPEND])
            kit = self._stop(tiers)
            return (self.messages[-1] if self.messages else None), kit

    # -- the plan's state -------------------------------------------------------------------------------------

    def _advance(self, step: str, title: str) -> list[dict[str, str]]:
        changed = self._close("complete")
        task = {"type": "task_update", "id": f"{step}-{len(self._tasks) + 1}", "title": title, "status": "in_progress"}
        self._tasks.append(task)
        return changed + [dict(task)]

    def _close(self, status: str) -> list[dict[str, str]]:
        if not self._tasks or self._tasks[-1]["status"] != "in_progress":
            return []
        self._tasks[-1]["status"] = status
        return [dict(self._tasks[-1])]

    def _whole_plan(self) -> list[dict[str, Any]]:
        return [{"type": "plan_update", "title": PLAN_TITLE}] + [dict(t) for t in self._tasks]

    # -- the stream -------------------------------------------------------------------------------------------

    def _open(self) -> tuple[ChatStream, bool]:
        """The open stream, or a new one when none is open or it is near Slack's limit; true when new."""
        if self._stream is not None and time.monotonic() - self._started >= STREAM_LIFETIME_S:
            self._end(CONTINUED)
        if self._stream is not None:
            return self._stream, False
        stream = self._stream = self.client.chat_stream(
            channel=self.channel, thread_ts=self.thread_ts, buffer_size=1, task_display_mode="plan",
            recipient_team_id=self.team or None, recipient_user_id=self.user or None)
        self._started, self._text = time.monotonic(), 0
        self._timer = threading.Timer(STREAM_LIFETIME_S, self._expire, args=(stream,))
        self._timer.daemon = True
        self._timer.start()
        return stream, True

    def _expire(self, stream: ChatStream) -> None:
        """On a timer: a stream near Slack's limit is finished while it still can be (a slow step would keep it
        open past it); the next call opens a new one below."""
        with self._lock:
            if self._stream is stream:
                self._end(CONTINUED)

    def _end(self, note: str) -> None:
        stream, self._stream = self._stream, None
        if self._timer is not None:
            self._timer.cancel()
        if stream is None or not stream.ts:
            return
        try:
            stream.stop(markdown_text=note)
        except (SlackClientError, OSError) as exc:  # Slack may have ended it already: it keeps what it showed
            log.info("a stream in %s could not be finished (%s)", self.channel, error_of(exc) or exc)

    def _failed(self, exc: Exception, doing: str) -> None:
        if not self.surfaces.refused(self.team, Feature.STREAM, exc):
            log.warning("could not %s in %s (%s)", doing, self.channel, error_of(exc) or exc)
        self.failed = True

    def _send(self, *, chunks: list[dict[str, str]] | None = None, markdown: str = "") -> None:
        """Stream ``chunks`` and ``markdown``; a new stream starts with the whole plan so far. Once more on a new
        stream when Slack has ended the open one."""
        if self.failed or not self.surfaces.allows(self.team, Feature.STREAM):
            return
        if markdown and self._stream is not None and self._text + len(markdown) > MAX_STREAM_TEXT:
            self._end("")  # the rest goes into a new message below this one, before Slack's cap
        for attempt in (1, 2):
            stream, new = self._open()
            extra: list[dict[str, Any]] = self._whole_plan() if new and self._tasks else list(chunks or [])
            try:
                stream.append(markdown_text=markdown or None, chunks=extra or None)
            except (SlackClientError, OSError) as exc:
                if error_of(exc) == GONE and attempt == 1:
                    self._stream = None
                    continue
                self._failed(exc, "stream")
                return
            self._text += len(markdown)
            if stream.ts and stream.ts not in self.messages:
                self.messages.append(stream.ts)
            return

    def _stop(self, tiers: Sequence[Tier]) -> Kit | None:
        """Stop the stream with the richest tier the workspace takes (a refused tier is recorded and skipped)."""
        for kit, blocks in tiers:
            feature = KIT_FEATURE.get(kit)
            if self.failed or not self.surfaces.allows(self.team, Feature.STREAM):
                return None
            if feature is not None and not self.surfaces.allows(self.team, feature):
                continue
            stream, _ = self._open()
            try:
                stream.stop(blocks=blocks)
            except (SlackClientError, OSError) as exc:
                if error_of(exc) == "invalid_blocks" and feature is not None:
                    self.surfaces.refuse(self.team, feature, "invalid_blocks")
                    continue
                if error_of(exc) != GONE:
                    self._failed(exc, "finish the stream")
                return None
            finally:
                if stream.ts and stream.ts not in self.messages:
                    self.messages.append(stream.ts)
            self._stream = None
            if self._timer is not None:
                self._timer.cancel()
            return kit
        return None
