"""Pending proposals in a file: they survive a restart, are decided once, and replicas sharing the file agree."""
from __future__ import annotations

from pathlib import Path

import pytest

from bot.state.proposals.base import MAX_PENDING
from bot.state.proposals.file import Proposals


def test_proposals_persist_and_are_taken_once(tmp_path: Path) -> None:
    path = tmp_path / "bot" / "proposals.json"
    first, new = Proposals(path, MAX_PENDING).propose("Q?", "SELECT 1", "U1", "C1")
    assert new and path.is_file()
    again = Proposals(path, MAX_PENDING)  # a restart
    assert again.propose("Q?", "SELECT 1", "U2", "C2") == (first, False)
    assert again.take(first.id) == first and again.take(first.id) is None
    assert Proposals(path, MAX_PENDING).pending() == []


def test_a_corrupt_file_starts_empty_with_a_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "proposals.json"
    path.write_text("{not json", encoding="utf-8")
    assert Proposals(path, MAX_PENDING).pending() == [] and "unreadable" in caplog.text


def test_pending_proposals_are_bounded() -> None:
    proposals = Proposals(None, max_pending=3)
    for n in range(5):
        proposals.propose(f"Q{n}", "SELECT 1", "U1", "C1")
    assert [p.question for p in proposals.pending()] == ["Q2", "Q3", "Q4"]


def test_replicas_sharing_the_file_see_each_others_proposals(tmp_path: Path) -> None:
    path = tmp_path / "shared" / "proposals.json"
    a, b = Proposals(path, MAX_PENDING), Proposals(path, MAX_PENDING)  # two processes' views of one file
    first, _ = a.propose("Q1?", "SELECT 1", "U1", "C1")
    second, _ = b.propose("Q2?", "SELECT 2", "U2", "C2")
    assert [p.id for p in a.pending()] == [first.id, second.id]
    assert a.take(second.id) == second and b.take(second.id) is None  # decided once, whichever replica decides
    assert [p.id for p in Proposals(path, MAX_PENDING).pending()] == [first.id]
    assert sorted(f.name for f in path.parent.iterdir()) == ["proposals.json", "proposals.lock"]  # no temp files left
