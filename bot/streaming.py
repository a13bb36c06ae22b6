"""Slack's AI-app surface: what each workspace allows of it (per workspace, the placeholder-and-update path where
Slack refuses a method) and the status line that follows the pipeline's steps and is cleared on every path. The
stream itself is ``bot.plan``."""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from enum import Enum

from slack_bolt import SetStatus
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

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


class Feature(str, Enum):
    STATUS = "status"  # assistant.threads.setStatus
    STREAM = "stream"  # chat.startStream / appendStream / stopStream
    TABLE = "table"  # the native table block and the feedback buttons (context_actions)
    DATA = "data"  # the data_table and data_visualization blocks (2026)


def error_of(exc: Exception) -> str:
    return str(exc.response.get("error", "")) if isinstance(exc, SlackApiError) else ""


class Surfaces:
    """Which AI-app features each workspace (team id) has refused: decided once per workspace (in this process) and
    logged once, so later questions there go straight to the path that works."""

    def __init__(self, log_event: Callable[..., None]) -> None:
        self._log = log_event
        self._lock = threading.Lock()
        self._refused: dict[str, dict[Feature, str]] = {}
        self._lines: set[Status] = set()  # status lines shown and not yet cleared

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
        path = {Feature.DATA: "table block and PNG chart", Feature.TABLE: "mrkdwn rows and plain buttons"}.get(
            feature, "placeholder then update")
        self._log("surface", team=team, refused=feature.value, error=error, fallback=path)

    def showing(self, line: Status, shown: bool) -> None:
        with self._lock:
            (self._lines.add if shown else self._lines.discard)(line)

    def clear_all(self) -> int:
        """Clear every status line still shown (the bot is stopping); how many there were."""
        with self._lock:
            lines = list(self._lines)
        for line in lines:
            line.clear()
        return len(lines)

    def refused(self, team: str, feature: Feature, exc: Exception) -> bool:
        """True (and recorded) when ``exc`` is Slack refusing ``feature`` in this workspace."""
        if error_of(exc) in REFUSALS:
            self.refuse(team, feature, error_of(exc))
            return True
        return False


class Status:
    """The thread's status line (bolt's ``set_status``), each text sent once, in the order the pipeline reaches it,
    and cleared when the reply is done (Slack keeps a status until it is cleared)."""

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
            self.surfaces.showing(self, bool(text))
        except (SlackClientError, OSError) as exc:
            if self.surfaces.refused(self.team, Feature.STATUS, exc):
                return False
            log.warning("could not set the status in %s (%s)", self.set_status.channel_id, error_of(exc) or exc)
        return True

    def step(self, step: Step) -> None:
        """The pipeline's progress hook."""
        if self.surfaces.allows(self.team, Feature.STATUS):
            self.show(STATUS[step])

    def clear(self) -> None:
        """Clear the line (the answer, a decline or an error is in the thread, or the bot stops)."""
        if self.last:
            self.show("")


def status_for(client: WebClient, channel: str, thread_ts: str, surfaces: Surfaces, team: str) -> Status:
    return Status(SetStatus(client=client, channel_id=channel, thread_ts=thread_ts), surfaces, team)
