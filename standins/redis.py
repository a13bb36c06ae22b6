"""A real ``redis-server`` (Debian's package, installed by scripts/test.sh) on 127.0.0.1, on a free port.

``stop()`` shuts it down the way ``docker stop`` does (SIGTERM: the append-only file is flushed), ``start()`` brings
it back on the same port with the same data, as a restarted Redis service would come back."""
from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from pathlib import Path

from standins.processes import free_port, terminate

START_TIMEOUT_S = 20.0


def ping(port: int, timeout: float = 0.5, ca: Path | None = None) -> bool:
    """True when a Redis server on ``port`` answers PING (the wire protocol, no client library; TLS with ``ca``)."""
    try:
        raw = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    except OSError:
        return False
    try:
        sock = ssl.create_default_context(cafile=str(ca)).wrap_socket(raw, server_hostname="127.0.0.1") if ca else raw
        with sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith((b"+PONG", b"-NOAUTH"))  # up (a password-protected one refuses PING)
    except OSError:
        return False
    finally:
        raw.close()


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, made by the openssl command (installed with redis-server)."""
    cert, key = folder / "tls.crt", folder / "tls.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                    "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    return cert, key


class RedisServer:
    """``url`` is ``redis://127.0.0.1:PORT/0`` (``rediss://:PASSWORD@…?ssl_ca_certs=…`` with ``tls``); a context
    manager."""

    def __init__(self, password: str = "", tls: bool = False) -> None:
        self.password = password
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed: run scripts/test.sh (it installs Debian's package)")
        self.binary = binary
        self.dir = Path(tempfile.mkdtemp(prefix="kgqa-redis-"))
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.tls: tuple[Path, Path] | None = None
        if tls:
            self.tls = self_signed(self.dir)
            self.url = f"rediss://:{password}@127.0.0.1:{self.port}/0?ssl_ca_certs={self.tls[0]}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        log = (self.dir / "server.log").open("ab")
        listen = ["--port", str(self.port)] if self.tls is None else [
            "--port", "0", "--tls-port", str(self.port), "--tls-cert-file", str(self.tls[0]),
            "--tls-key-file", str(self.tls[1]), "--tls-ca-cert-file", str(self.tls[0]), "--tls-auth-clients", "no"]
        self.proc = subprocess.Popen(
            [self.binary, *listen, "--bind", "127.0.0.1", "--dir", str(self.dir),
             "--appendonly", "yes", "--save", "", "--daemonize", "no", "--protected-mode", "yes",
             *(["--requirepass", self.password] if self.password else [])],
            stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + START_TIMEOUT_S
        while not ping(self.port, ca=self.tls[0] if self.tls else None):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start: {(self.dir / 'server.log').read_text()[-800:]}")
            try:
                self.proc.wait(timeout=0.02)  # a bounded poll of the condition above
            except subprocess.TimeoutExpired:
                pass

    def stop(self) -> None:
        if self.proc is not None:
            terminate(self.proc, 20)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> RedisServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
