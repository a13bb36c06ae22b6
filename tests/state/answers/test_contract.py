"""Every answer-cache backend keeps the same contract: a miss is None, a stored entry comes back whole with when it
was stored, a new entry replaces the old, and endpoints keep their own entries."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from pipeline.records import Rows
from pipeline.state.answers.base import Answers
from pipeline.state.answers.redis import KEEP_S, RedisAnswers
from pipeline.state.answers.sqlite import SqliteAnswers
from pipeline.state.link import RETRY_S, RedisLink

ENDPOINT = "http://orkg.test/sparql"
ROWS = Rows(["v0"], [{"v0": {"type": "literal", "value": "42"}}], None, "endpoint", "capped at 1 row")


@pytest.fixture(params=["sqlite", "redis"])
def answers(request: pytest.FixtureRequest, tmp_path: Path) -> Answers:
    if request.param == "sqlite":
        return SqliteAnswers(tmp_path / "answers.sqlite3", 100)
    return RedisAnswers(RedisLink(request.getfixturevalue("redis_url"), 0.5, RETRY_S), 100, KEEP_S)


def test_a_miss_then_the_stored_rows_with_when(answers: Answers) -> None:
    assert answers.get(ENDPOINT, "SELECT 1") is None
    before = time.time()
    answers.put(ENDPOINT, "SELECT 1", ROWS)
    hit = answers.get(ENDPOINT, "SELECT 1")
    assert hit is not None and hit[0] == ROWS and before - 1 <= hit[1] <= time.time() + 1


def test_a_new_entry_replaces_the_old_and_endpoints_keep_their_own(answers: Answers) -> None:
    answers.put(ENDPOINT, "SELECT 1", ROWS)
    newer = Rows(["v0"], [], None, "endpoint")
    answers.put(ENDPOINT, "SELECT 1", newer)
    hit = answers.get(ENDPOINT, "SELECT 1")
    assert hit is not None and hit[0] == newer
    assert answers.get("http://elsewhere.test/sparql", "SELECT 1") is None
