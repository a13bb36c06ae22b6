"""The contracts of team teaching's state: 👍 proposals awaiting a maintainer (``Pending``), and long pairs kept
for their button (``Remembers``); the ``Proposal`` record and its id, the same in every backend."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Proposal:
    """A question->SPARQL pair someone said was right, awaiting a maintainer's decision."""

    id: str
    question: str
    sparql: str
    proposer: str
    channel: str
    created: float


def proposal_id(question: str, sparql: str) -> str:
    return "p-" + hashlib.sha256(f"{question}\n{sparql}".encode()).hexdigest()[:16]


MAX_PENDING = 500  # proposals awaiting a maintainer; the oldest goes first beyond this
MAX_RECENT = 2000  # long pairs kept for their 👍 in one process


class Pending(Protocol):
    """Proposals awaiting a maintainer; of several takers of one proposal, one gets it."""

    def propose(self, question: str, sparql: str, proposer: str, channel: str) -> tuple[Proposal, bool]:
        """The proposal for this pair, and whether it is new (a second 👍 on the same pair adds nothing)."""
        ...

    def get(self, pid: str) -> Proposal | None: ...

    def take(self, pid: str) -> Proposal | None:
        """Remove and return a pending proposal; None when it was decided already (or never existed)."""
        ...

    def pending(self) -> list[Proposal]: ...


class Remembers(Protocol):
    """Where long pairs are kept for their 👍 (this process's ``Recent``, or Redis for every replica)."""

    def remember(self, question: str, sparql: str) -> str: ...

    def recall(self, ref: str) -> tuple[str, str] | None: ...
