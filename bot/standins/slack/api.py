"""A local HTTP server playing Slack's Web API for tests.

Point a ``slack_sdk.WebClient(base_url=srv.url)`` at it, then assert on ``srv.calls``. It answers the methods the bot
uses the way Slack does, runs the whole ``files_upload_v2`` flow, takes slash-command ``response_url`` posts, and
scripts faults (429 with Retry-After, 5xx, ``ok: false``).
"""

from __future__ import annotations

import email.parser
import email.policy
import itertools
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

TEAM_ID = "T1"
TEAM_NAME = "KGQA Test"
BOT_USER_ID = "UBOT"
BOT_ID = "BBOT"
BOT_USER_NAME = "kgqa"
APP_ID = "A1"

# Methods that are not Web API methods but are recorded like one.
UPLOAD = "upload"
RESPONSE_URL = "response_url"

# Slack's ts values: seconds and a six-digit suffix, unique per channel and increasing.
_FIRST_TS_MICROS = 1_700_000_000_000_100
_TS_STEP_MICROS = 100


@dataclass(frozen=True)
class Call:
    """One request that reached the server. Header names are lower-case."""

    method: str
    params: dict[str, Any]
    headers: dict[str, str]
    at: float  # time.monotonic() on arrival
    path: str = ""
    status: int = 200  # the HTTP status the server answered with
    body: bytes = b""

    def json(self, key: str) -> Any:
        """The parameter ``key`` decoded from JSON (form bodies carry ``blocks`` etc. as JSON strings)."""
        value = self.params[key]
        return json.loads(value) if isinstance(value, (str, bytes)) else value

    @property
    def token(self) -> str | None:
        """The token the request carried, from the Authorization header or a ``token`` parameter."""
        return _token(self.headers, self.params)


@dataclass(frozen=True)
class _Fault:
    status: int
    retry_after: int | None
    error: str


@dataclass
class _Reply:
    status: int
    payload: Any
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "application/json; charset=utf-8"


