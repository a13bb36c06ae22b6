"""Pending 👍 proposals in Redis, so that a maintainer's Approve may reach any replica: one key per proposal (expiring
``ttl`` s after it was made) and a sorted set by age that keeps at most ``max_pending``. Taking one is one ``GETDEL``:
of two maintainers clicking on two replicas, one decides. While Redis is unavailable the replica's own file serves
(``bot.state.proposals.file.Proposals``), and is still looked at afterwards for what was proposed meanwhile."""
from __future__ import annotations

import json
import time
from dataclasses import asdict

from bot.state.proposals.base import Pending, Proposal, Remembers, proposal_id
from pipeline.state.link import INDEX_ADD, RedisLink, SharedStateDown

TTL_S = 30 * 86400.0  # a proposal no maintainer decided within a month is dropped
RECENT_TTL_S = 7 * 86400.0  # a 👍 on an answer older than a week may no longer find a long pair
INDEX = RedisLink.key("proposals")
# KEYS[1] the proposal, KEYS[2] the index; ARGV: value, created, ttl (s), max pending, id, key prefix.
# Returns the stored value: the new one, or the one already pending for this pair.
PROPOSE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[3]) == false then
  return redis.call('GET', KEYS[1])
end
""" + INDEX_ADD + "return ARGV[1]"


def _key(pid: str) -> str:
    return RedisLink.key("proposal", pid)


class RedisProposals:
    """``Pending`` shared by every replica; while Redis is unavailable ``local`` serves."""

    def __init__(self, link: RedisLink, local: Pending, max_pending: int, ttl: float) -> None:
        self.link = link
        self.local = local
        self.max_pending = max_pending
        self.ttl = ttl
        self._propose = link.client().register_script(PROPOSE)

    def propose(self, question: str, sparql: str, proposer: str, channel: str) -> tuple[Proposal, bool]:
        pid = proposal_id(question, sparql)
        proposal = Proposal(pid, question, sparql, proposer, channel, time.time())
        value = json.dumps(asdict(proposal), ensure_ascii=False)
        try:
            stored = self.link.call(lambda r: self._propose(
                keys=[_key(pid), INDEX], args=[value, proposal.created, round(self.ttl), self.max_pending, pid,
                                               _key("")], client=r))
        except SharedStateDown:
            return self.local.propose(question, sparql, proposer, channel)
        return (proposal, True) if stored == value else (Proposal(**json.loads(stored)), False)

    def get(self, pid: str) -> Proposal | None:
        try:
            value = self.link.call(lambda r: r.get(_key(pid)))
        except SharedStateDown:
            value = None
        return Proposal(**json.loads(value)) if value else self.local.get(pid)

    def take(self, pid: str) -> Proposal | None:
        """Remove and return a pending proposal; None when it was decided already (on any replica)."""
        def getdel(r: object) -> object:
            pipe = r.pipeline(transaction=True)  # type: ignore[attr-defined]
            pipe.getdel(_key(pid))
            pipe.zrem(INDEX, pid)
            return pipe.execute()[0]

        try:
            value = self.link.call(getdel)
        except SharedStateDown:
            value = None
        return Proposal(**json.loads(str(value))) if value else self.local.take(pid)

    def pending(self) -> list[Proposal]:
        try:
            values = self.link.call(lambda r: r.mget([_key(str(pid)) for pid in r.zrange(INDEX, 0, -1)] or [_key("")]))
        except SharedStateDown:
            values = []
        shared = [Proposal(**json.loads(v)) for v in values if v]
        known = {p.id for p in shared}
        return shared + [p for p in self.local.pending() if p.id not in known]


class RedisRecent:
    """``Remembers`` shared by replicas: a 👍 whose pair was too long for its button may be clicked on any replica.
    Each pair expires ``ttl`` s after its answer; while Redis is unavailable the process's own (``local``) serves."""

    def __init__(self, link: RedisLink, local: Remembers, ttl: float) -> None:
        self.link = link
        self.local = local
        self.ttl = ttl

    def remember(self, question: str, sparql: str) -> str:
        ref = self.local.remember(question, sparql)
        value = json.dumps([question, sparql], ensure_ascii=False)
        try:
            self.link.call(lambda r: r.set(RedisLink.key("pair", ref), value, ex=round(self.ttl)))
        except SharedStateDown:
            pass  # this replica still knows it
        return ref

    def recall(self, ref: str) -> tuple[str, str] | None:
        try:
            value = self.link.call(lambda r: r.get(RedisLink.key("pair", ref)))
        except SharedStateDown:
            value = None
        if not value:
            return self.local.recall(ref)
        question, sparql = json.loads(value)
        return str(question), str(sparql)
