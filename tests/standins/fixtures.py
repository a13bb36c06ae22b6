"""Pytest fixtures for the knowledge-graph stand-ins: register with ``pytest_plugins = ["tests.standins.fixtures"]``
in ``tests/conftest.py``."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.kg.oxigraph import OxigraphKG
from standins.orkg_fixture import write_ntriples
from standins.redis import RedisServer
from standins.virtuoso import VirtuosoServer


@pytest.fixture(scope="session")
def orkg_fixture_nt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ORKG-shaped fixture graph as an N-Triples file."""
    return write_ntriples(tmp_path_factory.mktemp("orkg") / "orkg_fixture.nt")


@pytest.fixture(scope="session")
def virtuoso(orkg_fixture_nt: Path) -> Iterator[VirtuosoServer]:
    """Virtuoso on loopback with the fixture graph loaded; ``.endpoint`` is its /sparql URL."""
    with VirtuosoServer(orkg_fixture_nt) as server:
        yield server


@pytest.fixture(scope="session")
def local_kg(orkg_fixture_nt: Path) -> OxigraphKG:
    """The fixture graph in an in-memory pyoxigraph store."""
    return OxigraphKG(orkg_fixture_nt, row_cap=1000)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """One real redis-server for the session; tests that stop it use ``fresh_redis`` instead."""
    with RedisServer() as server:
        yield server


@pytest.fixture
def fresh_redis() -> Iterator[RedisServer]:
    """A redis-server of this test's own (it may be stopped and started)."""
    with RedisServer() as server:
        yield server


@pytest.fixture
def redis_url(redis_server: RedisServer) -> Iterator[str]:
    """The session's Redis, emptied for this test."""
    from redis import Redis

    with Redis.from_url(redis_server.url) as client:
        client.flushdb()
    yield redis_server.url
