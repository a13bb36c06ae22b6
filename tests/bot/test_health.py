"""/healthz: store, TGI and KG reachability from cheap, short, cached probes; only a missing store fails the check."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bot.health import TIMEOUT_S, TTL_S, Health
from pipeline.core import Bounds, Parts, Pipeline
from pipeline.generators.adapter import AdapterGenerator
from pipeline.generators.tgi import TGIGenerator
from pipeline.kg.endpoint import EndpointKG
from pipeline.kg.fallback import FallbackKG
from pipeline.kg.snapshot import SnapshotKG
from pipeline.loop.writers import Writer
from pipeline.state.link import RedisLink
from pipeline.store.chroma import ChromaStore
from standins.fakes import RecordingKG
from standins.harness import Harness
from standins.redis import RedisServer
from standins.sparql_endpoint import EndpointServer, refused_url
from standins.tgi import TGIServer


@pytest.fixture
def endpoint() -> Iterator[EndpointServer]:
    with EndpointServer(RecordingKG(name="orkg"), hang_seconds=10) as srv:
        yield srv


@pytest.fixture
def remote(store: ChromaStore, snapshot_kg: SnapshotKG, tgi: TGIServer,
           endpoint: EndpointServer) -> Callable[..., Pipeline]:
    def make(tgi_url: str | None = None, kg_url: str | None = None) -> Pipeline:
        generator = TGIGenerator(tgi_url or tgi.url, timeout=5, max_new_tokens=512, retries=1)
        writers = [Writer(generator, model=True), Writer(AdapterGenerator(0.45), fallback=True)]
        kg = FallbackKG(EndpointKG(kg_url or endpoint.url, timeout=30, row_cap=1000, agent="kgqa-bot", retries=2),
                        snapshot_kg)
        return Pipeline(Parts(store, generator, kg, writers=writers),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    return make


def test_healthz_reports_each_part_reachable(start_bot: Callable[..., Harness], remote: Callable[..., Pipeline],
                                             endpoint: EndpointServer) -> None:
    parts = remote()
    bot = start_bot(kg=parts.kg, generator=parts.generator)
    status, report = bot.healthz()
    assert status == 200 and report["ok"] is True and report["degraded"] == []
    assert report["store"]["ok"] and report["store"]["pairs"] == 80
    assert report["reachable"]["generator"]["ok"] and report["reachable"]["generator"]["remote"]
    assert report["reachable"]["kg"]["ok"] and endpoint.queries == ["ASK {}"]


def test_a_hanging_endpoint_and_a_dead_tgi_degrade_but_do_not_fail_the_check(
        remote: Callable[..., Pipeline], endpoint: EndpointServer) -> None:
    endpoint.set_fault("hang")
    with refused_url() as dead:
        health = Health(remote(tgi_url=dead.removesuffix("/sparql")), None, None, ttl=TTL_S, timeout=0.5)
        started = time.monotonic()
        report = health()
    assert time.monotonic() - started < 2  # probes run side by side, each cut off by its short timeout
    assert report["ok"] is True and report["degraded"] == ["generator", "kg"]
    assert report["reachable"]["kg"]["ok"] is False


def test_probes_are_cached_for_a_few_seconds(remote: Callable[..., Pipeline], endpoint: EndpointServer) -> None:
    health = Health(remote(), None, None, ttl=60, timeout=TIMEOUT_S)
    for _ in range(5):
        assert health()["ok"]
    assert endpoint.queries == ["ASK {}"]
    assert Health(remote(), None, None, ttl=0, timeout=TIMEOUT_S)()["checked_s_ago"] == 0.0


def test_a_probe_that_raises_is_reported_not_raised(store: ChromaStore, snapshot_kg: SnapshotKG) -> None:
    class Broken:
        name = "broken"

        def count(self) -> int:
            raise RuntimeError("the disk is on fire")

        def search(self, question: str, k: int) -> Any:
            raise RuntimeError

    report = Health(Pipeline(Parts(Broken(), AdapterGenerator(0.45), snapshot_kg),  # type: ignore[arg-type]
                             Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4)),
                    None, None, ttl=TTL_S, timeout=TIMEOUT_S)()
    assert report["ok"] is False and report["store"]["error"] == "the disk is on fire"
    assert "kgqa index" in report["store"]["fix"]
    assert report["reachable"]["kg"] == {"name": "snapshot", "ms": report["reachable"]["kg"]["ms"], "ok": True,
                                         "remote": False}


def test_a_probe_that_ignores_its_timeout_is_left_behind(store: ChromaStore) -> None:
    release = threading.Event()

    class Stuck:
        name = "stuck"
        virtuoso = False

        def ping(self, timeout: float) -> bool:
            return release.wait(30)  # a client that does not honour its timeout

        def select(self, query: str) -> Any:
            raise NotImplementedError

    started = time.monotonic()
    probes = Pipeline(Parts(store, AdapterGenerator(0.45), Stuck()),  # type: ignore[arg-type]
                      Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4)).health(timeout=0.2)
    release.set()
    assert time.monotonic() - started < 1.5
    assert probes["kg"]["ok"] is False and probes["kg"]["error"] == "no answer in 0.2 s"
    assert probes["store"]["ok"] and probes["generator"] == {"name": "adapter", "ms": probes["generator"]["ms"],
                                                             "ok": True, "remote": False}


def test_healthz_says_when_redis_is_down_what_stands_in_and_when_it_is_back(
        make_pipeline: Callable[..., Pipeline], fresh_redis: RedisServer) -> None:
    link = RedisLink(fresh_redis.url, timeout=0.3, retry_s=0)
    health = Health(make_pipeline(), None, link, ttl=0, timeout=TIMEOUT_S)
    report = health()
    assert report["ok"] and report["redis"] == {"url": fresh_redis.url, "ok": True} and report["degraded"] == []
    fresh_redis.stop()
    report = health()
    assert report["ok"] is True and report["degraded"] == ["redis"]  # still answering: the bot is not unhealthy
    assert report["redis"]["ok"] is False and "ConnectionError" in report["redis"]["error"]
    assert set(report["redis"]["fallback"]) == {"dedup", "rate_limits", "queue", "answer_cache", "proposals"}
    fresh_redis.start()
    report = health()  # the probe itself finds Redis back: no restart, no traffic needed
    assert report["redis"]["ok"] is True and report["degraded"] == []
