"""The real bot over HTTP on a free loopback port, against the Slack Web API stand-in; Slack's side of the wire.

Used by the bot tests and by scripts/bench_bot.py. Everything the bot receives is signed with Slack's real scheme.
"""
from __future__ import annotations

import itertools
import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.app import create_app
from bot.health import TIMEOUT_S, TTL_S, Health
from bot.limits import Limits
from bot.render import PROVENANCE
from bot.server import EVENTS_PATH, BotServer
from pipeline.core import Pipeline
from pipeline.records import Example
from pipeline.sciqa import SciQA
from pipeline.settings import Settings
from pipeline.state.admission.pool import WorkerPool
from pipeline.state.link import build_link
from pipeline.store.chroma import ChromaStore
from pipeline.store.connection import open_client
from standins.fakes import HashEncoder
from standins.slack.api import Call, SlackAPIServer
from standins.slack.signing import post_command, post_event, post_interaction

TOKEN = "xoxb-1111-2222-SeCrEtBoTtOkEn"
SECRET = "8f1b2c3d4e5f60718293a4b5c6d7e8f9"
MAINTAINER = "UMAINT"
STORY_CLOZE = "Which model has achieved the highest Accuracy score on the Story Cloze Test benchmark dataset?"
TEMPLATES = ("T01", "T02", "T04", "T05")
PER_TEMPLATE = 20
_ts = itertools.count(1)


def train_slice(sciqa: SciQA) -> list[Example]:
    """A slice of SciQA train: enough of the templates behind the test questions, no dev/test question."""
    picked: list[Example] = []
    for template in TEMPLATES:
        records = [r for r in sciqa.split("train") if r.template_id == template][:PER_TEMPLATE]
        picked += [Example(r.id, r.question, r.sparql, r.template_id, "sciqa") for r in records]
    return picked


def hash_store(path: Path, examples: list[Example], collection: str = "bot_examples") -> ChromaStore:
    """A real Chroma store on disk, embedded with hashed bags of words (no model to load)."""
    store = ChromaStore(open_client(path), HashEncoder(), collection)
    store.add(examples)
    return store


def new_ts() -> str:
    return f"{int(time.time())}.{next(_ts):06d}"


def blocks_of(call: Call) -> list[dict[str, Any]]:
    raw = call.params.get("blocks")
    if raw is None:
        return []
    return json.loads(raw) if isinstance(raw, (str, bytes)) else list(raw)


def streamed_text(call: Call) -> str:
    """The markdown a chat.*Stream call adds to its message (``markdown_text`` and markdown_text chunks)."""
    chunks = call.params.get("chunks") or []
    chunks = json.loads(chunks) if isinstance(chunks, (str, bytes)) else chunks
    return str(call.params.get("markdown_text") or "") + "".join(
        str(c.get("text", "")) for c in chunks if c.get("type") == "markdown_text")


def shown(call: Call) -> str:
    """Everything a person would read in a call: its text, streamed markdown and blocks, as one string."""
    return str(call.params.get("text", "")) + streamed_text(call) + "\n" + json.dumps(blocks_of(call),
                                                                                     ensure_ascii=False)


def is_answer(call: Call) -> bool:
    """A final reply Slack accepted (an answer or a decline): an update, post or stream's end whose blocks end with
    its provenance."""
    return call.status == 200 and call.method in ("chat.update", "chat.postMessage", "chat.stopStream") and any(
        b.get("block_id") == PROVENANCE for b in blocks_of(call)) and call.ok


def button_value(call: Call, action_id: str) -> str:
    for block in blocks_of(call):
        for element in block.get("elements", []):
            if element.get("action_id") == action_id:
                return str(element["value"])
    raise AssertionError(f"no {action_id} button in {call.method}")


def click_payload(action_id: str, value: str, *, user: str, channel: str, message_ts: str,
                  response_url: str) -> dict[str, Any]:
    """A ``block_actions`` payload as Slack sends it when ``user`` clicks a button."""
    return {
        "type": "block_actions", "user": {"id": user, "username": user.lower(), "team_id": "T1"},
        "api_app_id": "A1", "token": "legacy", "trigger_id": "1.2.3", "team": {"id": "T1", "domain": "kgqa-test"},
        "container": {"type": "message", "message_ts": message_ts, "channel_id": channel, "is_ephemeral": False},
        "channel": {"id": channel, "name": "general"}, "message": {"type": "message", "ts": message_ts},
        "response_url": response_url,
        "actions": [{"action_id": action_id, "block_id": "b", "type": "button", "value": value,
                     "action_ts": new_ts()}],
    }


