"""The holding proxy: forwards while open, keeps requests unanswered while held, answers nothing when silent."""
from __future__ import annotations

import urllib.request
from http.server import BaseHTTPRequestHandler

import pytest

from standins.loopback import LoopbackServer
from standins.tcp import HoldingProxy


class _Hello(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "5")
        self.end_headers()
        self.wfile.write(b"hello")

    def log_message(self, *args: object) -> None:
        pass


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=0.5) as resp:
        return bytes(resp.read())


def test_forwards_holds_and_releases() -> None:
    with LoopbackServer(_Hello, "hello") as server:
        host, port = server.base.removeprefix("http://").split(":")
        with HoldingProxy((host, int(port))) as proxy:
            assert _get(proxy.url) == b"hello"
            proxy.hold()
            with pytest.raises(TimeoutError):
                _get(proxy.url)
            proxy.release()
            assert _get(proxy.url) == b"hello"


def test_a_silent_proxy_accepts_and_never_answers() -> None:
    with HoldingProxy(None) as silent:
        with pytest.raises(TimeoutError):
            _get(silent.url)
        assert silent.connections == 1
