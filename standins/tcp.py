"""A TCP proxy on 127.0.0.1 that can stop answering: the network face of a server that hangs.

``HoldingProxy(target)`` forwards every connection to ``target`` (host, port). After ``hold()`` the bytes clients send
are kept back, so requests are accepted and never answered, exactly like a server stuck in a long GC pause or a
dead upstream behind a load balancer; ``release()`` lets them through again. ``HoldingProxy(None)`` forwards
nowhere: a server that accepts connections and never says a word. ``close()`` drops every connection.
"""
from __future__ import annotations

import socket
import threading
from collections.abc import Callable


class HoldingProxy:
    def __init__(self, target: tuple[str, int] | None = None) -> None:
        self.target = target
        self._open = threading.Event()
        self._open.set()
        self._closed = threading.Event()
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self.connections = 0  # accepted so far
        self._listener = listen(self._closed, self._take, "holding-proxy")
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"

    def hold(self) -> None:
        """From now on, nothing a client sends reaches the target."""
        self._open.clear()

    def release(self) -> None:
        self._open.set()

    def _keep(self, sock: socket.socket) -> socket.socket:
        with self._lock:
            self._sockets.append(sock)
        return sock

    def _take(self, client: socket.socket) -> None:
        with self._lock:  # each connection is taken on a thread of its own
            self.connections += 1
        self._serve(self._keep(client))

    def _serve(self, client: socket.socket) -> None:
        upstream: socket.socket | None = None
        try:
            while True:
                data = client.recv(65536)
                if not data:
                    return
                while not self._open.wait(0.05):  # held: the request waits here, unanswered
                    if self._closed.is_set():
                        return
                if self.target is None:
                    continue
                if upstream is None:
                    upstream = self._keep(socket.create_connection(self.target))
                    threading.Thread(target=_pump, args=(upstream, client), daemon=True).start()
                upstream.sendall(data)
        except OSError:
            return
        finally:
            for sock in (client, upstream):
                if sock is not None:
                    _shut(sock)

    def close(self) -> None:
        self._closed.set()
        self._listener.close()
        with self._lock:
            for sock in self._sockets:
                _shut(sock)

    def __enter__(self) -> HoldingProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def listen(closed: threading.Event, serve: Callable[[socket.socket], None], name: str) -> socket.socket:
    """A listening socket on 127.0.0.1 (a free port) whose connections are each served by ``serve`` in a daemon
    thread, until ``closed`` is set or the socket is closed."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.05)  # how often the loop looks at ``closed``

    def accept() -> None:
        while not closed.is_set():
            try:
                sock, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            sock.settimeout(None)
            threading.Thread(target=serve, args=(sock,), daemon=True).start()

    threading.Thread(target=accept, name=name, daemon=True).start()
    return listener


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        _shut(sink)


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
