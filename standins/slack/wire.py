"""The HTTP side of the Slack Web API stand-in: each request read into a recorded ``Call`` (form, JSON or multipart
bodies, the token from a header or a parameter) and each ``Reply`` written back."""
from __future__ import annotations

import email.parser
import email.policy
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit


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
    ok: bool = True  # the Web API's "ok" in the answer (false: Slack refused the call, e.g. invalid_blocks)

    def json(self, key: str) -> Any:
        """The parameter ``key`` decoded from JSON (form bodies carry ``blocks`` etc. as JSON strings)."""
        value = self.params[key]
        return json.loads(value) if isinstance(value, (str, bytes)) else value

    @property
    def token(self) -> str | None:
        """The token the request carried, from the Authorization header or a ``token`` parameter."""
        return token_of(self.headers, self.params)


@dataclass
class Reply:
    status: int
    payload: Any
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "application/json; charset=utf-8"


class Owner(Protocol):
    """What the handler serves requests from (the server)."""

    def handle(self, path: str, query: str, headers: dict[str, str], body: bytes) -> Reply: ...


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # a burst of bot calls must not overflow the listen backlog (5 by default)


class Handler(BaseHTTPRequestHandler):
    owner: Owner

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        self._serve(body)

    def do_GET(self) -> None:
        self._serve(b"")

    def _serve(self, body: bytes) -> None:
        split = urlsplit(self.path)
        headers = {k.lower(): v for k, v in self.headers.items()}
        reply = self.owner.handle(split.path, split.query, headers, body)
        raw = reply.payload.encode() if isinstance(reply.payload, str) else json.dumps(reply.payload).encode()
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(raw)))
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output clean


def token_of(headers: dict[str, str], params: dict[str, Any]) -> str | None:
    auth = headers.get("authorization", "")
    if auth.startswith("Bearer "):
        return auth[len("Bearer ") :].strip() or None
    token = params.get("token")
    return token if isinstance(token, str) and token else None


def maybe_json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def parse_params(content_type: str, query: str, body: bytes) -> dict[str, Any]:
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
        assert isinstance(payload, bytes)  # a leaf part decodes to bytes
        params[str(name)] = payload if part.get_filename() else payload.decode("utf-8")
    return params
