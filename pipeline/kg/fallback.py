"""The default KG: the live endpoint, falling back to the snapshot (with a dated caveat) when it cannot be reached."""
from __future__ import annotations

from dataclasses import replace

from pipeline.errors import EndpointUnreachable, KnowledgeGraphError, NotInSnapshot
from pipeline.parts import KnowledgeGraph
from pipeline.records import Rows
from pipeline.sparql.dialect import normalise


class UnreachableNotInSnapshot(EndpointUnreachable, NotInSnapshot):
    """The endpoint could not be reached, and the snapshot standing in for it holds no answer to the query."""


class FallbackKG:
    """Asks ``primary``; only when it is unreachable asks ``fallback`` and says so in the result's caveat."""

    def __init__(self, primary: KnowledgeGraph, fallback: KnowledgeGraph) -> None:
        self.primary = primary
        self.fallback = fallback
        self.name = f"{primary.name} (fallback: {fallback.name})"

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

    def ping(self, timeout: float = 2.0) -> bool:
        """The primary's reachability; the fallback is local."""
        return self.primary.ping(timeout)

    @property
    def remote(self) -> bool:
        return bool(getattr(self.primary, "remote", False))

    @property
    def virtuoso(self) -> bool:
        """The primary's dialect: the query is gated for it, and made SPARQL 1.1 for a fallback that is not."""
        return self.primary.virtuoso
