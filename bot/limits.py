"""The bot's load limits: how many questions may wait, how many one person may ask, how many events dedup
remembers (the rate limit and the worker pool themselves are in ``pipeline.state``, shared with the MCP server)."""
from __future__ import annotations

from dataclasses import dataclass

from pipeline.settings import Settings

SEEN_EVENTS = 20_000  # event ids and message keys remembered for dedup (a retry comes within minutes)


@dataclass(frozen=True)
class Limits:
    """The bot's load knobs; ``workers`` and the question cap come from Settings."""

    queue_size: int  # questions waiting beyond the busy workers before new ones are turned away
    user_questions: int  # questions one user may ask ...
    user_window_s: float  # ... within this many seconds
    seen_events: int  # event ids and message keys remembered for dedup

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        return cls(queue_size=settings.queue_size, user_questions=settings.user_questions,
                   user_window_s=settings.user_window_s, seen_events=SEEN_EVENTS)
