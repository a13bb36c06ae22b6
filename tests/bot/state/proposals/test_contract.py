"""Every proposals backend keeps the same contract: a pair proposed once (a second 👍 adds nothing), found by its id,
listed while pending, taken once; and every long-pair backend recalls a pair by the reference it gave."""
from __future__ import annotations

from pathlib import Path

import pytest

from bot.state.proposals.base import MAX_PENDING, MAX_RECENT, Pending, Remembers
from bot.state.proposals.file import Proposals
from bot.state.proposals.memory import Recent
from bot.state.proposals.redis import RECENT_TTL_S, TTL_S, RedisProposals, RedisRecent
from pipeline.state.link import RETRY_S, RedisLink


@pytest.fixture(params=["memory", "file", "redis"])
def pending(request: pytest.FixtureRequest, tmp_path: Path) -> Pending:
    if request.param == "memory":
        return Proposals(None, MAX_PENDING)
    if request.param == "file":
        return Proposals(tmp_path / "proposals.json", MAX_PENDING)
    link = RedisLink(request.getfixturevalue("redis_url"), 0.5, RETRY_S)
    return RedisProposals(link, Proposals(None, MAX_PENDING), MAX_PENDING, TTL_S)


@pytest.fixture(params=["memory", "redis"])
def recent(request: pytest.FixtureRequest) -> Remembers:
    if request.param == "memory":
        return Recent(MAX_RECENT)
    return RedisRecent(RedisLink(request.getfixturevalue("redis_url"), 0.5, RETRY_S), Recent(MAX_RECENT), RECENT_TTL_S)


def test_a_pair_is_proposed_once_found_listed_and_taken_once(pending: Pending) -> None:
    proposal, new = pending.propose("Which model is best on SQuAD?", "SELECT 1", "U1", "C1")
    assert new and (proposal.question, proposal.sparql, proposal.proposer, proposal.channel) == (
        "Which model is best on SQuAD?", "SELECT 1", "U1", "C1")
    assert pending.propose("Which model is best on SQuAD?", "SELECT 1", "U2", "C2") == (proposal, False)
    other, _ = pending.propose("Which model is best on SQuAD?", "SELECT 2", "U1", "C1")
    assert pending.get(proposal.id) == proposal and {p.id for p in pending.pending()} == {proposal.id, other.id}
    assert pending.take(proposal.id) == proposal and pending.take(proposal.id) is None
    assert pending.get(proposal.id) is None and pending.pending() == [other]


def test_an_unknown_proposal_is_none(pending: Pending) -> None:
    assert pending.get("p-0000000000000000") is None and pending.take("p-0000000000000000") is None


def test_a_pair_is_recalled_by_its_reference_and_an_unknown_one_is_none(recent: Remembers) -> None:
    ref = recent.remember("Which model is best on SQuAD?", "SELECT " + "?x " * 500)
    assert recent.recall(ref) == ("Which model is best on SQuAD?", "SELECT " + "?x " * 500)
    assert recent.remember("Which model is best on SQuAD?", "SELECT " + "?x " * 500) == ref
    assert recent.recall("p-0000000000000000") is None
