"""What the answer says about which writer's query it runs and why the writers before it gave way
(``Generation.notes``), and the explanation when no writer wrote a query."""
from __future__ import annotations

from dataclasses import replace

from pipeline.records import Attempt, Generation

BY_ADAPTER = "this answer was written by the offline adapter"
BY_ADAPTER_FIRST = "the offline adapter wrote this query (adapter first)"
BY_MODEL = "the language model wrote this query"
BY_READER = "the language model read the question as one the project answers"
MAX_REASON = 200
ADAPTER, MODEL, READER = "adapter", "model", "reader"  # a writer's role (``Writer.role``)
_BY = {ADAPTER: BY_ADAPTER, MODEL: BY_MODEL, READER: BY_READER}


def clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_REASON else text[:MAX_REASON - 1] + "…"


def gave_way(g: Generation, role: str, raised: str = "", failing: str = "") -> str:
    """Why a writer (of ``role``) gave way, as a phrase: it raised (``raised``), its query failed a check
    (``failing``: why), or it wrote none."""
    if role == READER:
        if raised:
            return f"the language model could not read the question ({clip(raised)})"
        if failing:
            return f"the query of the language model's reading was not run ({clip(failing)})"
        return f"the language model read the question as none it was shown ({clip(g.reason or 'no reading')})"
    if role == MODEL:
        if raised:
            return f"the language model failed ({clip(raised)})"
        if failing:
            return f"the language model's query was not run ({clip(failing)})"
        return f"the language model wrote no usable query ({clip(g.reason or g.explanation or 'no text')})"
    return f"the offline adapter declined ({clip(failing or g.reason or g.explanation or 'it wrote no query')})"


def taken_after(taken: Generation, role: str, why: str, attempts_before: tuple[Attempt, ...] = ()) -> Generation:
    """The taken query's generation, saying why the writer before it gave way; the earlier model's replies kept."""
    kept = taken.attempts or attempts_before
    return replace(taken, notes=(f"{why}; {_BY[role]}",) + taken.notes, attempts=kept)


def blank_after(first: Generation, first_role: str, first_raised: str, later: Generation, later_role: str,
                later_raised: str) -> Generation:
    """Neither of two writers wrote a query: the first's generation with the later one's reason after it."""
    if first_role == MODEL and later_role == ADAPTER:  # a model, then the adapter behind it
        if first_raised:
            return replace(later, explanation=f"The language model failed ({clip(first_raised)}), and the offline "
                                              f"adapter could not write a query either: {later.explanation}")
        return replace(first, explanation=f"{first.explanation} The offline adapter could not write one either: "
                                          f"{later.explanation}".strip())
    said = f"could not be asked ({clip(later_raised)})" if later_raised else \
        f"wrote no usable query ({clip(later.reason or later.explanation or 'no text')})"
    who = "the offline adapter" if later_role == ADAPTER else "the language model"
    why = gave_way(first, first_role, first_raised)
    return replace(first, notes=first.notes + (f"{why}; {who} {said}",),
                   explanation=f"{first.explanation} {who[0].upper()}{who[1:]} was asked too, and {said}.".strip(),
                   attempts=later.attempts or first.attempts)
