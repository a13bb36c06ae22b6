"""/healthz: can the bot answer (the store), and which of its outside parts (TGI, the KG endpoint) are reachable.

Probes are cheap (a count, TGI's /health, ``ASK {}``), short (``timeout``) and cached for ``ttl`` seconds, so a load
balancer polling every second costs the servers behind the bot almost nothing."""
from __future__ import annotations

import threading
import time
from typing import Any

from pipeline.core import Pipeline
from pipeline.state.admission.pool import WorkerPool
from pipeline.state.link import RedisLink

TTL_S = 5.0
TIMEOUT_S = 2.0
# what each replica does on its own while Redis is unavailable
REDIS_FALLBACK = {"dedup": "this process only (a possible duplicate is logged with its event id)",
                  "rate_limits": "this process's counters", "queue": "this process's count",
                  "answer_cache": "skipped", "proposals": "this replica's file"}


class Health:
    """The status report; ``ok`` means questions can be answered. TGI or the endpoint being down only degrades the
    answers (the adapter and the snapshot stand in), so it is listed under ``degraded`` and does not fail the check."""

    def __init__(self, pipeline: Pipeline, pool: WorkerPool | None, link: RedisLink | None, *, ttl: float,
                 timeout: float) -> None:
        """``ttl``: seconds a probe round is reused (``TTL_S``); ``timeout``: one probe's (``TIMEOUT_S``)."""
        self.pipeline = pipeline
        self.pool = pool
        self.link = link
        self.ttl = ttl
        self.timeout = timeout
        self._lock = threading.Lock()
        self._probes: dict[str, dict[str, Any]] = {}
        self._at = float("-inf")

    def probes(self) -> tuple[dict[str, dict[str, Any]], float]:
        """The latest probe results and their age in seconds; probes again when older than ``ttl``."""
        with self._lock:  # one probe round at a time; callers meanwhile wait for its result
            if time.monotonic() - self._at >= self.ttl:
                self._probes = self.pipeline.health(self.timeout)
                if self.link is not None:  # a ping also ends an outage the moment Redis is back, traffic or not
                    self.link.ping()
                    self._probes["redis"] = self.link.status()
                self._at = time.monotonic()
            return self._probes, time.monotonic() - self._at

    def __call__(self) -> dict[str, Any]:
        probes, age = self.probes()
        store = dict(probes["store"])
        if not store.get("ok"):
            store["fix"] = "run `kgqa index` to build the example store"
        report: dict[str, Any] = {
            "ok": bool(store.get("ok")),
            "store": store,
            "generator": self.pipeline.generator.name,
            "kg": self.pipeline.kg.name,
            "shots": self.pipeline.shots,
            "reachable": {part: probes[part] for part in ("generator", "kg")},
            "degraded": [part for part in ("generator", "kg") if not probes[part].get("ok")],
            "checked_s_ago": round(age, 1),
        }
        if "redis" in probes:
            redis = dict(probes["redis"])
            if not redis["ok"]:
                redis["fallback"] = REDIS_FALLBACK
                report["degraded"].append("redis")
            report["redis"] = redis
        if self.pool is not None:
            report["workers"] = self.pool.stats()
        return report
