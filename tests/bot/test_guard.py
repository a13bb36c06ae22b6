"""Dedup and the bot's load knobs, on their own."""
from __future__ import annotations

import threading

from bot.guard import SEEN_EVENTS, Limits, Seen
from pipeline.settings import Settings


def test_seen_says_first_exactly_once_even_under_a_race() -> None:
    seen = Seen(maxsize=100)
    results: list[bool] = []
    start = threading.Barrier(16)

    def hit() -> None:
        start.wait()
        results.append(seen.first("event:Ev1"))

    threads = [threading.Thread(target=hit) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(True) == 1 and len(results) == 16


def test_seen_is_bounded_and_forgets_the_oldest() -> None:
    seen = Seen(maxsize=3)
    assert all(seen.first(k) for k in "abcd")
    assert len(seen) == 3 and seen.first("a") and not seen.first("d")


def test_limits_take_what_settings_offer(settings: Settings) -> None:
    assert Limits.from_settings(settings) == Limits(queue_size=50, user_questions=6, user_window_s=60.0,
                                                    seen_events=SEEN_EVENTS)
