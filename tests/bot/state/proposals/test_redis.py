"""Pending proposals in Redis: proposed on one replica, decided once on any; bounded, expiring; Redis down: the
replica's own file, still found after Redis returns. Long 👍 pairs recalled on any replica."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from redis import Redis

from bot.feedback import feedback_value, read_feedback
from bot.state.proposals.base import MAX_PENDING, MAX_RECENT
from bot.state.proposals.file import Proposals
from bot.state.proposals.memory import Recent
from bot.state.proposals.redis import RECENT_TTL_S, TTL_S, RedisProposals, RedisRecent
from pipeline.state.link import RETRY_S, RedisLink
from standins.harness import MAINTAINER, Harness, button_value, shown
from standins.redis import RedisServer
from tests.bot.test_teach import thumbs_up


def replica(url: str, home: Path, **kwargs: object) -> RedisProposals:
    return RedisProposals(RedisLink(url, timeout=0.3, retry_s=0), Proposals(home / "proposals.json", MAX_PENDING),
                          **{"max_pending": MAX_PENDING, "ttl": TTL_S, **kwargs})


def test_proposed_on_one_replica_decided_once_on_another(redis_url: str, tmp_path: Path) -> None:
    a, b = replica(redis_url, tmp_path / "a"), replica(redis_url, tmp_path / "b")
    first, new = a.propose("Q?", "SELECT 1", "U1", "C1")
    assert new and b.propose("Q?", "SELECT 1", "U2", "C2") == (first, False)
    assert b.get(first.id) == first and b.pending() == [first]
    assert b.take(first.id) == first and a.take(first.id) is None and a.pending() == []
    assert not (tmp_path / "a" / "proposals.json").exists()  # nothing in either replica's files


def test_pending_proposals_are_bounded_and_expire(redis_url: str, tmp_path: Path) -> None:
    proposals = replica(redis_url, tmp_path, max_pending=3)
    for n in range(5):
        proposals.propose(f"Q{n}", "SELECT 1", "U1", "C1")
    assert [p.question for p in proposals.pending()] == ["Q2", "Q3", "Q4"]
    with Redis.from_url(redis_url, decode_responses=True) as r:
        keys = r.keys("kgqa:*")
        assert len(keys) == 4 and all(0 < r.ttl(k) <= 30 * 86400 for k in keys)


def test_with_redis_down_the_replicas_file_serves_and_is_found_afterwards(fresh_redis: RedisServer,
                                                                          tmp_path: Path) -> None:
    proposals = replica(fresh_redis.url, tmp_path)
    fresh_redis.stop()
    during, new = proposals.propose("Q?", "SELECT 1", "U1", "C1")
    assert new and (tmp_path / "proposals.json").is_file()
    fresh_redis.start()
    assert proposals.pending() == [during]
    assert proposals.take(during.id) == during and proposals.take(during.id) is None


def test_a_thumbs_up_on_one_replica_is_approved_on_another(start_bot: Callable[..., Harness], redis_url: str) -> None:
    a, b = start_bot(redis_url=redis_url), start_bot(redis_url=redis_url)
    proposal = thumbs_up(a)
    b.click("kgqa_approve", button_value(proposal, "kgqa_approve"), user=MAINTAINER, channel="DMAINT")
    b.slack.wait_for(lambda c: c.method == "chat.update" and "approved" in c.params.get("text", ""))
    a.click("kgqa_approve", button_value(proposal, "kgqa_approve"), user=MAINTAINER, channel="DMAINT", reply="again")
    assert "already decided" in shown(a.replies("again")[0])


def test_a_long_pairs_reference_is_recalled_on_another_replica(redis_url: str) -> None:
    a, b = (RedisRecent(RedisLink(redis_url, 0.5, RETRY_S), Recent(MAX_RECENT), RECENT_TTL_S) for _ in range(2))
    long_sparql = "SELECT ?x WHERE { ?x ?p ?o } # " + "x" * 3000
    value = feedback_value("Q?", long_sparql, a)
    assert "ref" in value and read_feedback(value, b) == ("Q?", long_sparql)
    with Redis.from_url(redis_url, decode_responses=True) as r:
        assert [0 < r.ttl(k) <= 7 * 86400 for k in r.keys("kgqa:pair:*")] == [True]


def test_with_redis_down_a_long_pair_is_still_recalled_where_it_was_answered(fresh_redis: RedisServer) -> None:
    recent = RedisRecent(RedisLink(fresh_redis.url, 0.3, RETRY_S), Recent(MAX_RECENT), RECENT_TTL_S)
    fresh_redis.stop()
    ref = recent.remember("Q?", "SELECT 1")
    assert recent.recall(ref) == ("Q?", "SELECT 1")
