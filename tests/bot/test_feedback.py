"""What a 👍 button carries: the pair itself, or a reference to it when it would not fit."""
from __future__ import annotations

from bot.feedback import feedback_value, read_feedback
from bot.state.proposals.base import MAX_RECENT
from bot.state.proposals.memory import Recent


def test_feedback_values_round_trip_and_long_pairs_go_by_reference() -> None:
    recent = Recent(MAX_RECENT)
    short = feedback_value("Q?", "SELECT 1", recent)
    assert read_feedback(short, recent) == ("Q?", "SELECT 1")
    long = feedback_value("Q?", "SELECT " + "?x " * 1000, recent)
    assert len(long) < 100 and read_feedback(long, recent) == ("Q?", "SELECT " + "?x " * 1000)
    assert read_feedback(long, Recent(MAX_RECENT)) is None  # forgotten after a restart
    assert read_feedback("not json", recent) is None and read_feedback('{"q": 1, "s": 2}', recent) is None
    assert read_feedback("[]", recent) is None
