"""Slack's AI-app surface: a status line that follows the pipeline's steps, the answer streamed (its summary first,
then the table, the SPARQL, the provenance and feedback buttons), and, per workspace, the placeholder-and-update path
where Slack refuses one of these methods."""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from enum import Enum
from typing import Literal

from slack_bolt import SayStream, SetStatus
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from bot.blocks import Block, clip
from pipeline.records import Step

log = logging.getLogger("kgqa.bot")
# What a workspace, plan or token answers when it does not allow a method or a block: the feature is off for that
# workspace from then on. Anything else (rate limits after the client's retries, 5xx, a dropped link) is one failure.
REFUSALS = frozenset({"not_allowed_token_type", "missing_scope", "feature_not_enabled", "invalid_blocks",
                      "unknown_method", "not_allowed", "team_access_not_granted", "access_denied"})
STATUS = {  # Slack shows it after the app's name: "kgqa is finding similar questions…"
    Step.RETRIEVE: "is finding similar questions…",
    Step.GENERATE: "is writing the SPARQL…",
    Step.INTENT: "is checking the query against your question…",
    Step.NAMES: "is checking names against the ORKG…",
    Step.RUN: "is running the query…",
    Step.RETRY: "is trying another query…",
}
READING = "is reading your question…"
WAITING = "is waiting its turn"  # then ": N questions ahead…"
MAX_MARKDOWN = 12_000  # chat.*Stream markdown_text
Used = Literal["native", "classic", "failed"]


class Feature(str, Enum):
    STATUS = "status"  # assistant.threads.setStatus
    STREAM = "stream"  # chat.startStream / appendStream / stopStream
    TABLE = "table"  # the native table block and the feedback buttons (context_actions)


def error_of(exc: Exception) -> str:
    return str(exc.response.get("error", "")) if isinstance(exc, SlackApiError) else ""


class Surfaces:
    """Which AI-app features each workspace (team id) has refused: decided once per workspace (in this process) and
    logged once, so later questions there go straight to the path that works."""

    def __init__(self, log_event: Callable[..., None]) -> None:
        self._log = log_event
        self._lock = threading.Lock()
        self._refused: dict[str, dict[Feature, str]] = {}

    def allows(self, team: str, feature: Feature) -> bool:
        with self._lock:
            return feature not in self._refused.get(team, {})

    def agent(self, team: str) -> bool:
        """Status and streaming both allowed: the AI-app path; else the placeholder-and-update path."""
        return self.allows(team, Feature.STATUS) and self.allows(team, Feature.STREAM)

    def refuse(self, team: str, feature: Feature, error: str) -> None:
        with self._lock:
            known = self._refused.setdefault(team, {})
            if feature in known:
                return
            known[feature] = error
        path = "mrkdwn rows and plain buttons" if feature is Feature.TABLE else "placeholder then update"
        self._log("surface", team=team, refused=feature.value, error=error, fallback=path)

    def refused(self, team: str, feature: Feature, exc: Exception) -> bool:
        """True (and recorded) when ``exc`` is Slack refusing ``feature`` in this workspace."""
        if error_of(exc) in REFUSALS:
            self.refuse(team, feature, error_of(exc))
            return True
        return False


class Status:
    """The thread's status line (bolt's ``set_status``), each text sent once, in the order the pipeline reaches it."""

    def __init__(self, set_status: SetStatus, surfaces: Surfaces, team: str) -> None:
        self.set_status = set_status
        self.surfaces = surfaces
        self.team = team
        self.last = ""

    def show(self, text: str) -> bool:
        """False when the workspace refuses status lines (recorded: later questions there use a placeholder)."""
        if text == self.last:
            return True
        try:
            self.set_status(status=text)
            self.last = text
        except (SlackClientError, OSError) as exc:
            if self.surfaces.refused(self.team, Feature.STATUS, exc):
                return False
            log.warning("could not set the status in %s (%s)", self.set_status.channel_id, error_of(exc) or exc)
        return True

    def step(self, step: Step) -> None:
        """The pipeline's progress hook."""
        if self.surfaces.allows(self.team, Feature.STATUS):
            self.show(STATUS[step])


def status_for(client: WebClient, channel: str, thread_ts: str, surfaces: Surfaces, team: str) -> Status:
    return Status(SetStatus(client=client, channel_id=channel, thread_ts=thread_ts), surfaces, team)


def stream(say_stream: SayStream, surfaces: Surfaces, team: str, lead: str, native: list[Block],
           classic: list[Block]) -> tuple[str | None, Used]:
    """Stream ``lead`` (the summary), then stop with the ``native`` blocks (``classic`` ones where the workspace
    refuses tables). Returns the streamed message's ts (None: no stream started) and which blocks it ended with, or
    "failed" when the answer still has to go out the classic way. Nothing is posted twice: once a stream exists, a
    fallback replaces it (chat.update) instead of posting beside it."""
    streamer = say_stream(buffer_size=1)  # each append goes out at once: the summary is seen first
    try:
        streamer.append(markdown_text=clip(lead, MAX_MARKDOWN))
    except (SlackClientError, OSError) as exc:
        if not surfaces.refused(team, Feature.STREAM, exc):
            log.warning("could not start a stream (%s); posting instead", error_of(exc) or exc)
        return streamer.ts, "failed"
    use_native = surfaces.allows(team, Feature.TABLE)
    try:
        streamer.stop(blocks=native if use_native else classic)
        return streamer.ts, "native" if use_native else "classic"
    except (SlackClientError, OSError) as exc:
        failure: Exception = exc
    if use_native and error_of(failure) == "invalid_blocks":
        surfaces.refuse(team, Feature.TABLE, "invalid_blocks")
        try:
            streamer.stop(blocks=classic)
            return streamer.ts, "classic"
        except (SlackClientError, OSError) as again:
            failure = again
    if not surfaces.refused(team, Feature.STREAM, failure):
        log.warning("could not finish the stream (%s); replacing it", error_of(failure) or failure)
    return streamer.ts, "failed"
