"""Opening Chroma: an embedded store on disk, or a Chroma server with a bounded timeout on every call, opening included.

chromadb's HTTP client waits forever (its httpx session is built with ``timeout=None`` and no setting changes that),
so a server that accepts connections and never answers would hold a question, the health probe or ``kgqa index``
indefinitely. Here opening runs in a helper thread that is given up after the timeout, and the opened client's
session then gets the same timeout for every later call.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from pipeline.errors import StoreError, StoreUnavailable


@dataclass(frozen=True)
class ChromaConnection:
    """Where the example store lives: a Chroma server (``url``) or a folder on disk (``path``)."""

    path: Path | None = None
    url: str = ""
    timeout: float = 10.0  # seconds one call to a Chroma server may take

    @property
    def where(self) -> str:
        return self.url or str(self.path)

    def open(self) -> Any:
        """A chromadb client, telemetry off; StoreUnavailable when a server cannot be reached in time."""
        try:
            return self._server() if self.url else self._embedded()
        except StoreError:
            raise
        except Exception as exc:
            raise self.failure(exc, "opening") from exc

    def failure(self, exc: BaseException, doing: str) -> StoreError:
        """The error a user should read for ``exc``, raised while ``doing`` something with the store."""
        cause = transport_cause(exc)
        if cause is not None:
            import httpx

            if isinstance(cause, httpx.TimeoutException):
                return StoreUnavailable(f"the example store at {self.where} did not answer within {self.timeout:g} s "
                                        f"({doing}); try again shortly")
            return StoreUnavailable(f"the example store at {self.where} could not be reached ({doing}: "
                                    f"{type(cause).__name__}); check that the Chroma server is running")
        verb = "cannot be opened" if doing == "opening" else f"failed {doing}"
        return StoreError(f"the example store at {self.where} {verb} ({type(exc).__name__}: {exc}); "
                          "run `kgqa index --rebuild`")

    def _embedded(self) -> Any:
        import chromadb

        assert self.path is not None
        self.path.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(str(self.path), settings=_chroma_settings())

    def _server(self) -> Any:
        import chromadb
        import httpx

        u = urlparse(self.url)
        opened: dict[str, Any] = {}

        def connect() -> None:
            try:
                opened["client"] = chromadb.HttpClient(host=u.hostname or "localhost", port=u.port or 8000,
                                                       ssl=u.scheme == "https", settings=_chroma_settings())
            except BaseException as exc:  # handed to the caller's thread
                opened["error"] = exc

        # Opening already asks the server for the tenant and database, on a session without a timeout: a server
        # that never answers leaves this daemon thread behind, never the caller.
        thread = threading.Thread(target=connect, name="kgqa-chroma-open", daemon=True)
        thread.start()
        thread.join(self.timeout)
        if thread.is_alive():
            raise StoreUnavailable(f"the example store at {self.url} did not answer within {self.timeout:g} s "
                                   "(opening); try again shortly")
        if "error" in opened:
            raise opened["error"]
        client = opened["client"]
        client._server._session.timeout = httpx.Timeout(self.timeout)  # the one session every later call uses
        return client


def open_client(path: Path | None = None, url: str = "", timeout: float = 10.0) -> Any:
    """A Chroma client: a server when ``url`` is set, else a persistent store on disk."""
    return ChromaConnection(path, url, timeout).open()


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
