"""An Answer is a value: a step that adds to it makes a new one, and nobody writes into one already handed out."""
from __future__ import annotations

from dataclasses import FrozenInstanceError, replace

import pytest

from pipeline.records import Answer, Outcome, Rows


def test_a_frozen_answer_refuses_assignment_and_a_later_step_makes_a_new_one() -> None:
    answer = Answer("Which model is best?", kg="snapshot")
    with pytest.raises(FrozenInstanceError):
        answer.outcome = Outcome.ANSWERED  # type: ignore[misc]
    ran = replace(answer, rows=Rows(["x"], [{"x": {"type": "literal", "value": "1"}}]), outcome=Outcome.ANSWERED)
    assert ran.to_json()["flat_answer"] == ["1"] and ran.outcome is Outcome.ANSWERED
    assert answer.rows is None and answer.outcome is Outcome.FAILED
