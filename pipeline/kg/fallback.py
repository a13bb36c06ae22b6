"""The default KG: the live endpoint, falling back to the snapshot (with a dated caveat) when it cannot be reached."""
from __future__ import annotations

from dataclasses import replace

from pipeline.errors import EndpointUnreachable, KnowledgeGraphError, NotInSnapshot
from pipeline.parts import KGWrapper, KnowledgeGraph
from pipeline.records import Rows
from pipeline.sparql.dialect import normalise


class UnreachableNotInSnapshot(EndpointUnreachable, NotInSnapshot):
    """The endpoint could not be reached, and the snapshot standing in for it holds no answer to the query."""


class FallbackKG(KGWrapper):
    """Asks ``primary``; only when it is unreachable asks ``fallback`` and says so in the result's caveat. Its dialect
    is the primary's: the query is gated for it, and made SPARQL 1.1 for a fallback that does not speak it."""

    def __init__(self, primary: KnowledgeGraph, fallback: KnowledgeGraph) -> None:
        super().__init__(primary, f"{primary.name} (fallback: {fallback.name})")
        self.fallback = fallback

    @property
    def primary(self) -> KnowledgeGraph:
        """The graph asked first: the part wrapped (its ping, server and dialect are this one's)."""
        return self.inner

    def select(self, query: str) -> Rows:
        try:
            return self.primary.select(query)
        except EndpointUnreachable as exc:
            try:
                rows = self.fallback.select(query if self.fallback.virtuoso else normalise(query).query)
            except KnowledgeGraphError as inner:
                kind = UnreachableNotInSnapshot if isinstance(inner, NotInSnapshot) else EndpointUnreachable
                raise kind(f"{exc}; and the offline {self.fallback.name} has no answer ({inner})") from exc
            return replace(rows, caveat=f"{exc}. Showing the answer {rows.caveat}")
