"""HTTP mode: POST /slack/events into Bolt (which verifies Slack's signature) and GET /healthz, on the stdlib."""
from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from slack_bolt import App, BoltRequest

log = logging.getLogger("kgqa.bot")
EVENTS_PATH = "/slack/events"
HEALTH_PATH = "/healthz"
MAX_BODY = 1 << 20  # Slack's payloads are a few kB; a message's text is at most 40k characters


class BotServer:
    """A threading HTTP server around a Bolt app. ``port=0`` takes a free port; ``url`` says which."""

    def __init__(self, app: App, health: Callable[[], dict[str, Any]], host: str, port: int,
                 path: str | None) -> None:
        """``path=None`` serves /healthz only (Socket Mode, where events come over the socket)."""
        self.app = app
        self.health = health
        self.path = path
        self._httpd = _Server((host, port), _handler_for(self))
        self._thread: threading.Thread | None = None

    @property
    def base(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def url(self) -> str:
        """Where Slack posts events (the bare base when this server only answers /healthz)."""
        return self.base + (self.path or "")

    def serve_forever(self) -> None:
        self._httpd.serve_forever(poll_interval=0.2)

    def start(self) -> BotServer:
        """Serve in a daemon thread (tests and the benchmark)."""
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="kgqa-http", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> BotServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # a burst of Slack events must not overflow the listen backlog (5 by default)


def _handler_for(server: BotServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "kgqa-bot"

        def do_POST(self) -> None:
            split = urlsplit(self.path)
            if server.path is None or split.path != server.path:
                self._send(404, b"not found", "text/plain; charset=utf-8")
                return
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                self._send(413, b"payload too large", "text/plain; charset=utf-8")
                return
            body = self.rfile.read(length).decode("utf-8", "replace")
            headers: dict[str, str | Sequence[str]] = {k.lower(): v for k, v in self.headers.items()}
            response = server.app.dispatch(BoltRequest(body=body, query=split.query, headers=headers))
            content_type = (response.headers.get("content-type") or ["text/plain; charset=utf-8"])[0]
            self._send(response.status, (response.body or "").encode(), content_type,
                       {k: v[0] for k, v in response.headers.items() if k.lower() not in ("content-type",
                                                                                           "content-length")})

        def do_GET(self) -> None:
            if urlsplit(self.path).path != HEALTH_PATH:
                self._send(404, b"not found", "text/plain; charset=utf-8")
                return
            try:
                report = server.health()
            except Exception as exc:  # a status page reports, it does not crash
                log.exception("health check failed")
                report = {"ok": False, "error": type(exc).__name__}
            self._send(200 if report.get("ok") else 503, json.dumps(report).encode(), "application/json")

        def _send(self, status: int, data: bytes, content_type: str, extra: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in (extra or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            log.debug("http %s", format % args)

    return Handler
