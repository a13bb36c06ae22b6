"""Socket Mode end to end: `python -m bot` with an app token opens Slack's link (a WebSocket stand-in on loopback,
handed out by the Web API stand-in's apps.connections.open), acknowledges every envelope, answers in the thread,
answers a redelivered envelope once, sends slash-command responses to their response_url, and reconnects when
Slack asks it to; a link Slack will not open ends the bot with the reason, not a traceback."""
from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from standins.harness import STORY_CLOZE, TOKEN, is_answer, shown
from standins.processes import free_port
from standins.replicas import ROOT, Replica, mention, proc_env, run_proc, settle
from standins.slack.api import Call, SlackAPIServer
from standins.slack.signing import command_form, event_envelope
from standins.slack.socket_mode import SocketModeServer

APP_TOKEN = "xapp-1-A0KGQA-1111-SeCrEtApPtOkEn"


@pytest.fixture
def linked(tmp_path: Path, sciqa_dir: Path) -> Iterator[tuple[SlackAPIServer, SocketModeServer, Replica]]:
    env = proc_env(tmp_path / "home", sciqa_dir, KGQA_KG="snapshot", KGQA_WORKERS="2")
    run_proc(env, "index")
    with SlackAPIServer() as slack, SocketModeServer() as link:
        slack.socket_mode_url = link.url
        bot = Replica(env, slack.url, tmp_path / "bot.log", SLACK_APP_TOKEN=APP_TOKEN)
        try:
            link.wait_connected()
            yield slack, link, bot
        finally:
            if bot.proc.poll() is None:
                bot.kill()


def answers_in(slack: SlackAPIServer, channel: str) -> list[Call]:
    return [c for c in slack.calls if is_answer(c) and c.params.get("channel") == channel]


def test_a_mention_over_the_link_is_acknowledged_and_answered_once(
        linked: tuple[SlackAPIServer, SocketModeServer, Replica]) -> None:
    slack, link, bot = linked
    event = mention(STORY_CLOZE, "CSOCK1")
    first = link.send("events_api", event_envelope(event, event_id="EvSock0001"))
    assert link.wait_ack(first) == {"envelope_id": first}
    [reply] = slack.wait_for(lambda c: is_answer(c) and c.params.get("channel") == "CSOCK1", timeout=60)
    assert "GPT-3 175B (Few-Shot)" in shown(reply)
    assert any(c.method == "chat.postMessage" and c.params.get("thread_ts") == event["ts"] for c in slack.calls)
    again = link.send("events_api", event_envelope(event, event_id="EvSock0001"), retry_attempt=1,
                      retry_reason="timeout")
    assert link.wait_ack(again) == {"envelope_id": again}  # acknowledged, so Slack stops retrying
    settle([bot])
    assert len(answers_in(slack, "CSOCK1")) == 1
    assert {c.method for c in slack.calls} >= {"apps.connections.open", "auth.test"}
    assert APP_TOKEN not in bot.log.read_text()


def test_a_slash_command_over_the_link_answers_at_its_response_url(
        linked: tuple[SlackAPIServer, SocketModeServer, Replica]) -> None:
    slack, link, _ = linked
    sent = link.send("slash_commands", command_form("/sparql", "DELETE WHERE { ?s ?p ?o }",
                                                    response_url=slack.response_url("sock")))
    assert link.wait_ack(sent) == {"envelope_id": sent}
    [reply] = slack.wait_for(lambda c: c.method == "response_url" and c.path.endswith("/sock"), timeout=30)
    assert "refused" in reply.params["text"] and "DELETE WHERE" in str(reply.params["blocks"])
    usage = link.send("slash_commands", command_form("/sparql", "", response_url=slack.response_url("usage")))
    assert link.wait_ack(usage)["payload"]["text"].startswith("Usage: `/sparql")  # answered in the ack itself


def test_the_bot_reconnects_when_slack_refreshes_the_link(
        linked: tuple[SlackAPIServer, SocketModeServer, Replica]) -> None:
    slack, link, bot = linked
    link.disconnect("refresh_requested")
    link.wait_connections(2)
    event = mention(STORY_CLOZE, "CSOCK2")
    link.wait_ack(link.send("events_api", event_envelope(event)))
    slack.wait_for(lambda c: is_answer(c) and c.params.get("channel") == "CSOCK2", timeout=60)
    assert [c.method for c in slack.calls].count("apps.connections.open") >= 2
    assert bot.stop() == 0  # SIGTERM: the link is closed and the process ends cleanly


def test_a_link_slack_will_not_open_ends_the_bot_with_the_reason(tmp_path: Path, sciqa_dir: Path) -> None:
    env = proc_env(tmp_path / "home", sciqa_dir, KGQA_KG="snapshot", SLACK_BOT_TOKEN=TOKEN, SLACK_APP_TOKEN=APP_TOKEN,
                   KGQA_HTTP_PORT=str(free_port()), KGQA_HTTP_HOST="127.0.0.1")
    with SlackAPIServer() as slack:  # no socket_mode_url: Slack answers "socket_mode_not_enabled"
        done = subprocess.run([sys.executable, "-m", "standins.proc", "bot"], env={**env, "SLACK_API_URL": slack.url},
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Slack would not open a Socket Mode connection (socket_mode_not_enabled)" in done.stderr
    assert "Traceback" not in done.stderr and APP_TOKEN not in done.stderr
