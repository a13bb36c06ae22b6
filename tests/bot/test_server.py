"""HTTP mode: signatures checked by Bolt (forged and stale requests refused), /healthz, nothing else served."""
from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path

from bot.server import BotServer
from pipeline.core import Bounds, Parts, Pipeline
from pipeline.generators.adapter import AdapterGenerator
from pipeline.kg.snapshot import SnapshotKG
from pipeline.settings import Settings
from pipeline.store.chroma import ChromaStore
from pipeline.store.connection import open_client
from standins.fakes import HashEncoder
from standins.harness import SECRET, Harness, new_ts
from standins.slack.api import SlackAPIServer
from standins.slack.signing import post_event, post_signed

MENTION = {"type": "app_mention", "user": "U1", "text": "<@UBOT> hi", "channel": "C1"}


def test_a_request_signed_with_another_secret_gets_401_and_nothing_runs(bot: Harness) -> None:
    status, _ = post_event(bot.server.url, "not-the-secret", {**MENTION, "ts": new_ts()})
    assert status == 401
    assert [c.method for c in bot.slack.calls] == ["auth.test"]


def test_a_stale_timestamp_gets_401_even_when_signed_right(bot: Harness) -> None:
    status, _ = post_event(bot.server.url, SECRET, {**MENTION, "ts": new_ts()}, timestamp=int(time.time()) - 600)
    assert status == 401
    assert [c.method for c in bot.slack.calls] == ["auth.test"]


def test_url_verification_is_answered(bot: Harness) -> None:
    body = json.dumps({"token": "x", "challenge": "ch4ll3nge", "type": "url_verification"}).encode()
    status, text = post_signed(bot.server.url, SECRET, body, "application/json")
    assert status == 200 and "ch4ll3nge" in text


def test_healthz_reports_store_generator_kg_and_workers(bot: Harness) -> None:
    status, report = bot.healthz()
    assert status == 200 and report["ok"] is True
    assert report["store"]["pairs"] == 80 and report["generator"] == "adapter" and report["kg"] == "snapshot"
    assert report["workers"]["workers"] == 2 and report["workers"]["queued"] == 0


def test_healthz_says_how_to_fix_an_empty_store(tmp_path: Path, slack: SlackAPIServer, settings: Settings,
                                                snapshot_kg: SnapshotKG) -> None:
    empty = ChromaStore(open_client(tmp_path / "empty"), HashEncoder(), "empty_store")
    bot = Harness.start(slack, Pipeline(Parts(empty, AdapterGenerator(0.45), snapshot_kg),
                                        Bounds(shots=3, row_cap=1000, max_question_chars=2000,
                                               workers=4)), settings)
    try:
        status, report = bot.healthz()
    finally:
        bot.close()
    assert status == 503 and report["ok"] is False and "kgqa index" in report["store"]["fix"]


def test_other_paths_are_not_found(bot: Harness) -> None:
    for url, data in ((bot.server.base + "/other", b"{}"), (bot.server.url, None)):
        try:
            urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=10).close()
            raise AssertionError(f"{url} answered")
        except urllib.error.HTTPError as err:
            err.close()
            assert err.code == 404


def test_a_health_only_server_takes_no_events(bot: Harness) -> None:
    """Socket Mode: events come over the socket; HTTP answers /healthz for container checks and nothing else."""
    with BotServer(bot.app, lambda: {"ok": True}, host="127.0.0.1", port=0, path=None) as health:
        status, _ = post_event(health.base + "/slack/events", SECRET, {**MENTION, "ts": new_ts()})
        with urllib.request.urlopen(health.base + "/healthz", timeout=10) as response:
            assert response.status == 200 and json.loads(response.read()) == {"ok": True}
    assert status == 404 and [c.method for c in bot.slack.calls] == ["auth.test"]
