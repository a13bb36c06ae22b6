"""The queue's admission count across replicas: questions waiting for a worker anywhere in the deployment, so
``KGQA_QUEUE_SIZE`` bounds the whole deployment's backlog (the LLM server they share) rather than each replica's.

A waiting question holds a token in a sorted set scored by when its lease ends; it gives the token back when a
worker starts it, and the token of a replica that died expires with its lease. While Redis is unavailable each
replica admits by its own count alone."""
from __future__ import annotations

import uuid

from pipeline.state.link import RedisLink, SharedStateDown

KEY = RedisLink.key("waiting")
# KEYS[1] the waiting set; ARGV: capacity, lease (ms), token. Returns -1 when full, else how many wait ahead.
JOIN = """
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local ahead = redis.call('ZCARD', KEYS[1])
if ahead >= tonumber(ARGV[1]) then return -1 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return ahead
"""


class RedisQueue:
    """``WaitingQueue`` in Redis: ``join()`` gives (token, questions waiting ahead) or None when the deployment's
    queue is full, ``leave(token)`` when the question starts. Raises ``SharedStateDown`` when Redis cannot say."""

    def __init__(self, link: RedisLink, capacity: int, lease_s: float) -> None:
        self.link = link
        self.capacity = capacity
        self.lease_ms = max(1000, round(lease_s * 1000))
        self._join = link.client().register_script(JOIN)

    def join(self) -> tuple[str, int] | None:
        token = uuid.uuid4().hex
        ahead = int(self.link.call(lambda r: self._join(keys=[KEY], args=[self.capacity, self.lease_ms, token],
                                                          client=r)))
        return None if ahead < 0 else (token, ahead)

    def leave(self, token: str) -> None:
        try:
            self.link.call(lambda r: r.zrem(KEY, token))
        except SharedStateDown:
            pass  # its lease ends it
