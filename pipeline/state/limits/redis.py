"""Per-person rate limits across replicas: a sliding window per person in Redis, kept by one atomic script.

The window is a sorted set of the person's recent questions scored by Redis's own clock (replicas' clocks may
differ); it expires with the window, so nothing outlives it. While Redis is unavailable the local counters decide."""
from __future__ import annotations

import uuid

from pipeline.state.limits.memory import MAX_KEYS, RateLimiter
from pipeline.state.link import RedisLink, SharedStateDown

# KEYS[1] the person's window; ARGV: limit, window (ms), a unique member. Returns 0 when counted, else the ms to wait.
WINDOW = """
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + window - now)
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return 0
"""


class RedisRateLimiter:
    """``wait(key)``: 0 and the question counted when allowed, else the seconds until it would be — counted over all
    replicas. Each allowed question is also counted locally, so a fallback starts from this replica's share."""

    def __init__(self, link: RedisLink, limit: int, window: float) -> None:
        self.link = link
        self.limit = limit
        self.window = window
        self.local = RateLimiter(limit, window, MAX_KEYS)
        self._script = link.client().register_script(WINDOW)

    def wait(self, key: str) -> float:
        try:
            ms = self.link.call(lambda r: self._script(keys=[RedisLink.key("rate", key)],
                                                       args=[self.limit, max(1, round(self.window * 1000)),
                                                             uuid.uuid4().hex], client=r))
        except SharedStateDown:
            return self.local.wait(key)
        if ms:
            return max(0.001, int(ms) / 1000)
        self.local.wait(key)  # mirrors what Redis counted (never refuses: this replica saw a subset)
        return 0.0
