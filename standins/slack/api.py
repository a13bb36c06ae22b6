"""A local HTTP server playing Slack's Web API for tests and benchmarks.

Point a ``slack_sdk.WebClient(base_url=srv.url)`` at it, then assert on ``srv.calls``. It answers the methods the bot
uses the way Slack does (``methods``), runs the whole ``files_upload_v2`` flow, takes slash-command ``response_url``
posts, and scripts faults (429 with Retry-After, 5xx, ``ok: false``). Requests are read and answered in ``wire``.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import ThreadingHTTPServer
from typing import Any

from standins.slack import wire
from standins.slack.agent import STREAM_LIMIT_S, Stream
from standins.slack.methods import METHODS, WebAPI
from standins.slack.wire import Call, Reply, parse_params, token_of

__all__ = ["Call", "SlackAPIServer"]

# Methods that are not Web API methods but are recorded like one.
UPLOAD = "upload"
RESPONSE_URL = "response_url"


@dataclass(frozen=True)
class _Fault:
    status: int
    retry_after: int | None
    error: str


class SlackAPIServer(WebAPI):
    """Slack's Web API on 127.0.0.1, on a free port, in a daemon thread. Use as a context manager."""

    def __init__(self, *, require_token: bool = True, stream_limit_s: float = STREAM_LIMIT_S) -> None:
        self.require_token = require_token
        self.stream_limit_s = stream_limit_s  # how long a stream takes appends (Slack: about five minutes)
        self.socket_mode_url = ""  # what apps.connections.open hands a Socket Mode app (socket_mode.py)
        self._cond = threading.Condition()
        self._calls: list[Call] = []
        self._uploads: dict[str, bytes] = {}
        self._pending_files: dict[str, dict[str, Any]] = {}
        self._faults: dict[str, deque[_Fault]] = {}
        self._canned: dict[str, dict[str, Any]] = {}
        self._refused: dict[str, str] = {}
        self.streams: dict[tuple[str, str], Stream] = {}
        self._ts = itertools.count()
        self._ids = itertools.count(1)
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------------------------

    def start(self) -> SlackAPIServer:
        server = self

        class Handler(wire.Handler):
            owner = server

        self._httpd = wire.Server(("127.0.0.1", 0), Handler)
        # A short poll interval keeps shutdown() (which waits for the next poll) quick.
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="slack-api-server", daemon=True
        )
        self._thread.start()
        return self

    def close(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = self._thread = None

    def __enter__(self) -> SlackAPIServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def base(self) -> str:
        """``http://127.0.0.1:PORT`` — the server's root."""
        if self._httpd is None:
            raise RuntimeError("SlackAPIServer is not started")
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def url(self) -> str:
        """The Web API base URL for ``WebClient(base_url=...)``."""
        return f"{self.base}/api/"

    def response_url(self, name: str = "default") -> str:
        """A slash-command ``response_url``; posts to it are recorded as calls to method ``response_url``."""
        return f"{self.base}/response/{name}"

    # -- what arrived ----------------------------------------------------------------------------------------

    @property
    def calls(self) -> list[Call]:
        """A snapshot of every call so far, in arrival order."""
        with self._cond:
            return list(self._calls)

    @property
    def uploaded_files(self) -> list[dict[str, Any]]:
        """Each completed upload's name, alt text and bytes, in the order Slack accepted them."""
        with self._cond:
            return [{"id": fid, "filename": self._pending_files[fid]["filename"],
                     "alt_txt": self._pending_files[fid]["alt_txt"], "content": body}
                    for fid, body in self._uploads.items()]

    @property
    def uploads(self) -> dict[str, bytes]:
        """Bytes uploaded through the files_upload_v2 flow, by file id."""
        with self._cond:
            return dict(self._uploads)

    def calls_to(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    def wait_for(
        self, predicate: Callable[[Call], bool] | str, *, count: int = 1, timeout: float = 10
    ) -> list[Call]:
        """Block until ``count`` calls match (a predicate, or a method name); return the matching calls.

        Raises AssertionError listing what did arrive when the timeout passes first.
        """
        match = (lambda c: c.method == predicate) if isinstance(predicate, str) else predicate
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                found = [c for c in self._calls if match(c)]
                if len(found) >= count:
                    return found
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    arrived = "\n".join(f"  {c.method} {c.params}" for c in self._calls) or "  (nothing)"
                    raise AssertionError(
                        f"expected {count} matching call(s) within {timeout}s, got {len(found)}; arrived:\n{arrived}"
                    )
                self._cond.wait(remaining)

    def reset(self) -> None:
        """Forget recorded calls, uploads, streams, pending faults, refusals and canned answers."""
        with self._cond:
            self._calls.clear()
            self._uploads.clear()
            self._pending_files.clear()
            self._faults.clear()
            self._canned.clear()
            self._refused.clear()
            self.streams.clear()

    # -- scripting -------------------------------------------------------------------------------------------

    def fail_next(
        self,
        method: str,
        status: int = 429,
        retry_after: int | None = 1,
        count: int = 1,
        error: str | None = None,
    ) -> None:
        """Make the next ``count`` calls to ``method`` fail.

        429 answers ``{"ok": false, "error": "ratelimited"}`` with ``Retry-After``; other statuses answer
        ``{"ok": false, "error": error or "internal_error"}`` (status 200 with an ``error`` gives a plain API error).
        """
        default = "ratelimited" if status == 429 else "internal_error"
        fault = _Fault(status=status, retry_after=retry_after if status == 429 else None, error=error or default)
        with self._cond:
            self._faults.setdefault(method, deque()).extend([fault] * count)

    def refuse(self, method: str, error: str) -> None:
        """Answer every call to ``method`` with ``{"ok": false, "error": error}`` from now on, as a workspace whose
        plan, token or settings do not allow it does (``missing_scope``, ``feature_not_enabled``, ...)."""
        with self._cond:
            self._refused[method] = error

    def answer(self, method: str, payload: dict[str, Any]) -> None:
        """Answer ``method`` with ``payload`` (merged over ``{"ok": true}``) from now on, instead of the default."""
        with self._cond:
            self._canned[method] = {"ok": True, **payload}

    # -- request handling (called from handler threads) ------------------------------------------------------

    def handle(self, path: str, query: str, headers: dict[str, str], body: bytes) -> Reply:
        parts = path.strip("/").split("/", 1)
        kind, rest = (parts[0], parts[1] if len(parts) > 1 else "")
        if kind == "api" and rest:
            method, params = rest, parse_params(headers.get("content-type", ""), query, body)
        elif kind == "upload" and rest:
            method, params = UPLOAD, {"file_id": rest}
        elif kind == "response" and rest:
            method, params = RESPONSE_URL, parse_params(headers.get("content-type", ""), query, body)
        else:
            return Reply(404, {"ok": False, "error": "not_found"})

        with self._cond:
            reply = self._reply(method, params, headers, body)
            self._calls.append(
                Call(method, params, headers, time.monotonic(), path=path, status=reply.status, body=body,
                     ok=not isinstance(reply.payload, dict) or reply.payload.get("ok", True) is not False)
            )
            self._cond.notify_all()
        return reply

    def _reply(self, method: str, params: dict[str, Any], headers: dict[str, str], body: bytes) -> Reply:
        faults = self._faults.get(method)
        if faults:
            fault = faults.popleft()
            extra = {"Retry-After": str(fault.retry_after)} if fault.retry_after is not None else {}
            return Reply(fault.status, {"ok": False, "error": fault.error}, extra)
        if method == UPLOAD:
            return self._upload(params["file_id"], body)
        if method == RESPONSE_URL:
            return Reply(200, {"ok": True})
        if self.require_token:
            token = token_of(headers, params)
            if token is None:
                return Reply(200, {"ok": False, "error": "not_authed"})
            if not token.startswith("xox") and not token.startswith("xapp-"):
                return Reply(200, {"ok": False, "error": "invalid_auth"})
            if token.startswith("xapp-") != (method == "apps.connections.open"):  # app tokens open links only
                return Reply(200, {"ok": False, "error": "not_allowed_token_type"})
        if method in self._refused:
            return Reply(200, {"ok": False, "error": self._refused[method]})
        if method in self._canned:
            return Reply(200, self._canned[method])
        handler = METHODS.get(method)
        if handler is None:
            return Reply(200, {"ok": False, "error": "unknown_method"})
        return Reply(200, handler(self, params))

    def _upload(self, file_id: str, body: bytes) -> Reply:
        if file_id not in self._pending_files:
            return Reply(404, "Not Found", content_type="text/plain; charset=utf-8")
        if len(body) != self._pending_files[file_id]["length"]:  # Slack refuses a body of another length than declared
            return Reply(400, "length mismatch", content_type="text/plain; charset=utf-8")
        self._uploads[file_id] = body
        # files.slack.com answers a plain-text "OK - <size>".
        return Reply(200, f"OK - {len(body)}", content_type="text/plain; charset=utf-8")