class SlackAPIServer:
    """Slack's Web API on 127.0.0.1, on a free port, in a daemon thread. Use as a context manager."""

    def __init__(self, *, require_token: bool = True) -> None:
        self.require_token = require_token
        self.socket_mode_url = ""  # what apps.connections.open hands a Socket Mode app (tests/servers/socket_mode.py)
        self._cond = threading.Condition()
        self._calls: list[Call] = []
        self._uploads: dict[str, bytes] = {}
        self._pending_files: dict[str, dict[str, Any]] = {}
        self._faults: dict[str, deque[_Fault]] = {}
        self._canned: dict[str, dict[str, Any]] = {}
        self._ts = itertools.count()
        self._ids = itertools.count(1)
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------------------------

    def start(self) -> SlackAPIServer:
        server = self

        class Handler(_Handler):
            owner = server

        self._httpd = _Server(("127.0.0.1", 0), Handler)
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
        """Forget recorded calls, uploads, pending faults and canned answers."""
        with self._cond:
            self._calls.clear()
            self._uploads.clear()
            self._pending_files.clear()
            self._faults.clear()
            self._canned.clear()

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

    def answer(self, method: str, payload: dict[str, Any]) -> None:
        """Answer ``method`` with ``payload`` (merged over ``{"ok": true}``) from now on, instead of the default."""
        with self._cond:
            self._canned[method] = {"ok": True, **payload}

    # -- request handling (called from handler threads) ------------------------------------------------------

    def _handle(self, path: str, query: str, headers: dict[str, str], body: bytes) -> _Reply:
        parts = path.strip("/").split("/", 1)
        kind, rest = (parts[0], parts[1] if len(parts) > 1 else "")
        if kind == "api" and rest:
            method, params = rest, _parse_params(headers.get("content-type", ""), query, body)
        elif kind == "upload" and rest:
            method, params = UPLOAD, {"file_id": rest}
        elif kind == "response" and rest:
            method, params = RESPONSE_URL, _parse_params(headers.get("content-type", ""), query, body)
        else:
            return _Reply(404, {"ok": False, "error": "not_found"})

        with self._cond:
            reply = self._reply(method, params, headers, body)
            self._calls.append(
                Call(method, params, headers, time.monotonic(), path=path, status=reply.status, body=body)
            )
            self._cond.notify_all()
        return reply

    def _reply(self, method: str, params: dict[str, Any], headers: dict[str, str], body: bytes) -> _Reply:
        faults = self._faults.get(method)
        if faults:
            fault = faults.popleft()
            extra = {"Retry-After": str(fault.retry_after)} if fault.retry_after is not None else {}
            return _Reply(fault.status, {"ok": False, "error": fault.error}, extra)
        if method == UPLOAD:
            return self._upload(params["file_id"], body)
        if method == RESPONSE_URL:
            return _Reply(200, {"ok": True})
        if self.require_token:
            token = _token(headers, params)
            if token is None:
                return _Reply(200, {"ok": False, "error": "not_authed"})
            if not token.startswith("xox") and not token.startswith("xapp-"):
                return _Reply(200, {"ok": False, "error": "invalid_auth"})
            if token.startswith("xapp-") != (method == "apps.connections.open"):  # app tokens open links only
                return _Reply(200, {"ok": False, "error": "not_allowed_token_type"})
        if method in self._canned:
            return _Reply(200, self._canned[method])
        handler = _METHODS.get(method)
        if handler is None:
            return _Reply(200, {"ok": False, "error": "unknown_method"})
        return _Reply(200, handler(self, params))

    def _upload(self, file_id: str, body: bytes) -> _Reply:
        if file_id not in self._pending_files:
            return _Reply(404, "Not Found", content_type="text/plain; charset=utf-8")
        if len(body) != self._pending_files[file_id]["length"]:  # Slack refuses a body of another length than declared
            return _Reply(400, "length mismatch", content_type="text/plain; charset=utf-8")
        self._uploads[file_id] = body
        # files.slack.com answers a plain-text "OK - <size>".
        return _Reply(200, f"OK - {len(body)}", content_type="text/plain; charset=utf-8")

    def _next_ts(self) -> str:
        micros = _FIRST_TS_MICROS + next(self._ts) * _TS_STEP_MICROS
        return f"{micros // 1_000_000}.{micros % 1_000_000:06d}"

    def _next_id(self, prefix: str) -> str:
        return f"{prefix}{next(self._ids):09d}"

    # -- Web API methods: each takes the params and returns the JSON payload ---------------------------------

    def _auth_test(self, params: dict[str, Any]) -> dict[str, Any]:
        return {
            "ok": True,
            "url": "https://kgqa-test.slack.com/",
            "team": TEAM_NAME,
            "user": BOT_USER_NAME,
            "team_id": TEAM_ID,
            "user_id": BOT_USER_ID,
            "bot_id": BOT_ID,
            "is_enterprise_install": False,
        }

    def _apps_connections_open(self, params: dict[str, Any]) -> dict[str, Any]:
        if not self.socket_mode_url:
            return {"ok": False, "error": "socket_mode_not_enabled"}
        return {"ok": True, "url": self.socket_mode_url}

    def _message(self, params: dict[str, Any], ts: str) -> dict[str, Any]:
        message: dict[str, Any] = {
            "type": "message",
            "text": params.get("text", ""),
            "user": BOT_USER_ID,
            "bot_id": BOT_ID,
            "app_id": APP_ID,
            "team": TEAM_ID,
            "ts": ts,
        }
        if params.get("blocks"):
            message["blocks"] = _maybe_json(params["blocks"])
        if params.get("thread_ts"):
            message["thread_ts"] = params["thread_ts"]
        return message

    def _chat_post_message(self, params: dict[str, Any]) -> dict[str, Any]:
        if not params.get("channel"):
            return {"ok": False, "error": "channel_not_found"}
        if not (params.get("text") or params.get("blocks") or params.get("attachments")):
            return {"ok": False, "error": "no_text"}
        ts = self._next_ts()
        return {"ok": True, "channel": params["channel"], "ts": ts, "message": self._message(params, ts)}

    def _chat_update(self, params: dict[str, Any]) -> dict[str, Any]:
        if not params.get("channel"):
            return {"ok": False, "error": "channel_not_found"}
        if not params.get("ts"):
            return {"ok": False, "error": "message_not_found"}
        ts = params["ts"]
        return {
            "ok": True,
            "channel": params["channel"],
            "ts": ts,
            "text": params.get("text", ""),
            "message": self._message(params, ts),
        }

    def _chat_post_ephemeral(self, params: dict[str, Any]) -> dict[str, Any]:
        if not params.get("channel"):
            return {"ok": False, "error": "channel_not_found"}
        if not params.get("user"):
            return {"ok": False, "error": "user_not_in_channel"}
        return {"ok": True, "message_ts": self._next_ts()}

    def _chat_delete(self, params: dict[str, Any]) -> dict[str, Any]:
        if not params.get("ts"):
            return {"ok": False, "error": "message_not_found"}
        return {"ok": True, "channel": params.get("channel", ""), "ts": params["ts"]}

    def _ok(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True}

    def _views_publish(self, params: dict[str, Any]) -> dict[str, Any]:
        if not params.get("user_id"):
            return {"ok": False, "error": "invalid_arguments"}
        view = _maybe_json(params.get("view") or "{}")
        view_id = self._next_id("V")
        return {
            "ok": True,
            "view": {
                "id": view_id,
                "team_id": TEAM_ID,
                "type": view.get("type", "home"),
                "blocks": view.get("blocks", []),
                "private_metadata": view.get("private_metadata", ""),
                "callback_id": view.get("callback_id", ""),
                "hash": f"{time.time():.6f}",
                "app_id": APP_ID,
                "bot_id": BOT_ID,
                "root_view_id": view_id,
                "previous_view_id": None,
            },
        }

    def _conversations_replies(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "messages": [], "has_more": False, "response_metadata": {"next_cursor": ""}}

    def _users_info(self, params: dict[str, Any]) -> dict[str, Any]:
        user_id = str(params.get("user", ""))
        if not user_id:
            return {"ok": False, "error": "user_not_found"}
        name = "kgqa" if user_id == BOT_USER_ID else f"user-{user_id.lower()}"
        return {
            "ok": True,
            "user": {
                "id": user_id,
                "team_id": TEAM_ID,
                "name": name,
                "real_name": name.title(),
                "deleted": False,
                "is_bot": user_id == BOT_USER_ID,
                "is_admin": False,
                "tz": "Europe/Berlin",
                "tz_offset": 3600,
                "profile": {"display_name": name, "real_name": name.title(), "team": TEAM_ID},
            },
        }

    def _files_get_upload_url(self, params: dict[str, Any]) -> dict[str, Any]:
        if not params.get("filename") or not params.get("length"):
            return {"ok": False, "error": "invalid_arguments"}
        file_id = self._next_id("F")
        self._pending_files[file_id] = {"filename": params["filename"], "length": int(params["length"]),
                                        "alt_txt": params.get("alt_txt") or ""}
        return {"ok": True, "upload_url": f"{self.base}/upload/{file_id}", "file_id": file_id}

    def _files_complete_upload(self, params: dict[str, Any]) -> dict[str, Any]:
        files = []
        for item in _maybe_json(params.get("files") or "[]"):
            file_id = item.get("id", "")
            if file_id not in self._uploads:
                return {"ok": False, "error": "file_not_found"}
            meta = self._pending_files[file_id]
            files.append(
                {
                    "id": file_id,
                    "created": int(time.time()),
                    "name": meta["filename"],
                    "title": item.get("title") or meta["filename"],
                    "mimetype": "image/png" if meta["filename"].endswith(".png") else "text/plain",
                    "filetype": "png" if meta["filename"].endswith(".png") else "text",
                    "alt_txt": meta["alt_txt"],
                    "user": BOT_USER_ID,
                    "size": len(self._uploads[file_id]),
                    "url_private": f"https://files.slack.com/files-pri/{TEAM_ID}-{file_id}/{meta['filename']}",
                    "permalink": f"https://kgqa-test.slack.com/files/{BOT_USER_ID}/{file_id}/{meta['filename']}",
                }
            )
        return {"ok": True, "files": files}


