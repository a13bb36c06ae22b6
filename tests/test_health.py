"""Each part is probed side by side; a probe that raises or never answers is reported, never raised or waited for."""
from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from pipeline.generators.adapter import AdapterGenerator
from pipeline.health import health
from pipeline.records import Example, Retrieved
from standins.fakes import RecordingKG


class Counted:
    def __init__(self, pairs: int) -> None:
        self.pairs = pairs

    def count(self) -> int:
        return self.pairs

    def search(self, question: str, k: int) -> list[Retrieved]:
        return []

    def add(self, examples: Sequence[Example]) -> int:
        return 0


class Broken(RecordingKG):
    name = "broken"

    def ping(self, timeout: float = 2.0) -> bool:
        raise OSError("connection refused")


class Stuck(RecordingKG):
    def __init__(self) -> None:
        super().__init__(name="stuck")
        self.release = threading.Event()

    def ping(self, timeout: float = 2.0) -> bool:
        return self.release.wait(30)  # a client that does not honour its timeout


def test_every_part_says_whether_it_is_ready_and_what_is_behind_it() -> None:
    found: dict[str, Any] = health(Counted(3), AdapterGenerator(0.45), RecordingKG(name="graph"), timeout=1)
    assert {part: {k: v for k, v in r.items() if k != "ms"} for part, r in found.items()} == {
        "store": {"name": "Counted", "ok": True, "pairs": 3},
        "generator": {"name": "adapter", "ok": True, "remote": False},
        "kg": {"name": "graph", "ok": True, "remote": False}}


def test_an_empty_store_is_not_ready_and_a_failing_probe_is_its_error() -> None:
    found = health(Counted(0), AdapterGenerator(0.45), Broken(), timeout=1)
    assert found["store"]["ok"] is False and found["store"]["pairs"] == 0
    assert found["kg"]["ok"] is False and found["kg"]["error"] == "connection refused"


def test_a_probe_past_its_timeout_is_reported_as_such() -> None:
    stuck = Stuck()
    try:
        found = health(Counted(1), AdapterGenerator(0.45), stuck, timeout=0.1)
    finally:
        stuck.release.set()
    assert found["kg"] == {"name": "stuck", "ms": 100.0, "ok": False, "error": "no answer in 0.1 s"}