@dataclass
class Harness:
    """A running bot and ways to talk to it as Slack does."""

    slack: SlackAPIServer
    pipeline: Pipeline
    settings: Settings
    pool: WorkerPool
    limits: Limits
    server: BotServer = field(init=False)
    closed: bool = False

    def __post_init__(self) -> None:
        app = create_app(self.pipeline, self.settings, pool=self.pool, limits=self.limits)
        self.app = app
        self.health = Health(self.pipeline, self.pool, build_link(self.settings), ttl=TTL_S, timeout=TIMEOUT_S)
        self.server = BotServer(app, self.health, host="127.0.0.1", port=0, path=EVENTS_PATH).start()

    @classmethod
    def start(cls, slack: SlackAPIServer, pipeline: Pipeline, settings: Settings,
              limits: Limits | None = None) -> Harness:
        limits = limits or Limits.from_settings(settings)
        settings = settings.with_(slack_bot_token=TOKEN, slack_signing_secret=SECRET, slack_api_url=slack.url)
        return cls(slack, pipeline, settings, WorkerPool(settings.workers, limits.queue_size), limits)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.server.close()
        self.pool.wait_idle(timeout=30)
        self.pool.close()
        self.app.listener_runner.listener_executor.shutdown(wait=True)

    # -- Slack's side -----------------------------------------------------------------------------------------

    def event(self, event: dict[str, Any], **kwargs: Any) -> int:
        status_code, _ = post_event(self.server.url, SECRET, event, **kwargs)
        return status_code

    def mention(self, text: str, *, channel: str = "C1", user: str = "U1", ts: str | None = None,
                thread_ts: str | None = None, **kwargs: Any) -> str:
        """A signed app_mention; returns its ts (the thread the answer must go to unless ``thread_ts``)."""
        ts = ts or new_ts()
        event = {"type": "app_mention", "user": user, "text": f"<@UBOT> {text}", "ts": ts, "channel": channel,
                 "event_ts": ts, "team": "T1"}
        if thread_ts:
            event["thread_ts"] = thread_ts
        assert self.event(event, **kwargs) == 200
        return ts

    def dm(self, text: str, *, channel: str = "D1", user: str = "U1", ts: str | None = None, **kwargs: Any) -> str:
        ts = ts or new_ts()
        event = {"type": "message", "channel": channel, "channel_type": "im", "user": user, "text": text,
                 "ts": ts, "event_ts": ts, "team": "T1"}
        assert self.event(event, **kwargs) == 200
        return ts

    def command(self, command: str, text: str, *, user: str = "U1", reply: str = "cmd") -> tuple[int, str]:
        return post_command(self.server.url, SECRET, command, text, user_id=user,
                            response_url=self.slack.response_url(reply))

    def click(self, action_id: str, value: str, *, user: str = "U1", channel: str = "C1",
              message_ts: str = "1700000000.000100", reply: str = "click") -> int:
        payload = click_payload(action_id, value, user=user, channel=channel, message_ts=message_ts,
                                response_url=self.slack.response_url(reply))
        status_code, _ = post_interaction(self.server.url, SECRET, payload)
        return status_code

    def healthz(self) -> tuple[int, dict[str, Any]]:
        try:
            with urllib.request.urlopen(self.server.base + "/healthz", timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as err:
            with err:
                return err.code, json.loads(err.read())

    # -- what came back -------------------------------------------------------------------------------------

    def answers(self, count: int = 1, timeout: float = 20) -> list[Call]:
        return self.slack.wait_for(is_answer, count=count, timeout=timeout)

    def replies(self, path: str, count: int = 1, timeout: float = 20) -> list[Call]:
        """Posts to the response_url named ``path`` (slash commands and button clicks)."""
        return self.slack.wait_for(lambda c: c.method == "response_url" and c.path.endswith("/" + path),
                                   count=count, timeout=timeout)