_METHODS: dict[str, Callable[[SlackAPIServer, dict[str, Any]], dict[str, Any]]] = {
    "auth.test": SlackAPIServer._auth_test,
    "apps.connections.open": SlackAPIServer._apps_connections_open,
    "chat.postMessage": SlackAPIServer._chat_post_message,
    "chat.update": SlackAPIServer._chat_update,
    "chat.postEphemeral": SlackAPIServer._chat_post_ephemeral,
    "chat.delete": SlackAPIServer._chat_delete,
    "assistant.threads.setStatus": SlackAPIServer._ok,
    "assistant.threads.setSuggestedPrompts": SlackAPIServer._ok,
    "assistant.threads.setTitle": SlackAPIServer._ok,
    "views.publish": SlackAPIServer._views_publish,
    "reactions.add": SlackAPIServer._ok,
    "conversations.replies": SlackAPIServer._conversations_replies,
    "users.info": SlackAPIServer._users_info,
    "files.getUploadURLExternal": SlackAPIServer._files_get_upload_url,
    "files.completeUploadExternal": SlackAPIServer._files_complete_upload,
}


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # a burst of bot calls must not overflow the listen backlog (5 by default)


class _Handler(BaseHTTPRequestHandler):
    owner: SlackAPIServer

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        self._serve(body)

    def do_GET(self) -> None:
        self._serve(b"")

    def _serve(self, body: bytes) -> None:
        split = urlsplit(self.path)
        headers = {k.lower(): v for k, v in self.headers.items()}
        reply = self.owner._handle(split.path, split.query, headers, body)
        raw = reply.payload.encode() if isinstance(reply.payload, str) else json.dumps(reply.payload).encode()
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(raw)))
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass  # keep test output clean


