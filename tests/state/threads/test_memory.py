"""Thread memory in this process: last turns per thread, forgotten after the TTL, threads kept apart and bounded."""
from __future__ import annotations

from pipeline.state.threads.base import KEEP_TURNS, TURN_TTL_S, ThreadMemory
from pipeline.state.threads.memory import MAX_THREADS, ProcessThreadMemory, local_memory


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_turns_oldest_first_at_most_the_last_ten() -> None:
    memory: ThreadMemory = local_memory()
    for n in range(KEEP_TURNS + 3):
        memory.remember("C1:1.0", {"question": f"q{n}"})
    assert [t["question"] for t in memory.turns("C1:1.0")] == [f"q{n}" for n in range(3, KEEP_TURNS + 3)]


def test_threads_never_see_each_others_turns_and_callers_share_nothing() -> None:
    memory = local_memory()
    memory.remember("C1:1.0", {"question": "a", "names": [{"kind": "dataset", "typed": "X"}]})
    assert memory.turns("C1:2.0") == [] and memory.turns("C2:1.0") == []
    got = memory.turns("C1:1.0")
    got[0]["names"].append({"kind": "model", "typed": "Y"})
    assert memory.turns("C1:1.0")[0]["names"] == [{"kind": "dataset", "typed": "X"}]


def test_a_thread_untouched_past_the_ttl_is_forgotten() -> None:
    clock = Clock()
    memory = ProcessThreadMemory(KEEP_TURNS, 60, MAX_THREADS, clock=clock)
    memory.remember("t", {"question": "old"})
    clock.now += 61
    assert memory.turns("t") == []
    memory.remember("t", {"question": "new"})
    assert [t["question"] for t in memory.turns("t")] == ["new"]


def test_the_least_recently_used_thread_goes_first_beyond_the_bound() -> None:
    memory = ProcessThreadMemory(KEEP_TURNS, TURN_TTL_S, 2)
    for thread in ("a", "b", "c"):
        memory.remember(thread, {"question": thread})
    assert memory.turns("a") == [] and memory.turns("c") == [{"question": "c"}]
