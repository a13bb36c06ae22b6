"""A stage runs inside what is left of the question's budget, on threads its Deadline owns until ``close()``."""
from __future__ import annotations

import threading

import pytest

from pipeline.deadline import Deadline, Stage, timed
from pipeline.errors import DeadlinePassed


def test_without_a_budget_a_stage_runs_on_the_callers_thread() -> None:
    with Deadline(None, 1) as deadline:
        assert deadline.start().within("retrieval", threading.current_thread) is threading.current_thread()


def test_a_stage_past_the_budget_is_abandoned_and_named() -> None:
    release, watch = threading.Event(), Stage()
    stopped: list[bool] = []
    watch.on_abandon(lambda: stopped.append(True))
    with Deadline(0.2, 1) as deadline:
        with pytest.raises(DeadlinePassed, match="the generation step did not finish within the question's time "
                                                 "budget of 0 s"):
            deadline.start().within("generation", lambda: release.wait(30), watch)
        release.set()
    assert stopped == [True]


def test_a_question_that_spent_its_budget_starts_no_further_stage() -> None:
    ran: list[str] = []
    with Deadline(0.001, 1) as deadline:
        clock = deadline.start()
        clock.started -= 1  # a second already gone
        with pytest.raises(DeadlinePassed, match="ran out before the knowledge-graph step"):
            clock.within("knowledge-graph", lambda: ran.append("kg"))
    assert not ran


def test_close_ends_the_stage_threads_and_refuses_new_stages() -> None:
    deadline = Deadline(30, 2)
    worker = deadline.start().within("retrieval", threading.current_thread)
    assert worker is not threading.current_thread() and worker.is_alive()  # an idle stage thread, kept for reuse
    deadline.close()
    worker.join(10)
    assert not worker.is_alive()
    with pytest.raises(RuntimeError):
        deadline.start().within("retrieval", threading.current_thread)


def test_timed_adds_a_stages_time_even_when_it_raises() -> None:
    timings: dict[str, float] = {"kg": 1.0}
    with pytest.raises(ValueError), timed(timings, "kg"):
        raise ValueError("x")
    assert timings["kg"] > 1.0
