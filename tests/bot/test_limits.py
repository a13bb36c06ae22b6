"""The bot's load limits, read from settings."""
from __future__ import annotations

from bot.limits import SEEN_EVENTS, Limits
from pipeline.settings import Settings


def test_limits_take_what_settings_offer(settings: Settings) -> None:
    assert Limits.from_settings(settings) == Limits(queue_size=50, user_questions=6, user_window_s=60.0,
                                                    seen_events=SEEN_EVENTS)
