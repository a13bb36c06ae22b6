"""Slack's Socket Mode link on 127.0.0.1: the WebSocket end a Socket Mode app connects to.

Slack hands an app a ``wss://wss-primary.slack.com/link/?ticket=…`` URL from ``apps.connections.open``; the app opens
a WebSocket there, gets ``{"type": "hello"}``, then receives envelopes (``events_api``, ``slash_commands``,
``interactive``) and must acknowledge each with ``{"envelope_id": …}`` (plus a ``payload`` where a response is
accepted) within 3 s, or Slack delivers it again with ``retry_attempt`` raised. This server speaks that protocol
over plain ``ws://`` (RFC 6455 framing, written out here: server frames unmasked, client frames masked; pings answered
with pongs). Point the Slack Web API stand-in's ``socket_mode_url`` at ``.url``.
"""
from __future__ import annotations

import base64
import hashlib
import itertools
import json
import socket
import struct
import threading
import time
from typing import Any

from standins.tcp import listen

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455 section 1.3
TEXT, CLOSE, PING, PONG = 0x1, 0x8, 0x9, 0xA


class SocketModeServer:
    def __init__(self) -> None:
        self._closed = threading.Event()
        self._listener = listen(self._closed, self._serve, "socket-mode")
        self.url = f"ws://127.0.0.1:{self._listener.getsockname()[1]}/link/?ticket=kgqa-test"
        self._cond = threading.Condition()
        self._clients: list[socket.socket] = []
        self._send_lock = threading.Lock()
        self.acks: dict[str, dict[str, Any]] = {}  # envelope_id -> the app's acknowledgement
        self.received: list[dict[str, Any]] = []  # every text frame the app sent
        self._ids = itertools.count(1)
        self.connections = 0  # links opened so far

    # -- what a test does ------------------------------------------------------------------------------------
    def wait_connected(self, timeout: float = 30) -> None:
        self.wait_connections(1, timeout)

    def wait_connections(self, count: int, timeout: float = 30) -> None:
        """Until ``count`` links have been opened in all and one is open now."""
        with self._cond:
            if not self._cond.wait_for(lambda: self.connections >= count and bool(self._clients), timeout):
                raise AssertionError(f"{self.connections} Socket Mode connection(s), not {count}, within {timeout} s")

    def send(self, kind: str, payload: dict[str, Any], *, retry_attempt: int = 0, retry_reason: str = "",
             envelope_id: str | None = None) -> str:
        """Deliver one envelope on the newest connection; returns its envelope_id."""
        envelope_id = envelope_id or f"env-{next(self._ids):06d}"
        self._send_text({"envelope_id": envelope_id, "payload": payload, "type": kind,
                         "accepts_response_payload": kind != "events_api", "retry_attempt": retry_attempt,
                         "retry_reason": retry_reason})
        return envelope_id

    def wait_ack(self, envelope_id: str, timeout: float = 10) -> dict[str, Any]:
        with self._cond:
            if not self._cond.wait_for(lambda: envelope_id in self.acks, timeout):
                raise AssertionError(f"envelope {envelope_id} was not acknowledged within {timeout} s")
            return self.acks[envelope_id]

    def disconnect(self, reason: str = "refresh_requested") -> None:
        """Slack's periodic ``disconnect`` message: the app is expected to reconnect."""
        self._send_text({"type": "disconnect", "reason": reason, "debug_info": {"host": "kgqa-test"}})

    # -- the link ---------------------------------------------------------------------------------------------
    def _serve(self, sock: socket.socket) -> None:
        try:
            if not _handshake(sock):
                return
            with self._cond:
                self._clients.append(sock)
                self.connections += 1
                self._cond.notify_all()
            self._send_text({"type": "hello", "num_connections": len(self._clients),
                             "debug_info": {"host": "kgqa-test", "approximate_connection_time": 18060},
                             "connection_info": {"app_id": "A0KGQA"}}, sock)
            while True:
                opcode, data = _read_frame(sock)
                if opcode == PING:
                    self._send_frame(sock, PONG, data)
                elif opcode == TEXT:
                    message = json.loads(data)
                    with self._cond:
                        self.received.append(message)
                        if "envelope_id" in message:
                            self.acks[message["envelope_id"]] = message
                        self._cond.notify_all()
                elif opcode == CLOSE:
                    return
        except (OSError, ConnectionError, ValueError):
            return
        finally:
            with self._cond:
                if sock in self._clients:
                    self._clients.remove(sock)
            sock.close()

    def _send_text(self, message: dict[str, Any], sock: socket.socket | None = None) -> None:
        with self._cond:
            target = sock or (self._clients[-1] if self._clients else None)
        if target is None:
            raise AssertionError("no Socket Mode connection to send on")
        self._send_frame(target, TEXT, json.dumps(message).encode())

    def _send_frame(self, sock: socket.socket, opcode: int, data: bytes) -> None:
        size = len(data)
        if size < 126:
            header = struct.pack("!BB", 0x80 | opcode, size)
        elif size < 1 << 16:
            header = struct.pack("!BBH", 0x80 | opcode, 126, size)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 127, size)
        with self._send_lock:
            sock.sendall(header + data)

    def close(self) -> None:
        self._closed.set()
        self._listener.close()
        with self._cond:
            for sock in self._clients:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def __enter__(self) -> SocketModeServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _handshake(sock: socket.socket) -> bool:
    request = b""
    deadline = time.monotonic() + 10
    while b"\r\n\r\n" not in request:
        chunk = sock.recv(4096)
        if not chunk or time.monotonic() > deadline:
            return False
        request += chunk
    headers = dict(line.split(": ", 1) for line in request.decode("latin-1").split("\r\n")[1:] if ": " in line)
    key = {k.lower(): v for k, v in headers.items()}.get("sec-websocket-key", "")
    if not key:
        sock.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        return False
    accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
    sock.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Accept: {accept}\r\n\r\n").encode())
    return True


def _read_exact(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("the app closed the link")
        data += chunk
    return data


def _read_frame(sock: socket.socket) -> tuple[int, bytes]:
    """One whole client frame (fragmented messages are not used by Slack's SDKs): opcode and unmasked payload."""
    first, second = _read_exact(sock, 2)
    size = second & 0x7F
    if size == 126:
        size = struct.unpack("!H", _read_exact(sock, 2))[0]
    elif size == 127:
        size = struct.unpack("!Q", _read_exact(sock, 8))[0]
    mask = _read_exact(sock, 4) if second & 0x80 else b"\0\0\0\0"
    data = _read_exact(sock, size)
    return first & 0x0F, bytes(b ^ mask[i % 4] for i, b in enumerate(data))
