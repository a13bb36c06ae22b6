"""A burst of signed Slack events through HTTP, a share of them delivered again as Slack's retries, against the real
bot: how many replies, duplicates and losses, how fast, and how much memory. Used by scripts/bench_burst.py (and,
through it, by tests/bot/test_burst.py)."""
from __future__ import annotations

import os
import random
import resource
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from bot.limits import SEEN_EVENTS, Limits
from bot.streaming import READING, WAITING
from pipeline.core import Bounds, Parts, Pipeline
from pipeline.generators.adapter import AdapterGenerator
from pipeline.kg.snapshot import SnapshotKG
from pipeline.sciqa import SciQA
from pipeline.settings import Settings
from standins.harness import SECRET, TEMPLATES, Harness, hash_store, is_answer, new_ts, train_slice
from standins.slack.api import SlackAPIServer
from standins.slack.signing import post_event

PAGE = os.sysconf("SC_PAGE_SIZE")


@dataclass(frozen=True)
class BurstResult:
    events: int
    deliveries: int  # events plus Slack-style retries
    retried: int
    replies: int  # final answers that reached Slack
    placeholders: int
    duplicates: int  # replies beyond the first, summed over events
    lost: int  # events without a reply
    busy: int  # replies that were "busy, ask again" (none when the queue holds the burst)
    ack_p50_ms: float
    ack_p95_ms: float
    p50_ms: float  # event sent -> final answer at Slack
    p95_ms: float
    seconds: float
    rss_before_mib: float
    rss_peak_mib: float  # sampled during the burst
    max_rss_mib: float  # the process's high-water mark (getrusage)
    workers: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def rss_mib() -> float:
    with open("/proc/self/statm", encoding="ascii") as fh:
        return int(fh.read().split()[1]) * PAGE / 2**20


class PeakRSS:
    """Samples this process's resident memory every ``interval`` s until stopped; ``peak`` is the highest seen."""

    def __init__(self, interval: float = 0.05) -> None:
        self.interval = interval
        self.peak = rss_mib()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rss-sampler", daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.peak = max(self.peak, rss_mib())

    def __enter__(self) -> PeakRSS:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, rss_mib())


def pct(values: list[float], q: float, digits: int = 1) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))], digits) if ordered else 0.0


@dataclass(frozen=True)
class Plan:
    """A burst's events (each in its own channel) and the order of its deliveries: ``(event index, retry number or
    None)``, every retry somewhere after its original."""

    events: list[dict[str, Any]]
    order: list[tuple[int, int | None]]
    retried: list[int]
    prefix: str

    def event_id(self, i: int) -> str:
        return f"Ev{self.prefix}{i:06d}"


def plan_burst(n: int, questions: list[str], *, retry_share: float = 0.2, seed: int = 7, users: int = 200,
               prefix: str = "Burst") -> Plan:
    """``n`` mentions (from ``users`` people), ``retry_share`` of them delivered again as Slack's retries: in flight
    with the original, or while it is being answered."""
    rng = random.Random(seed)
    events = []
    for i in range(n):
        ts = new_ts()
        events.append({"type": "app_mention", "user": f"U{i % users:03d}", "ts": ts, "event_ts": ts, "team": "T1",
                       "channel": f"C{prefix}{i:05d}", "text": f"<@UBOT> {questions[i % len(questions)]}"})
    retried = rng.sample(range(n), round(n * retry_share))
    order: list[tuple[int, int | None]] = [(i, None) for i in rng.sample(range(n), n)]
    for i in retried:
        order.insert(rng.randint(order.index((i, None)) + 1, len(order)), (i, 1))
    return Plan(events, order, retried, prefix)


@dataclass(frozen=True)
class Tally:
    replies: int  # final answers and "busy" replies that reached Slack
    busy: int
    placeholders: int
    duplicates: int  # replies beyond the first, summed over events
    lost: int  # events without a reply
    per_channel: Counter[str]


def tally(calls: list[Any], events: list[dict[str, Any]]) -> Tally:
    """What Slack received for ``events``: replies, duplicates and losses per event (by its channel)."""
    channels = {e["channel"] for e in events}
    mine = [c for c in calls if _channel(c) in channels]
    per_channel = Counter(_channel(c) for c in mine if is_answer(c) or _busy(c))
    return Tally(replies=sum(per_channel.values()), busy=sum(1 for c in mine if _busy(c)),
                 placeholders=sum(1 for c in mine if _first_progress(c)),
                 duplicates=sum(k - 1 for k in per_channel.values() if k > 1),
                 lost=sum(1 for e in events if per_channel[e["channel"]] == 0), per_channel=per_channel)


