"""The endpoint client against the SPARQL endpoint stand-in: bounded retries where a retry is safe, none where it is
not, and malformed answers treated as no answer (so the snapshot or the cache can stand in)."""
from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from pipeline.errors import EndpointUnreachable
from pipeline.kg.endpoint import RETRIES, EndpointKG, NotSparqlResults
from pipeline.kg.fallback import FallbackKG
from pipeline.records import Rows
from standins.fakes import RecordingKG
from standins.sparql_endpoint import EndpointServer, refused_url

QUERY = "SELECT ?x WHERE { ?x ?p ?o } LIMIT 1"


@pytest.fixture
def endpoint() -> Iterator[EndpointServer]:
    with EndpointServer(RecordingKG(name="orkg"), hang_seconds=10) as srv:
        yield srv


@pytest.mark.parametrize("fault", ["503", "reset"])
def test_a_gateway_error_or_a_dropped_connection_is_retried(endpoint: EndpointServer, fault: str) -> None:
    endpoint.set_fault(fault, times=RETRIES)
    assert EndpointKG(endpoint.url, timeout=5, row_cap=1000, agent="kgqa-bot", retries=2).select(QUERY).flat() == ["42"]
    assert len(endpoint.queries) == RETRIES + 1


def test_retries_are_bounded(endpoint: EndpointServer) -> None:
    endpoint.set_fault("503")
    with pytest.raises(EndpointUnreachable, match="unavailable"):
        EndpointKG(endpoint.url, timeout=5, row_cap=1000, agent="kgqa-bot", retries=2).select(QUERY)
    assert len(endpoint.queries) == RETRIES + 1


@pytest.mark.parametrize("fault", ["500", "html", "bad_json"])
def test_errors_and_malformed_answers_are_not_retried(endpoint: EndpointServer, fault: str) -> None:
    endpoint.set_fault(fault)
    with pytest.raises(Exception) as err:
        EndpointKG(endpoint.url, timeout=5, row_cap=1000, agent="kgqa-bot", retries=2).select(QUERY)
    assert len(endpoint.queries) == 1
    assert isinstance(err.value, NotSparqlResults) == (fault != "500")


def test_a_timeout_is_not_retried(endpoint: EndpointServer) -> None:
    endpoint.set_fault("hang")
    started = time.monotonic()
    with pytest.raises(EndpointUnreachable, match="did not answer in 0.5 s"):
        EndpointKG(endpoint.url, timeout=0.5, row_cap=1000, agent="kgqa-bot", retries=2).select(QUERY)
    assert time.monotonic() - started < 1.5 and len(endpoint.queries) == 1


def test_a_malformed_answer_lets_the_fallback_answer(endpoint: EndpointServer) -> None:
    endpoint.set_fault("html")
    spare = RecordingKG(Rows(["x"], [{"x": {"type": "literal", "value": "recorded"}}], caveat="from 2023"))
    live = EndpointKG(endpoint.url, timeout=5, row_cap=1000, agent="kgqa-bot", retries=2)
    rows = FallbackKG(live, spare).select(QUERY)
    assert rows.flat() == ["recorded"] and "not SPARQL JSON results" in rows.caveat


def test_ping_has_its_own_short_timeout(endpoint: EndpointServer) -> None:
    kg = EndpointKG(endpoint.url, timeout=30, row_cap=1000, agent="kgqa-bot", retries=2)
    assert kg.ping(1) is True
    endpoint.set_fault("hang")
    started = time.monotonic()
    assert kg.ping(0.3) is False and time.monotonic() - started < 1.5
    with refused_url() as url:
        assert EndpointKG(url, timeout=30.0, row_cap=1000, agent="kgqa-bot", retries=2).ping(1) is False
