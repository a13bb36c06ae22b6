"""One process's link to Redis: short timeouts, and a breaker so that a Redis that is down or slow costs a question
at most one short wait per ``retry_s`` rather than one per call. Every caller falls back to local state on
``SharedStateDown``; the first call that succeeds after an outage closes the breaker again (nothing to restart)."""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

from pipeline.errors import KgqaError
from pipeline.settings import Settings, masked

if TYPE_CHECKING:
    from redis import Redis

log = logging.getLogger("kgqa.shared")
T = TypeVar("T")
PREFIX = "kgqa:"
RETRY_S = 1.0  # after a failure, calls go straight to the local fallback for this long, then one tries Redis again
# A script fragment for a bounded index of entries: KEYS[2] a sorted set of ids scored by time; ARGV[2] now, ARGV[3]
# how long (s) entries live, ARGV[4] how many may, ARGV[5] the new id, ARGV[6] the prefix of the entries' keys. Adds
# the id, drops ids past their time and the oldest beyond the count (deleting their entries); the set expires with
# its newest entry.
INDEX_ADD = """
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', tonumber(ARGV[2]) - tonumber(ARGV[3]))
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
if over > 0 then
  for i, id in ipairs(redis.call('ZPOPMIN', KEYS[2], over)) do
    if i % 2 == 1 then redis.call('DEL', ARGV[6] .. id) end
  end
end
redis.call('EXPIRE', KEYS[2], ARGV[3])
"""


class SharedStateDown(KgqaError):
    """Redis could not be reached, or did not answer within the link's timeout."""


def password(url: str) -> str:
    return urlsplit(url).password or ""


class RedisLink:
    """``call(fn)`` runs ``fn(client)`` or raises ``SharedStateDown``; ``status()`` is what /healthz shows."""

    def __init__(self, url: str, timeout: float, retry_s: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.url = url
        self.timeout = timeout
        self.retry_s = retry_s
        self.clock = clock
        self._client: Redis | None = None
        self._lock = threading.Lock()
        self._down_since: float | None = None
        self._next_try = 0.0
        self._error = ""
        self._recovered: list[Callable[[], None]] = []

    @staticmethod
    def key(*parts: str) -> str:
        """A key in the project's namespace: ``kgqa:part:part``."""
        return PREFIX + ":".join(parts)

    def client(self) -> Redis:
        with self._lock:
            if self._client is None:
                from redis import Redis
                from redis.backoff import NoBackoff
                from redis.retry import Retry

                # one immediate retry: a pooled connection that Redis closed (a restart) is replaced, not reported
                self._client = Redis.from_url(self.url, socket_timeout=self.timeout,
                                              socket_connect_timeout=self.timeout, retry=Retry(NoBackoff(), 1),
                                              health_check_interval=0, decode_responses=True)
            return self._client

    def on_recover(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` (in the calling thread) after the first success that ends an outage."""
        self._recovered.append(callback)

    @property
    def up(self) -> bool:
        return self._down_since is None

    def call(self, fn: Callable[[Redis], T]) -> T:
        from redis.exceptions import RedisError

        with self._lock:
            if self._down_since is not None and self.clock() < self._next_try:
                raise SharedStateDown(f"Redis at {masked(self.url)} is unavailable ({self._error})")
        try:
            result = fn(self.client())
        except (RedisError, OSError) as exc:
            self._failed(exc)
            raise SharedStateDown(f"Redis at {masked(self.url)} is unavailable ({self._error})") from exc
        if self._down_since is not None:
            self._back()
        return result

    def _failed(self, exc: Exception) -> None:
        with self._lock:
            first = self._down_since is None
            self._error = f"{type(exc).__name__}: {exc}"[:200]
            self._next_try = self.clock() + self.retry_s
            if first:
                self._down_since = self.clock()
        if first:
            log.error("Redis at %s failed (%s); using this process's state until it answers again",
                      masked(self.url), self._error)

    def _back(self) -> None:
        with self._lock:
            if self._down_since is None:
                return
            gone = self.clock() - self._down_since
            self._down_since = None
        log.warning("Redis at %s answers again after %.1f s; shared state resumed", masked(self.url), gone)
        for callback in self._recovered:
            try:
                callback()
            except SharedStateDown:
                return  # down again at once: the next recovery runs the callbacks again
            except Exception:  # a recovery step must not fail the call that happened to notice the recovery
                log.exception("a Redis recovery step failed")

    def ping(self) -> bool:
        try:
            return bool(self.call(lambda r: r.ping()))
        except SharedStateDown:
            return False

    def status(self) -> dict[str, Any]:
        report: dict[str, Any] = {"url": masked(self.url), "ok": self.up}
        if self._down_since is not None:
            report.update(down_s=round(self.clock() - self._down_since, 1), error=self._error)
        return report

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None


def build_link(settings: Settings) -> RedisLink | None:
    """This process's one link to Redis (shared by the answer cache and the bot's state), or None without a URL."""
    return _link(settings.redis_url, settings.redis_timeout) if settings.redis_url else None


@lru_cache(maxsize=2)
def _link(url: str, timeout: float) -> RedisLink:
    return RedisLink(url, timeout, RETRY_S)
