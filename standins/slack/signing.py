"""Send requests to a Slack app the way Slack does: signed with the signing secret (v0 HMAC-SHA256)."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import time
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlencode

TEAM_ID = "T1"
TEAM_DOMAIN = "kgqa-test"
APP_ID = "A1"
BOT_USER_ID = "UBOT"
# The legacy verification token Slack still puts in payloads; Bolt ignores it.
VERIFICATION_TOKEN = "legacy-verification-token"

_event_ids = itertools.count(1)


def sign(secret: str, body: bytes, timestamp: int | None = None) -> dict[str, str]:
    """The ``X-Slack-Request-Timestamp`` and ``X-Slack-Signature`` headers Slack would send with ``body``."""
    ts = int(time.time()) if timestamp is None else timestamp
    base = f"v0:{ts}:".encode() + body
    digest = hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": str(ts), "X-Slack-Signature": f"v0={digest}"}


def post_signed(
    url: str,
    secret: str,
    body: bytes,
    content_type: str,
    *,
    headers: dict[str, str] | None = None,
    timestamp: int | None = None,
    timeout: float = 10,
) -> tuple[int, str]:
    """POST ``body`` signed with ``secret``; return (HTTP status, response text), also for error statuses."""
    all_headers = {"Content-Type": content_type, "User-Agent": "Slackbot 1.0 (+https://api.slack.com/robots)"}
    all_headers.update(sign(secret, body, timestamp))
    all_headers.update(headers or {})
    request = urllib.request.Request(url, data=body, headers=all_headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as err:
        with err:
            return err.code, err.read().decode("utf-8")


def event_envelope(event: dict[str, Any], *, event_id: str | None = None, team_id: str = TEAM_ID) -> dict[str, Any]:
    """The Events API ``event_callback`` envelope Slack wraps around ``event``."""
    now = int(time.time())
    return {
        "token": VERIFICATION_TOKEN,
        "team_id": team_id,
        "api_app_id": APP_ID,
        "event": event,
        "type": "event_callback",
        "event_id": event_id or f"Ev{next(_event_ids):010d}",
        "event_time": now,
        "authorizations": [
            {
                "enterprise_id": None,
                "team_id": team_id,
                "user_id": BOT_USER_ID,
                "is_bot": True,
                "is_enterprise_install": False,
            }
        ],
        "is_ext_shared_channel": False,
        "event_context": f"4-{event.get('type', 'event')}-{team_id}-{event.get('channel', '')}",
    }


def post_event(
    app_url: str,
    secret: str,
    event: dict[str, Any],
    *,
    retry_num: int | None = None,
    retry_reason: str = "http_timeout",
    event_id: str | None = None,
    timestamp: int | None = None,
    timeout: float = 10,
) -> tuple[int, str]:
    """Deliver ``event`` as an Events API callback, JSON and signed; a ``retry_num`` marks a Slack retry."""
    body = json.dumps(event_envelope(event, event_id=event_id)).encode()
    headers: dict[str, str] = {}
    if retry_num is not None:
        headers = {"X-Slack-Retry-Num": str(retry_num), "X-Slack-Retry-Reason": retry_reason}
    return post_signed(
        app_url, secret, body, "application/json", headers=headers, timestamp=timestamp, timeout=timeout
    )


def command_form(command: str, text: str, *, user_id: str = "U1", user_name: str = "alice", channel_id: str = "C1",
                 channel_name: str = "general", response_url: str = "https://hooks.slack.com/commands/T1/1/x",
                 trigger_id: str = "1.2.3", team_id: str = TEAM_ID) -> dict[str, str]:
    """The fields Slack sends for a slash command (form-encoded over HTTP, the payload of a Socket Mode envelope)."""
    return {
        "token": VERIFICATION_TOKEN,
        "team_id": team_id,
        "team_domain": TEAM_DOMAIN,
        "channel_id": channel_id,
        "channel_name": channel_name,
        "user_id": user_id,
        "user_name": user_name,
        "command": command,
        "text": text,
        "api_app_id": APP_ID,
        "is_enterprise_install": "false",
        "response_url": response_url,
        "trigger_id": trigger_id,
    }


def post_command(app_url: str, secret: str, command: str, text: str, *, timestamp: int | None = None,
                 timeout: float = 10, **fields: str) -> tuple[int, str]:
    """Invoke a slash command, form-encoded like Slack does (give ``response_url=srv.response_url(...)``); ``fields``
    as ``command_form``'s."""
    body = urlencode(command_form(command, text, **fields)).encode()
    return post_signed(
        app_url, secret, body, "application/x-www-form-urlencoded", timestamp=timestamp, timeout=timeout
    )


def post_interaction(
    app_url: str,
    secret: str,
    payload: dict[str, Any],
    *,
    timestamp: int | None = None,
    timeout: float = 10,
) -> tuple[int, str]:
    """Deliver an interactivity payload (e.g. ``block_actions``) as ``payload=<json>``, form-encoded and signed."""
    body = urlencode({"payload": json.dumps(payload)}).encode()
    return post_signed(
        app_url, secret, body, "application/x-www-form-urlencoded", timestamp=timestamp, timeout=timeout
    )