def _token(headers: dict[str, str], params: dict[str, Any]) -> str | None:
    auth = headers.get("authorization", "")
    if auth.startswith("Bearer "):
        return auth[len("Bearer ") :].strip() or None
    token = params.get("token")
    return token if isinstance(token, str) and token else None


def _maybe_json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def _parse_params(content_type: str, query: str, body: bytes) -> dict[str, Any]:
    """Query-string parameters overlaid with the body's (form-encoded, JSON or multipart)."""
    params: dict[str, Any] = dict(_flat(parse_qs(query, keep_blank_values=True)))
    media_type = content_type.split(";", 1)[0].strip().lower()
    if not body:
        return params
    if media_type == "application/json":
        parsed = json.loads(body)
        params.update(parsed if isinstance(parsed, dict) else {"_json": parsed})
    elif media_type == "multipart/form-data":
        params.update(_parse_multipart(content_type, body))
    else:  # Slack treats anything else as form-encoded
        params.update(_flat(parse_qs(body.decode("utf-8"), keep_blank_values=True)))
    return params


def _flat(multi: dict[str, list[str]]) -> Iterator[tuple[str, Any]]:
    for key, values in multi.items():
        yield key, values[0] if len(values) == 1 else values


def _parse_multipart(content_type: str, body: bytes) -> dict[str, Any]:
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + body
    )
    params: dict[str, Any] = {}
    for part in message.walk():
        if part.is_multipart():
            continue
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True) or b""
        params[str(name)] = payload if part.get_filename() else payload.decode("utf-8")
    return params
