"""The Web API stand-in on a free port, and a real slack_sdk client pointed at it."""
from __future__ import annotations

from collections.abc import Iterator

import pytest
from slack_sdk import WebClient

from standins.slack.api import SlackAPIServer

TOKEN = "xoxb-test"


@pytest.fixture
def srv() -> Iterator[SlackAPIServer]:
    with SlackAPIServer() as server:
        yield server


@pytest.fixture
def client(srv: SlackAPIServer) -> WebClient:
    return WebClient(token=TOKEN, base_url=srv.url)
