"""Dedup in this process is bounded: beyond ``maxsize`` keys the oldest is forgotten (first-once, even under a race,
is the contract every backend keeps: ``test_contract.py``)."""
from __future__ import annotations

from bot.state.dedup.memory import Seen


def test_seen_is_bounded_and_forgets_the_oldest() -> None:
    seen = Seen(maxsize=3)
    assert all(seen.first(k) for k in "abcd")
    assert len(seen) == 3 and seen.first("a") and not seen.first("d")
