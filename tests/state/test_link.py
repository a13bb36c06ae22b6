"""The Redis link: falls back fast while Redis is down, tries again after a pause, recovers without a restart, and
never shows a password."""
from __future__ import annotations

import pytest

from pipeline.settings import Settings, masked
from pipeline.state.link import RETRY_S, RedisLink, SharedStateDown
from standins.fakes import Clock
from standins.redis import RedisServer
from standins.tcp import HoldingProxy


def test_a_stopped_redis_is_skipped_until_the_pause_ends_then_used_again(fresh_redis: RedisServer) -> None:
    clock = Clock()
    link = RedisLink(fresh_redis.url, timeout=0.5, retry_s=1.0, clock=clock)
    recovered: list[int] = []
    link.on_recover(lambda: recovered.append(1))
    link.call(lambda r: r.set("kgqa:test", "1"))
    fresh_redis.stop()
    with pytest.raises(SharedStateDown):
        link.call(lambda r: r.get("kgqa:test"))
    assert link.status()["ok"] is False and "ConnectionError" in link.status()["error"]
    tried: list[int] = []
    with pytest.raises(SharedStateDown):  # within the pause: not even tried
        link.call(lambda r: tried.append(1))
    assert tried == []
    fresh_redis.start()
    clock.now += 1.5
    assert link.call(lambda r: r.get("kgqa:test")) == "1"  # the data survived the restart (append-only file)
    assert link.status() == {"url": fresh_redis.url, "ok": True} and recovered == [1]


def test_a_redis_that_stops_answering_costs_one_timeout_then_nothing(redis_url: str) -> None:
    port = int(redis_url.rsplit(":", 1)[1].split("/")[0])
    with HoldingProxy(("127.0.0.1", port)) as proxy:
        url = proxy.url.replace("http://", "redis://") + "/0"
        link = RedisLink(url, timeout=0.2, retry_s=60)
        assert link.ping()
        proxy.hold()
        assert not link.ping()
        assert "Timeout" in link.status()["error"]
        tried: list[int] = []
        with pytest.raises(SharedStateDown):
            link.call(lambda r: tried.append(1))
        assert tried == []


def test_a_password_is_used_and_never_shown(tmp_path: object) -> None:
    with RedisServer(password="s3cret-pw") as server:
        url = f"redis://:s3cret-pw@127.0.0.1:{server.port}/0"
        assert RedisLink(url, 0.5, RETRY_S).ping()
        wrong = RedisLink(f"redis://:nope-pw@127.0.0.1:{server.port}/0", 0.5, RETRY_S)
        with pytest.raises(SharedStateDown) as err:
            wrong.call(lambda r: r.ping())
        assert "nope-pw" not in str(err.value) and "***" in str(err.value)
    settings = Settings(redis_url=url)
    assert "s3cret-pw" in settings.secrets() and "s3cret-pw" not in repr(settings)
    assert masked("rediss://user:pw@cache:6380/0") == "rediss://user:***@cache:6380/0"
    assert masked("redis://cache:6379/0") == "redis://cache:6379/0"


def test_keys_are_namespaced() -> None:
    assert RedisLink.key("seen", "event:Ev1") == "kgqa:seen:event:Ev1"


def test_rediss_with_tls_and_a_password() -> None:
    with RedisServer(password="tls-pw", tls=True) as server:
        assert server.url.startswith("rediss://:tls-pw@")
        link = RedisLink(server.url, 0.5, RETRY_S)
        assert link.call(lambda r: r.set("kgqa:test", "over tls")) and link.call(lambda r: r.get("kgqa:test")) == \
            "over tls"
        plain = RedisLink(f"redis://:tls-pw@127.0.0.1:{server.port}/0", 0.5, RETRY_S)  # no TLS: refused, not hung
        assert not plain.ping() and "tls-pw" not in str(plain.status())
        link.close()
