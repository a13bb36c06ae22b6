"""The rate limit in this process: a sliding window per caller, over a bounded number of callers."""
from __future__ import annotations

import pytest

from pipeline.state.limits.memory import RateLimiter


def test_rate_limiter_counts_per_user_in_a_sliding_window() -> None:
    now = [100.0]
    limiter = RateLimiter(2, 60, clock=lambda: now[0], max_keys=10_000)
    assert limiter.wait("U1") == 0 and limiter.wait("U1") == 0
    assert limiter.wait("U1") == pytest.approx(60) and limiter.wait("U2") == 0
    now[0] += 30
    assert limiter.wait("U1") == pytest.approx(30)
    now[0] += 30.5
    assert limiter.wait("U1") == 0


def test_rate_limiter_remembers_a_bounded_number_of_users() -> None:
    limiter = RateLimiter(1, 60, max_keys=10)
    for n in range(100):
        limiter.wait(f"U{n}")
    assert len(limiter._hits) == 10
