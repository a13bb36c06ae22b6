"""Every rate-limit backend keeps the same contract: ``limit`` events per caller in the window, then a wait no longer
than the window; callers counted apart."""
from __future__ import annotations

import pytest

from pipeline.state.limits.base import RateLimit
from pipeline.state.limits.memory import MAX_KEYS, RateLimiter
from pipeline.state.limits.redis import RedisRateLimiter
from pipeline.state.link import RETRY_S, RedisLink


@pytest.fixture(params=["memory", "redis"])
def limiter(request: pytest.FixtureRequest) -> RateLimit:
    if request.param == "memory":
        return RateLimiter(2, 60.0, MAX_KEYS)
    return RedisRateLimiter(RedisLink(request.getfixturevalue("redis_url"), 0.5, RETRY_S), 2, 60.0)


def test_a_caller_gets_limit_events_then_waits_at_most_the_window(limiter: RateLimit) -> None:
    assert (limiter.limit, limiter.window) == (2, 60.0)
    assert limiter.wait("U1") == 0 and limiter.wait("U1") == 0
    assert 0 < limiter.wait("U1") <= 60.0
    assert 0 < limiter.wait("U1") <= 60.0  # a refused event is not counted, nor does it reset the wait


def test_callers_are_counted_apart(limiter: RateLimit) -> None:
    assert limiter.wait("U1") == 0 and limiter.wait("U1") == 0 and limiter.wait("U1") > 0
    assert limiter.wait("U2") == 0
