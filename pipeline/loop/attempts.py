"""The record of a language model's replies (``Generation.attempts``) kept whole as a query moves on."""
from __future__ import annotations

from dataclasses import replace

from pipeline.records import Ask, Generation, Verdict


def passed_over(first: Generation, second: Generation | None, why: str) -> Generation:
    """``first`` standing after the pipeline did not use ``second`` (the query after an empty answer or a decline), with
    ``second``'s reply kept on the record and why it was not used."""
    if second is None or len(second.attempts) <= len(first.attempts):
        return first
    *before, last = second.attempts
    if last.ask in (Ask.EMPTY, Ask.DECLINED) and last.verdict is Verdict.TAKEN:
        last = replace(last, verdict=Verdict.NOT_TAKEN, why=why if second.sparql else "the intent guard declined it")
    return replace(first, attempts=(*before, last))
