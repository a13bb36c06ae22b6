"""The answer cache in Redis, shared by replicas on several hosts: one key per (endpoint, query), and a sorted set
of when each was last used that keeps at most ``max_entries`` (least recently used dropped first). Every key expires
``keep_s`` after its last use. While Redis is unavailable the cache is skipped: a miss, and nothing stored."""
from __future__ import annotations

import hashlib
import json
import time

from pipeline.records import Rows
from pipeline.state.answers.base import dump_rows, load_rows
from pipeline.state.link import INDEX_ADD, RedisLink, SharedStateDown

KEEP_S = 7 * 86400.0  # past its freshness an entry still answers (dated) while the endpoint is down, for this long
INDEX = RedisLink.key("answers")
# KEYS[1] the entry, KEYS[2] the index; ARGV: value, now (s), keep (s), max entries, the entry's id, key prefix
PUT = "redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])" + INDEX_ADD + "return 0"


class RedisAnswers:
    """``Answers`` in Redis (see the module's docstring)."""

    def __init__(self, link: RedisLink, max_entries: int, keep_s: float) -> None:
        self.link = link
        self.max_entries = max_entries
        self.keep_s = keep_s
        self._put = link.client().register_script(PUT)

    @staticmethod
    def entry(endpoint: str, key: str) -> str:
        return hashlib.sha256(f"{endpoint}\n{key}".encode()).hexdigest()[:32]

    def get(self, endpoint: str, key: str) -> tuple[Rows, float] | None:
        entry = self.entry(endpoint, key)

        def read(r: object) -> list[object]:
            pipe = r.pipeline(transaction=False)  # type: ignore[attr-defined]
            pipe.get(RedisLink.key("answer", entry))
            pipe.expire(RedisLink.key("answer", entry), round(self.keep_s))
            pipe.zadd(INDEX, {entry: time.time()}, xx=True)
            return list(pipe.execute())

        try:
            blob = self.link.call(read)[0]
        except SharedStateDown:
            return None
        if not isinstance(blob, str):
            return None
        data = json.loads(blob)
        return load_rows(data["rows"]), float(data["stored"])

    def put(self, endpoint: str, key: str, rows: Rows) -> None:
        entry = self.entry(endpoint, key)
        now = time.time()
        value = json.dumps({"rows": dump_rows(rows), "stored": now})
        try:
            self.link.call(lambda r: self._put(keys=[RedisLink.key("answer", entry), INDEX],
                                               args=[value, now, round(self.keep_s), self.max_entries, entry,
                                                     RedisLink.key("answer", "")], client=r))
        except SharedStateDown:
            return
