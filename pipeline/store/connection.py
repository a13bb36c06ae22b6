"""Opening Chroma: an embedded store on disk, or a Chroma server with a bounded timeout on every call, opening included.

chromadb's HTTP client waits forever (its httpx session is built with ``timeout=None`` and no setting changes that),
so a server that accepts connections and never answers would hold a question, the health probe or ``kgqa index``
indefinitely. Here opening runs in a helper thread that is given up after the timeout, and the opened client's
session then gets the same timeout for every later call. A connection keeps at most one opening attempt alive: while
a server hangs, later calls wait on that attempt again rather than leave one stuck thread each behind.
"""
from __future__ import annotations

import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from pipeline.errors import StoreError, StoreUnavailable


class ChromaConnection:
    """Where the example store lives: a Chroma server (``url``) or a folder on disk (``path``); opens clients."""

    def __init__(self, path: Path | None, url: str | None, timeout: float | None) -> None:
        """``timeout``: seconds one call to the Chroma server at ``url`` may take (None: no server opened here)."""
        if url and timeout is None:
            raise ValueError("a Chroma server needs a timeout")
        self.path = path
        self.url = url
        self.timeout = timeout
        self._lock = threading.Lock()
        self._attempt: Future[Any] | None = None  # an opening still waiting for the server
        self._failed: tuple[StoreError, float] | None = None  # the last failure to open, and when

    @property
    def where(self) -> str:
        """Where the store is, as ' at URL' or ' at PATH' for messages; empty for a client opened elsewhere."""
        place = self.url or (str(self.path) if self.path else "")
        return f" at {place}" if place else ""

    def open(self) -> Any:
        """A chromadb client, telemetry off; StoreUnavailable when a server cannot be reached in time. For one
        ``timeout`` after a server failed to open, calls fail at once with the same message rather than queue up
        behind one another's timeouts."""
        failed = self._failed
        if failed and time.monotonic() - failed[1] < (self.timeout or 0.0):
            raise type(failed[0])(str(failed[0]))
        try:
            client = self._server() if self.url else self._embedded()
        except StoreError as exc:
            self._failed = (exc, time.monotonic()) if isinstance(exc, StoreUnavailable) else None
            raise
        except Exception as exc:
            raise self.failure(exc, "opening") from exc
        self._failed = None
        return client

    def failure(self, exc: BaseException, doing: str) -> StoreError:
        """The error a user should read for ``exc``, raised while ``doing`` something with the store."""
        cause = transport_cause(exc)
        if cause is not None:
            import httpx

            if isinstance(cause, httpx.TimeoutException):
                return self.timed_out(doing)
            return StoreUnavailable(f"the example store{self.where} could not be reached ({doing}: "
                                    f"{type(cause).__name__}); check that the Chroma server is running")
        verb = "cannot be opened" if doing == "opening" else f"failed {doing}"
        return StoreError(f"the example store{self.where} {verb} ({type(exc).__name__}: {exc}); "
                          "run `kgqa index --rebuild`")

    def timed_out(self, doing: str) -> StoreUnavailable:
        within = f"within {self.timeout:g} s" if self.timeout is not None else "in time"
        return StoreUnavailable(f"the example store{self.where} did not answer {within} ({doing}); try again shortly")

    def set_aside(self) -> Path:
        """Move an embedded store that cannot be opened out of the way (renamed, never deleted), so a new one can be
        built in its place; returns where it went."""
        from chromadb.api.shared_system_client import SharedSystemClient

        assert self.path is not None and not self.url
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        aside = self.path.with_name(f"{self.path.name}.broken-{stamp}")
        self.path.rename(aside)
        # chromadb keeps the system it failed to start, by path: drop it, so the new store starts a fresh one
        SharedSystemClient.clear_system_cache()
        return aside

    def _embedded(self) -> Any:
        import chromadb

        assert self.path is not None
        self.path.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(str(self.path), settings=_chroma_settings())

    def _server(self) -> Any:
        import httpx

        with self._lock:
            attempt = self._attempt = self._attempt or self._start_opening()
        try:
            client = attempt.result(timeout=self.timeout)
        except FutureTimeout:
            raise self.timed_out("opening") from None
        except Exception as exc:
            raise self.failure(exc, "opening") from exc
        finally:
            with self._lock:
                if attempt.done() and self._attempt is attempt:
                    self._attempt = None
        client._server._session.timeout = httpx.Timeout(self.timeout)  # the one session every later call uses
        return client

    def _start_opening(self) -> Future[Any]:
        """Open a server client in a daemon thread: opening asks the server for its tenant and database on a session
        without a timeout, so a server that never answers holds this thread, never the caller."""
        import chromadb

        u = urlparse(self.url or "")
        attempt: Future[Any] = Future()

        def connect() -> None:
            try:
                attempt.set_result(chromadb.HttpClient(host=u.hostname or "localhost", port=u.port or 8000,
                                                       ssl=u.scheme == "https", settings=_chroma_settings()))
            except BaseException as exc:  # handed to whoever waits on the attempt
                attempt.set_exception(exc)

        threading.Thread(target=connect, name="kgqa-chroma-open", daemon=True).start()
        return attempt


def open_client(path: Path) -> Any:
    """A Chroma store on disk, opened now (a server: ``ChromaConnection(None, url, timeout).open()``)."""
    return ChromaConnection(path, None, None).open()


def transport_cause(exc: BaseException | None) -> BaseException | None:
    """The httpx transport error (timeout, refused, dropped) behind ``exc``, if there is one; chromadb re-raises
    some as ValueError."""
    import httpx

    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, httpx.TransportError):
            return exc
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


def _chroma_settings() -> Any:
    from chromadb.config import Settings as ChromaSettings

    return ChromaSettings(anonymized_telemetry=False, allow_reset=False)
