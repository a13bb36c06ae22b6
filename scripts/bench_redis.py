"""What Redis (KGQA_REDIS_URL) adds to a question's time: p50/p95, against the local state, in the same run.

Usage: SCIQA_DIR=../shared/sciqa python scripts/bench_redis.py [--n 200] [--calls 2000] [--json]

1. End to end: two in-process bots over HTTP on loopback with the same pipeline (adapter generator, the SciQA
   snapshot behind the answer cache, a Chroma store of 80 SciQA train pairs with hashed bag-of-words vectors): one
   with local state (dedup and rate counters in its process, the answer cache in SQLite), one with KGQA_REDIS_URL on
   a real redis-server on loopback. Questions go one at a time, alternating between the bots, each in a channel of its
   own; a question's time is from POSTing its event to its answer reaching the Slack Web API stand-in.
2. The state calls one question makes, timed alone, part by part: dedup of the event and of the message (SET NX EX
   each), the rate limit (one script), the answer cache (read, then write: SQLite on local disk, or Redis) and thread
   memory (read, then write; nothing locally, where it lives in the process).
Loopback Redis: a Redis on another host adds its network round trips (about 6 per question) to these figures.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
from bot.limits import SEEN_EVENTS, Limits
from bot.state.dedup.base import Dedup
from bot.state.dedup.memory import Seen
from bot.state.dedup.redis import RedisSeen
from pipeline.core import Bounds, Parts, Pipeline
from pipeline.generators.adapter import AdapterGenerator
from pipeline.kg.cache import CachedKG
from pipeline.kg.snapshot import SnapshotKG
from pipeline.records import Rows
from pipeline.sciqa import SciQA
from pipeline.settings import Settings
from pipeline.state.answers.base import Answers
from pipeline.state.answers.redis import KEEP_S, RedisAnswers
from pipeline.state.answers.sqlite import SqliteAnswers
from pipeline.state.limits.base import RateLimit
from pipeline.state.limits.memory import MAX_KEYS, RateLimiter
from pipeline.state.limits.redis import RedisRateLimiter
from pipeline.state.link import RETRY_S, RedisLink
from pipeline.state.threads.base import KEEP_TURNS, TURN_TTL_S, ThreadMemory
from pipeline.state.threads.redis import RedisThreadMemory
from standins.burst import pct
from standins.harness import TEMPLATES, Harness, hash_store, is_answer, new_ts, train_slice
from standins.redis import RedisServer
from standins.slack.api import SlackAPIServer

PARTS = ("dedup", "rate_limit", "answer_cache", "thread_memory", "all")
ENDPOINT = "http://orkg.test/sparql"


def end_to_end(n: int, sciqa: SciQA, home: Path, redis_url: str) -> dict[str, dict[str, float]]:
    store = hash_store(home / "chroma", train_slice(sciqa))
    questions = [r.question for r in sciqa.split("test") if r.template_id in TEMPLATES]
    snapshot = SnapshotKG(sciqa.all())
    settings = Settings(home=home, workers=2)
    caches: dict[str, Answers] = {"local": SqliteAnswers(home / "answer-cache.sqlite3", max_entries=5000),
                                  "redis": RedisAnswers(RedisLink(redis_url, 0.5, RETRY_S), 5000, KEEP_S)}
    times: dict[str, list[float]] = {"local": [], "redis": []}
    with SlackAPIServer() as slack:
        bots = {name: Harness.start(slack, Pipeline(Parts(store, AdapterGenerator(0.45),
                                                          CachedKG(snapshot, cache, ttl=86400.0)),
                                                    Bounds(shots=3, row_cap=1000, max_question_chars=2000,
                                                           workers=4)),
                                    settings.with_(redis_url=redis_url if name == "redis" else None),
                                    Limits(seen_events=SEEN_EVENTS, user_questions=10**6, queue_size=50,
                                           user_window_s=60.0))
                for name, cache in caches.items()}
        try:
            for name, bot in bots.items():  # warm-up: parser, store, snapshot and connections
                bot.mention(questions[0], channel=f"CWarm{name}")
                slack.wait_for(lambda c, ch=f"CWarm{name}": is_answer(c) and c.params["channel"] == ch, timeout=60)
            for i in range(n):
                for name in (("local", "redis") if i % 2 else ("redis", "local")):
                    channel = f"C{name}{i:05d}"
                    started = time.monotonic()
                    bots[name].mention(questions[i % len(questions)], channel=channel, user=f"U{i % 50}",
                                       ts=new_ts())
                    call = slack.wait_for(lambda c, ch=channel: is_answer(c) and c.params["channel"] == ch,
                                          timeout=60)[0]
                    times[name].append((call.at - started) * 1000)
        finally:
            for bot in bots.values():
                bot.close()
    return {name: {"p50_ms": pct(t, 0.5), "p95_ms": pct(t, 0.95)} for name, t in times.items()}


def _steps(i: int, seen: Dedup, limiter: RateLimit, answers: Answers, memory: ThreadMemory | None,
           result: Rows) -> dict[str, Callable[[], object]]:
    """Question ``i``'s state calls, part by part, each bound to this question's backends and keys."""
    thread = f"C{i}:{i}.000100"
    return {"dedup": lambda: (seen.first(f"event:EvBench{i}"), seen.first(f"message:{thread}")),
            "rate_limit": lambda: limiter.wait(f"U{i % 50}"),
            "answer_cache": lambda: answers.get(ENDPOINT, f"SELECT {i}") or answers.put(
                ENDPOINT, f"SELECT {i}", result),
            "thread_memory": lambda: memory and (memory.turns(thread), memory.remember(
                thread, {"question": "q", "sparql": "SELECT 1"}))}


def calls_alone(n: int, home: Path, redis_url: str) -> dict[str, dict[str, dict[str, float]]]:
    """The state one question touches, local vs Redis, timed per question and per part."""
    link = RedisLink(redis_url, 0.5, RETRY_S)
    redis = (RedisSeen(link, 3600.0, SEEN_EVENTS), RedisRateLimiter(link, 10**6, 60), RedisAnswers(link, 5000, KEEP_S),
             RedisThreadMemory(link, KEEP_TURNS, TURN_TTL_S, None))
    local = (Seen(SEEN_EVENTS), RateLimiter(10**6, 60, MAX_KEYS),
             SqliteAnswers(home / "calls.sqlite3", max_entries=5000), None)
    result = Rows(["x"], [{"x": "42"}], None, "bench")
    times: dict[str, dict[str, list[float]]] = {name: {part: [] for part in PARTS} for name in ("local", "redis")}
    for i in range(n):
        for name, (seen, limiter, answers, memory) in (("local", local), ("redis", redis)):
            steps = _steps(i, seen, limiter, answers, memory, result)
            total = 0.0
            for part, step in steps.items():
                started = time.perf_counter()
                step()
                took = (time.perf_counter() - started) * 1000
                times[name][part].append(took)
                total += took
            times[name]["all"].append(total)
    return {name: {part: {"p50_ms": pct(t, 0.5, 3), "p95_ms": pct(t, 0.95, 3)}
                   for part, t in parts.items()} for name, parts in times.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="questions per bot, end to end")
    ap.add_argument("--calls", type=int, default=2000, help="questions' worth of state calls, timed alone")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    sciqa = SciQA(Path(os.environ.get("SCIQA_DIR") or ROOT.parent / "shared" / "sciqa"))
    home = Path(tempfile.mkdtemp(prefix="kgqa-bench-redis-"))
    try:
        with RedisServer() as server:
            alone = calls_alone(args.calls, home, server.url)
            e2e = end_to_end(args.n, sciqa, home, server.url)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    if args.json:
        print(json.dumps({"end_to_end": e2e, "state_calls": alone}))
        return 0
    print("| measured | local p50 / p95 ms | Redis p50 / p95 ms | added p50 / p95 ms |")
    print("|---|---|---|---|")
    rows = [(f"question, event → answer ({args.n} per bot, one at a time)", e2e["local"], e2e["redis"])]
    rows += [(f"state calls of one question: {part.replace('_', ' ')} ({args.calls})", alone["local"][part],
              alone["redis"][part]) for part in PARTS]
    for label, lo, re_ in rows:
        print(f"| {label} | {lo['p50_ms']:.3f} / {lo['p95_ms']:.3f} | {re_['p50_ms']:.3f} / {re_['p95_ms']:.3f} "
              f"| {re_['p50_ms'] - lo['p50_ms']:+.3f} / {re_['p95_ms'] - lo['p95_ms']:+.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
