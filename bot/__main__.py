"""``python -m bot``: Socket Mode when SLACK_APP_TOKEN is set, else HTTP on KGQA_HTTP_PORT (/slack/events, /healthz)."""
from __future__ import annotations

import logging
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

from slack_bolt import App
from slack_bolt.error import BoltError
from slack_sdk.errors import SlackApiError

from bot import logs
from bot.app import create_app
from bot.health import TIMEOUT_S, TTL_S, Health
from bot.limits import Limits
from bot.server import EVENTS_PATH, BotServer
from pipeline.errors import ConfigError, KgqaError
from pipeline.factory import build_pipeline, warm_up
from pipeline.settings import Settings, revealed, unset_in_environment
from pipeline.state.admission.pool import WorkerPool
from pipeline.state.link import build_link

log = logging.getLogger("kgqa.bot")


def main() -> int:
    try:
        settings = Settings.from_env()
    except ConfigError as exc:  # a bad variable: one line naming it
        logs.configure([])
        log.error("cannot start: %s", exc)
        return 2
    logs.configure(settings.secrets())
    if settings.slack_bot_token is None:
        log.error("set SLACK_BOT_TOKEN (xoxb-...) — see README 'Running the Slack bot'")
        return 2
    if settings.slack_app_token is None and settings.slack_signing_secret is None:
        log.error("set SLACK_APP_TOKEN (xapp-..., Socket Mode) or SLACK_SIGNING_SECRET (HTTP mode)")
        return 2
    try:
        pipeline = build_pipeline(settings)
    except KgqaError as exc:
        log.error("cannot start: %s", exc)
        return 2
    # Settings holds the token now; Bolt would read the variable again and warn that our client (with its retry
    # handlers) wins over it.
    unset_in_environment("slack_bot_token")
    limits = Limits.from_settings(settings)
    pool = WorkerPool(settings.workers, limits.queue_size)
    on_close: list[Callable[[], object]] = []
    try:
        app = create_app(pipeline, settings, pool=pool, limits=limits, on_close=on_close)  # checks the token
    except (BoltError, SlackApiError) as exc:
        log.error("Slack did not accept the bot token: %s", exc)
        pool.close()
        pipeline.close()
        return 2
    except OSError as exc:  # URLError included: no network, a proxy in the way, a wrong SLACK_API_URL
        log.error("cannot reach Slack's Web API at %s to check the token: %s",
                  settings.slack_api_url or "https://slack.com/api/", getattr(exc, "reason", exc))
        pool.close()
        pipeline.close()
        return 2
    signal.signal(signal.SIGTERM, _interrupt)  # docker stop / systemd: finish the questions in hand, then exit
    pool.submit(lambda: log.info("warmed up (s): %s", warm_up(pipeline)))
    log.info("kgqa bot: generator %s, kg %s, %d workers", pipeline.generator.name, pipeline.kg.name, pool.workers)
    host = settings.http_host
    try:
        # In Socket Mode events arrive over the socket; the server then only answers /healthz (container checks).
        health = Health(pipeline, pool, build_link(settings), ttl=TTL_S, timeout=TIMEOUT_S)
        server = BotServer(app, health, host=host, port=settings.http_port,
                           path=None if settings.slack_app_token is not None else EVENTS_PATH)
        if settings.slack_app_token is not None:
            server.start()
            log.info("connecting to Slack in Socket Mode; health at %s/healthz", server.base)
            return _socket_mode(app, settings)
        else:
            log.info("listening on %s (events) and %s/healthz", server.url, server.base)
            server.serve_forever()
    except KeyboardInterrupt:
        log.info("stopping: finishing the questions in hand")
    except OSError as exc:  # the port is taken, or not ours to bind
        log.error("cannot serve HTTP on %s:%s: %s", host, settings.http_port, exc)
        return 2
    finally:
        pool.wait_idle(timeout=60)
        for close in on_close:  # questions still in hand: their status lines are cleared, not left for good
            close()
        pool.close()
        pipeline.close()
    return 0


def _socket_mode(app: App, settings: Settings) -> int:
    """Open Slack's Socket Mode link and serve events over it until interrupted; 2 when the link cannot be opened."""
    from slack_bolt.adapter.socket_mode import SocketModeHandler

    # slack_bolt leaves connect/close untyped
    handler: Any = SocketModeHandler(app, revealed(settings.slack_app_token))
    try:
        handler.connect()
    except SlackApiError as exc:
        log.error("Slack would not open a Socket Mode connection (%s): check SLACK_APP_TOKEN (an xapp- token with "
                  "the connections:write scope) and that Socket Mode is on for the app", exc.response.get("error"))
        return 2
    except OSError as exc:  # URLError included
        log.error("cannot reach Slack's Web API at %s to open a Socket Mode connection: %s",
                  settings.slack_api_url or "https://slack.com/api/", getattr(exc, "reason", exc))
        return 2
    log.info("connected to Slack in Socket Mode")
    try:
        threading.Event().wait()  # events are served by the handler's threads; SIGTERM/Ctrl-C ends the wait
    finally:
        handler.close()
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
