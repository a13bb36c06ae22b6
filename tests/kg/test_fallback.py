"""The default KG: live endpoint first, the snapshot with a dated caveat only when the endpoint is unreachable."""
from __future__ import annotations

import pytest

from pipeline.errors import EndpointUnreachable, KnowledgeGraphError, NotInSnapshot
from pipeline.kg.endpoint import EndpointKG
from pipeline.kg.fallback import FallbackKG
from pipeline.kg.snapshot import SnapshotKG
from pipeline.sciqa import SciQA
from standins.fakes import RecordingKG, failing_kg
from standins.virtuoso import VirtuosoServer


def closed_port_kg() -> EndpointKG:
    return EndpointKG("http://127.0.0.1:9/sparql", timeout=2, row_cap=1000, agent="kgqa-bot", retries=2)


def test_a_reachable_endpoint_answers_and_the_snapshot_is_not_asked(virtuoso: VirtuosoServer) -> None:
    spare = RecordingKG()
    kg = FallbackKG(EndpointKG(virtuoso.endpoint, timeout=10, row_cap=1000, agent="kgqa-bot", retries=2), spare)
    rows = kg.select("SELECT ?s WHERE { ?s a <http://orkg.org/orkg/class/Dataset> } LIMIT 3")
    assert len(rows.rows) == 3 and not rows.caveat and spare.queries == []


def test_an_unreachable_endpoint_falls_back_to_the_snapshot_with_a_dated_caveat(sciqa: SciQA) -> None:
    rec = sciqa.split("test")[3]
    rows = FallbackKG(closed_port_kg(), SnapshotKG(sciqa.all())).select(rec.sparql)
    assert rows.flat() == list(rec.flat_answer)
    assert "could not be reached" in rows.caveat and "early 2023" in rows.caveat


def test_a_query_error_is_not_hidden_by_the_fallback() -> None:
    spare = RecordingKG()
    with pytest.raises(KnowledgeGraphError, match="rejected"):
        FallbackKG(failing_kg("the endpoint rejected the query"), spare).select("SELECT * WHERE { ?s ?p ?o }")
    assert spare.queries == []


def test_unreachable_and_not_in_snapshot_says_both(sciqa: SciQA) -> None:
    with pytest.raises(EndpointUnreachable, match="could not be reached.*not in snapshot") as raised:
        FallbackKG(closed_port_kg(), SnapshotKG(sciqa.all())).select("SELECT ?x WHERE { ?x ?p 'nothing' }")
    assert isinstance(raised.value, NotInSnapshot)  # evaluation counts it as "not in snapshot"