def _channel(call: Any) -> str:
    return str(call.params.get("channel") or call.params.get("channel_id"))


def _first_progress(call: Any) -> bool:
    """What shows an event was taken at once: the classic placeholder message, or the agent surface's first status
    line ("reading your question" / "waiting its turn"), sent once per event and never for a retry."""
    if call.method == "assistant.threads.setStatus":
        status = str(call.params.get("status", ""))
        return call.status == 200 and (status == READING or status.startswith(WAITING))
    return call.method == "chat.postMessage" and call.status == 200 and not is_answer(call) and not _busy(call)


def send(plan: Plan, deliveries: list[tuple[int, int | None]], post: Callable[[int, int | None], int],
         senders: int = 16) -> list[float]:
    """Deliver ``deliveries`` (a slice of ``plan.order``) concurrently through ``post(event index, retry)``, which
    returns the HTTP status; every status must be 200. Returns the acks' times in ms."""
    def deliver(item: tuple[int, int | None]) -> float:
        started = time.monotonic()
        status = post(*item)
        assert status == 200, status
        return (time.monotonic() - started) * 1000

    with ThreadPoolExecutor(max_workers=senders) as pool:
        return list(pool.map(deliver, deliveries))


def run_burst(n: int, sciqa_dir: Path, home: Path, *, retry_share: float = 0.2, workers: int = 4, senders: int = 16,
              queue_size: int | None = None, seed: int = 7) -> BurstResult:
    """Send ``n`` mentions (each in its own channel, from 200 people) and ``retry_share`` of them again with
    ``X-Slack-Retry-Num``; wait until every event has its reply and the workers are idle; count. The queue holds the
    whole burst unless ``queue_size`` says otherwise (then the rest are told "busy, ask again")."""
    sciqa = SciQA(sciqa_dir)
    store = hash_store(home / "chroma", train_slice(sciqa))
    questions = [r.question for r in sciqa.split("test") if r.template_id in TEMPLATES]
    pipeline = Pipeline(Parts(store, AdapterGenerator(0.45), SnapshotKG(sciqa.all())),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    settings = Settings(home=home, sciqa_dir=sciqa_dir, workers=workers)
    plan = plan_burst(n, questions, retry_share=retry_share, seed=seed)
    sent: dict[int, float] = {}
    lock = threading.Lock()

    with SlackAPIServer() as slack:
        limits = Limits(seen_events=SEEN_EVENTS, queue_size=n if queue_size is None else queue_size,
                        user_questions=10**6, user_window_s=60.0)
        bot = Harness.start(slack, pipeline, settings, limits)
        try:
            pipeline.ask(questions[0])  # warm-up: parser, store and snapshot loaded before the clock starts
            before = rss_mib()

            def post(i: int, retry: int | None) -> int:
                with lock:
                    sent.setdefault(i, time.monotonic())
                status, _ = post_event(bot.server.url, SECRET, plan.events[i],
                                       event_id=plan.event_id(i), retry_num=retry, timeout=30)
                return status

            began = time.monotonic()
            with PeakRSS() as memory:
                acks = send(plan, plan.order, post, senders)
                slack.wait_for(lambda c: is_answer(c) or _busy(c), count=n, timeout=60 + n)
                bot.pool.wait_idle(timeout=60)
            seconds = time.monotonic() - began
        finally:
            bot.close()
        calls = slack.calls
    counted = tally(calls, plan.events)
    index = {e["channel"]: i for i, e in enumerate(plan.events)}
    latency = [(c.at - sent[index[str(c.params["channel"])]]) * 1000 for c in calls if is_answer(c)]
    return BurstResult(
        events=n, deliveries=len(plan.order), retried=len(plan.retried), replies=counted.replies,
        placeholders=counted.placeholders, duplicates=counted.duplicates, lost=counted.lost, busy=counted.busy,
        ack_p50_ms=pct(acks, 0.5), ack_p95_ms=pct(acks, 0.95), p50_ms=pct(latency, 0.5), p95_ms=pct(latency, 0.95),
        seconds=round(seconds, 2), rss_before_mib=round(before, 1), rss_peak_mib=round(memory.peak, 1),
        max_rss_mib=round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1), workers=workers)


def _busy(call: Any) -> bool:
    """The reply to a question the full queue turned away."""
    return bool(call.method == "chat.postMessage" and "please ask again" in str(call.params.get("text")))
