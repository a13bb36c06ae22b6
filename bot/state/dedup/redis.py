"""Event dedup across replicas on any number of hosts: one ``SET key NX EX ttl`` per key, atomic in Redis.

While Redis is unavailable each key is claimed in this process only and logged as a possible duplicate (another
replica may claim it too); when Redis answers again those claims are written there, so a retry that reaches another
replica afterwards is still recognised, and a key that another replica had claimed meanwhile is logged as answered
twice."""
from __future__ import annotations

import logging
import threading
import time
import uuid
from collections import OrderedDict
from typing import Any

from bot.state.dedup.memory import Seen
from pipeline.state.link import RedisLink, SharedStateDown

log = logging.getLogger("kgqa.bot")
MAX_UNSYNCED = 20_000  # local claims kept for writing back after an outage (older ones are past any retry anyway)


class RedisSeen:
    """``first(key)`` is true for exactly one caller across every replica while Redis is up, until ``ttl`` s pass."""

    def __init__(self, link: RedisLink, ttl: float, maxsize: int) -> None:
        self.link = link
        self.ttl = ttl
        self._local = Seen(maxsize)  # what this process has seen: a repeat never needs Redis
        self._unsynced: OrderedDict[str, float] = OrderedDict()  # claimed locally during an outage -> when
        self._lock = threading.Lock()
        link.on_recover(self.sync)

    def first(self, key: str) -> bool:
        if not self._local.first(key):
            return False
        token, name = uuid.uuid4().hex, RedisLink.key("seen", key)

        def claim(r: Any) -> bool:
            # A claim carries its own token: when the client retried a SET whose first try reached Redis (its reply
            # lost to a timeout), the key holds our token and the event is still ours, not another replica's.
            return bool(r.set(name, token, nx=True, ex=max(1, round(self.ttl)))) or r.get(name) == token

        try:
            return self.link.call(claim)
        except SharedStateDown:
            with self._lock:
                self._unsynced[key] = time.time()
                while len(self._unsynced) > MAX_UNSYNCED:
                    self._unsynced.popitem(last=False)
            log.warning("possible duplicate: %s claimed in this process only (Redis unavailable)", key)
            return True

    def sync(self) -> None:
        """Write the claims made during an outage to Redis; log each one another replica had made as well."""
        with self._lock:
            claims, self._unsynced = self._unsynced, OrderedDict()
        now = time.time()
        claims = OrderedDict((k, at) for k, at in claims.items() if now - at < self.ttl)
        if not claims:
            return

        def write(r: object) -> list[object]:
            pipe = r.pipeline(transaction=False)  # type: ignore[attr-defined]
            for key, at in claims.items():
                pipe.set(RedisLink.key("seen", key), "1", nx=True, ex=max(1, round(self.ttl - (now - at))))
            return list(pipe.execute())

        try:
            results = self.link.call(write)
        except SharedStateDown:
            with self._lock:  # still unsynced: kept for the next recovery
                claims.update(self._unsynced)
                self._unsynced = claims
            raise
        for key, stored in zip(claims, results):
            if not stored:
                log.warning("duplicate: %s was also claimed by another replica while Redis was unavailable", key)
        log.info("wrote %d claims made during the Redis outage", len(claims))

    def __len__(self) -> int:
        return len(self._local)
