"""A SPARQL endpoint stand-in on loopback that answers from any KnowledgeGraph, records every query it receives, and
goes wrong on request, the ways ORKG's endpoint (or what stands in front of it) does.

Faults (``srv.set_fault(name, times=None)``): ``"html"`` (a 200 maintenance page), ``"bad_json"`` (a 200 whose JSON
is cut in half), ``"hang"`` (held until ``close()``, or ``hang_seconds``), ``"500"``, ``"503"`` (a gateway's
HTML), ``"reset"`` (the connection closed with no answer). ``refused_url()`` gives a URL where connections are refused.
"""
from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlsplit

from pipeline.errors import KnowledgeGraphError
from pipeline.parts import KnowledgeGraph
from standins.loopback import LoopbackServer, QuietServer

FAULTS = ("html", "bad_json", "hang", "500", "503", "reset")
MAINTENANCE = b"<html><head><title>ORKG maintenance</title></head><body><h1>Back soon</h1></body></html>"
RESULTS = "application/sparql-results+json"


class EndpointServer(LoopbackServer):
    """``with EndpointServer(kg) as srv: EndpointKG(srv.url)``; ``srv.queries`` holds every query received."""

    def __init__(self, kg: KnowledgeGraph, hang_seconds: float = 30.0) -> None:
        self.kg = kg
        self.hang_seconds = hang_seconds
        self.queries: list[str] = []
        self._fault: str | None = None
        self._left: int | None = None
        self._lock = threading.Lock()
        super().__init__(_Handler, "sparql-endpoint")

    @property
    def url(self) -> str:
        return f"{self.base}/sparql"

    def set_fault(self, name: str | None, times: int | None = None) -> None:
        """Apply fault ``name`` to the next ``times`` queries (None: until changed)."""
        if name is not None and name not in FAULTS:
            raise ValueError(f"unknown fault {name!r}; expected one of {FAULTS}")
        with self._lock:
            self._fault, self._left = name, times

    def _take_fault(self) -> str | None:
        with self._lock:
            fault = self._fault
            if fault is not None and self._left is not None:
                self._left -= 1
                if self._left <= 0:
                    self._fault, self._left = None, None
            return fault

    def _record(self, query: str) -> None:
        with self._lock:
            self.queries.append(query)


@contextmanager
def refused_url() -> Iterator[str]:
    """A loopback endpoint URL where connections are refused (bound, never listening, so no one else takes it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/sparql"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: QuietServer

    def do_GET(self) -> None:
        split = urlsplit(self.path)
        self._answer(parse_qs(split.query).get("query", [""])[0])

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode("utf-8", "replace")
        form = parse_qs(body) if "form" in (self.headers.get("Content-Type") or "") else {"query": [body]}
        self._answer(form.get("query", [""])[0])

    def _answer(self, query: str) -> None:
        owner = self.server.owner
        owner._record(query)
        fault = owner._take_fault()
        if (fault == "hang" and owner._closed.wait(owner.hang_seconds)) or fault == "reset":
            self.close_connection = True
            return
        if fault == "html":
            self._send(200, MAINTENANCE, "text/html; charset=utf-8")
        elif fault in ("500", "503"):
            self._send(int(fault), MAINTENANCE if fault == "503" else b"Virtuoso 42000 Error SR325: transaction "
                       b"rolled back", "text/html" if fault == "503" else "text/plain")
        else:
            try:
                data = json.dumps(owner.kg.select(query).to_json()).encode()
            except KnowledgeGraphError as exc:
                self._send(400, f"Virtuoso 37000 Error SP030: {exc}\n\nSPARQL query:\n{query}".encode(), "text/plain")
                return
            self._send(200, data[: len(data) // 2] if fault == "bad_json" else data, RESULTS)

    def _send(self, status: int, data: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: tests assert on ``queries``."""
