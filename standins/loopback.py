"""What every stand-in HTTP server shares: 127.0.0.1 on a free port, a daemon serving thread, an idempotent close."""
from __future__ import annotations

import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class QuietServer(ThreadingHTTPServer):
    """Threads per request, a deep listen backlog for bursts, and no noise when a client gives up mid-answer."""

    daemon_threads = True
    request_queue_size = 128  # the default 5 overflows under bursts and stalls calls for a second
    owner: Any

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class LoopbackServer:
    """Base of the stand-ins: serves ``handler`` (which reaches this object as ``self.server.owner``)."""

    def __init__(self, handler: type[BaseHTTPRequestHandler], name: str) -> None:
        self._closed = threading.Event()
        self._httpd = QuietServer(("127.0.0.1", 0), handler)
        self._httpd.owner = self
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), name=name, daemon=True)
        self._thread.start()

    @property
    def base(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def close(self) -> None:
        """Release waiting requests, stop serving and free the port. Idempotent."""
        if self._closed.is_set():
            return
        self._closed.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
