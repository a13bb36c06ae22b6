"""A writer's query as the checks left it (``Draft``), and what the answer says about whose query it runs and why
the writers before it gave way."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pipeline.loop.notes import ADAPTER, BY_ADAPTER_FIRST, blank_after, clip, gave_way, taken_after
from pipeline.loop.verdicts import Judgement, noted
from pipeline.loop.writers import Writer
from pipeline.records import Choice, Generation, Resolution


@dataclass
class Draft:
    """A writer's generation as written (``written``) and as the checks left it (``generation``); ``failed``: the
    verdict that stopped it (None: it passes); ``raised``: why the writer could not be asked at all."""

    writer: Writer
    written: Generation
    generation: Generation
    failed: Judgement | None = None
    resolutions: tuple[Resolution, ...] = ()
    offer: str = ""
    choices: tuple[Choice, ...] = ()
    raised: str = ""
    sparql: str = ""  # the query to run, as the names step left it ("": the generation's)

    @property
    def runs(self) -> str:
        return self.sparql or self.generation.sparql or ""

    @property
    def ok(self) -> bool:
        return self.failed is None and bool(self.generation.sparql)

    @property
    def wrote(self) -> bool:
        return bool(self.written.sparql)

    @property
    def ruled(self) -> bool:
        """The intent step answered for the writer: its own query passed (composed from a reading of every word,
        compiled, or a taught pair's), or it asks the question back."""
        return bool(self.choices) or (self.ok and self.generation.generator != self.writer.label)



def taken(draft: Draft, before: Draft | None, writers: int) -> Draft:
    """The passing draft, saying why the writer before it gave way."""
    g = draft.generation
    if before is None:
        if writers > 1 and draft.writer.role == ADAPTER and g.generator == draft.writer.label:
            g = noted(g, (BY_ADAPTER_FIRST,))
        return replace(draft, generation=g)
    if g.generator != draft.writer.label:  # the composer's query: it says why it took over
        return draft
    return replace(draft, generation=after(g, draft.writer.role, before))


def after(g: Generation, role: str, before: Draft) -> Generation:
    """``g`` saying why the writer before it gave way (the earlier model's replies kept)."""
    why = gave_way(before.written, before.writer.role, before.raised, failing(before))
    return taken_after(g, role, why, before.written.attempts)


def failing(draft: Draft) -> str:
    """Why a draft's query did not pass, as its check says it ("" when it wrote none)."""
    if not draft.wrote or draft.failed is None:
        return ""
    return draft.failed.why if draft.failed.check == "names" else reason_of(draft.generation)


def reason_of(g: Generation) -> str:
    return g.reason or g.explanation or "it wrote no query"


def standing_of(standing: Draft, drafts: Sequence[Draft]) -> Draft:
    """A failing query stands: why the writer before it gave way, and a later model that wrote none, in its notes."""
    at = drafts.index(standing)
    g = after(standing.generation, standing.writer.role, drafts[at - 1]) if at else standing.generation
    later = [b for b in drafts[at + 1:] if b.writer.model and not b.wrote and not standing.writer.model]
    if later:
        b = later[-1]
        said = f"could not be asked ({clip(b.raised)})" if b.raised else \
            f"wrote no usable query ({clip(b.written.reason or b.written.explanation or 'no text')})"
        why = gave_way(standing.written, standing.writer.role, "", failing(standing))
        g = noted(g, (f"{why}; the language model {said}",))
        g = replace(g, attempts=g.attempts or b.written.attempts)
    return replace(standing, generation=g)


def blank(drafts: Sequence[Draft]) -> Draft:
    """No writer wrote a query: the first writer's decline, each later writer's reason after it; the closest question
    the composer's turn found."""
    first = drafts[0]
    out = first.generation
    for b in drafts[1:]:
        out = blank_after(out, first.writer.role, first.raised, b.generation, b.writer.role, b.raised)
    offer = next((d.offer for d in drafts if d.offer), "")
    choices = next((d.choices for d in drafts if d.choices), ())
    return replace(first, generation=out, offer=offer, choices=choices)
