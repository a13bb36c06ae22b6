"""What a check says of a query (``Judgement``), and the draft it says it of."""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from pipeline.records import Ask, Choice, Generation, Resolution, Verdict


class Call(StrEnum):
    """The one kind of thing a check says of a query."""

    PASS = "pass"  # the query goes on as it is
    FIXED = "fixed"  # the check changed it (a repair, a name respelled, labels selected): go on with its version
    ASK_AGAIN = "ask_again"  # the language model is asked again, told why (once per kind of fault)
    NEXT = "next_writer"  # the next writer takes over (the composer's query, when the check wrote one)
    DECLINE = "decline"  # it does not run: the reply says why and offers the closest question


@dataclass(frozen=True)
class Judgement:
    """A check's verdict on one query. ``generation``: for FIXED, what goes on; for NEXT, the next writer's query when
    the check wrote it (the composer's); for DECLINE, the decline (no query, its explanation and record)."""

    call: Call
    check: str
    generation: Generation | None = None
    why: str = ""  # as a phrase: what the query lacks or does wrong ("" for PASS and FIXED)
    ask: Ask | None = None  # ASK_AGAIN: the follow-up the model is sent
    told: str = ""  # ASK_AGAIN: what the model is told
    note: str = ""  # ASK_AGAIN: the note its next query carries
    verdict: Verdict = Verdict.TAKEN  # ASK_AGAIN: what became of the reply, on its attempt record
    offer: str = ""  # DECLINE: the closest question that can be answered
    choices: tuple[Choice, ...] = ()  # DECLINE: what the answer depends on, for the user to pick
    resolutions: tuple[Resolution, ...] = ()  # the names step's reading of the query's names
    sparql: str = ""  # the query to run when a check respelled it (the names step); "": ``generation``'s

    @property
    def stands(self) -> bool:
        return self.call in (Call.PASS, Call.FIXED)


def passed(check: str, before: Generation, after: Generation, resolutions: tuple[Resolution, ...] = (),
           sparql: str = "") -> Judgement:
    """PASS when the check left the generation (and the query to run) as it was, else FIXED with its version."""
    same = after == before and sparql in ("", before.sparql)
    return Judgement(Call.PASS if same else Call.FIXED, check, after, resolutions=resolutions, sparql=sparql)


def noted(generation: Generation, notes: tuple[str, ...]) -> Generation:
    return replace(generation, notes=generation.notes + notes) if notes else generation
