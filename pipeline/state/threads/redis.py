"""Thread memory in Redis (``ThreadMemory``), so a thread's next message may land on any replica: one list per
thread, trimmed to the last ``keep`` turns and forgotten ``ttl`` seconds after its last turn."""
from __future__ import annotations

import json
import logging
from typing import Any

from pipeline.state.link import RedisLink, SharedStateDown
from pipeline.state.threads.base import ThreadMemory

log = logging.getLogger("kgqa.shared")


class RedisThreadMemory:
    """While Redis is unavailable, ``fallback`` (this process's memory) serves, or a thread has no earlier turns."""

    def __init__(self, link: RedisLink, keep: int, ttl: float, fallback: ThreadMemory | None) -> None:
        self.link = link
        self.keep = keep
        self.ttl = ttl
        self.fallback = fallback

    def turns(self, thread: str) -> list[dict[str, Any]]:
        try:
            raw = self.link.call(lambda r: r.lrange(RedisLink.key("thread", thread), -self.keep, -1))
        except SharedStateDown:
            return self.fallback.turns(thread) if self.fallback is not None else []
        turns = []
        for item in raw:
            try:
                turns.append(dict(json.loads(item)))
            except (ValueError, TypeError):  # not ours to read (another version wrote it): skipped, not fatal
                log.warning("an unreadable turn in thread %s was skipped", thread)
        return turns

    def remember(self, thread: str, turn: dict[str, Any]) -> None:
        key = RedisLink.key("thread", thread)
        value = json.dumps(turn, ensure_ascii=False)

        def push(r: Any) -> None:
            pipe = r.pipeline(transaction=True)  # the list never outgrows ``keep`` nor outlives ``ttl``
            pipe.rpush(key, value)
            pipe.ltrim(key, -self.keep, -1)
            pipe.expire(key, max(1, round(self.ttl)))
            pipe.execute()

        try:
            self.link.call(push)
        except SharedStateDown:
            if self.fallback is not None:
                self.fallback.remember(thread, turn)
