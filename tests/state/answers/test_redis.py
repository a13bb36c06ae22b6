"""The answer cache in Redis: one replica's answer serves another, it stays bounded with a TTL on every key, and a
Redis that is down only skips the cache."""
from __future__ import annotations

from redis import Redis

from pipeline.factory import build_kg
from pipeline.kg.cache import CachedKG
from pipeline.settings import Settings
from pipeline.state.answers.redis import KEEP_S, RedisAnswers
from pipeline.state.answers.sqlite import SqliteAnswers
from pipeline.state.link import RETRY_S, RedisLink
from standins.fakes import RecordingKG
from standins.redis import RedisServer

QUERY = "SELECT ?x WHERE { ?x a <http://orkg.org/orkg/class/Dataset> }"


def test_an_answer_cached_by_one_replica_serves_another(redis_url: str) -> None:
    live_a, live_b = RecordingKG(name="http://orkg.test/sparql"), RecordingKG(name="http://orkg.test/sparql")
    CachedKG(live_a, RedisAnswers(RedisLink(redis_url, 0.5, RETRY_S), 5000, KEEP_S), ttl=86400.0).select(QUERY)
    rows = CachedKG(live_b, RedisAnswers(RedisLink(redis_url, 0.5, RETRY_S), 5000, KEEP_S), ttl=86400.0).select(
        "select ?y where { ?y a <http://orkg.org/orkg/class/Dataset> . }")
    assert live_b.queries == [] and rows.flat() == ["42"] and "cached result from 20" in rows.caveat
    other = RecordingKG(name="http://elsewhere.test/sparql")  # another endpoint has entries of its own
    CachedKG(other, RedisAnswers(RedisLink(redis_url, 0.5, RETRY_S), 5000, KEEP_S), ttl=86400.0).select(QUERY)
    assert len(other.queries) == 1


def test_the_cache_is_bounded_and_every_key_expires(redis_url: str) -> None:
    live = RecordingKG()
    kg = CachedKG(live, RedisAnswers(RedisLink(redis_url, 0.5, RETRY_S), max_entries=3, keep_s=KEEP_S), ttl=86400.0)
    for i in range(6):
        kg.select(f"SELECT ?x WHERE {{ ?x ?p {i} }}")
    kg.select("SELECT ?x WHERE { ?x ?p 5 }")
    assert len(live.queries) == 6  # the most recent entries were kept
    with Redis.from_url(redis_url, decode_responses=True) as r:
        keys = r.keys("*")
        assert len([k for k in keys if k.startswith("kgqa:answer:")]) == 3 and "kgqa:answers" in keys
        assert all(k.startswith("kgqa:") and r.ttl(k) > 0 for k in keys)


def test_a_stopped_redis_skips_the_cache_and_the_answer_still_comes(fresh_redis: RedisServer) -> None:
    live = RecordingKG()
    kg = CachedKG(live, RedisAnswers(RedisLink(fresh_redis.url, 0.3, RETRY_S), 5000, KEEP_S), ttl=86400.0)
    kg.select(QUERY)
    fresh_redis.stop()
    rows = kg.select(QUERY)
    assert rows.flat() == ["42"] and not rows.caveat and len(live.queries) == 2


def test_the_factory_puts_the_cache_in_redis_when_a_url_is_set(settings: Settings, redis_url: str) -> None:
    kg = build_kg(settings.with_(redis_url=redis_url), "http://orkg.test/sparql")
    assert isinstance(kg, CachedKG) and isinstance(kg.answers, RedisAnswers)
    kg = build_kg(settings, "http://orkg.test/sparql")
    assert isinstance(kg, CachedKG) and isinstance(kg.answers, SqliteAnswers)
