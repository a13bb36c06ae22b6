"""One backend, chosen once from settings, gives every part replicas share: with Redis they share it all (and each
falls back to its own state while Redis is away), with a SQLite file the replicas of one host share dedup and
threads, and otherwise each process keeps its own (threads still kept under $KGQA_HOME)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from redis import Redis

from bot.limits import SEEN_EVENTS, Limits
from bot.state.backend import MemoryState, shared_state
from pipeline.settings import Settings
from pipeline.state.admission.redis import KEY
from standins.harness import STORY_CLOZE, Harness, new_ts
from standins.redis import RedisServer
from tests.bot.test_ask import Gate

LIMITS = Limits(seen_events=SEEN_EVENTS, queue_size=4, user_questions=1, user_window_s=60.0)
TURN = {"asked": "Which model is best on SQuAD?", "question": "Which model is best on SQuAD?", "names": [],
        "sparql": "", "at": 0.0}


def replicas(settings: Settings) -> tuple[MemoryState, MemoryState]:
    return shared_state(settings, LIMITS, 2), shared_state(settings, LIMITS, 2)


def shares(a: MemoryState, b: MemoryState) -> dict[str, bool]:
    """Which parts two replicas share, by what each sees of the other's use."""
    seen_a, seen_b = a.seen(), b.seen()
    limiter_a, limiter_b = a.limiter(), b.limiter()
    memory_a, memory_b = a.memory(), b.memory()
    recent_a, recent_b = a.recent(), b.recent()
    assert seen_a.first("event:Ev1") and limiter_a.wait("U1") == 0
    memory_a.remember("C1:1.0", TURN)
    ref = recent_a.remember("Which model is best on SQuAD?", "ASK {}")
    return {"dedup": not seen_b.first("event:Ev1"), "rate_limits": limiter_b.wait("U1") > 0,
            "threads": memory_b.turns("C1:1.0") == [TURN], "recent": recent_b.recall(ref) is not None,
            "queue": a.queue() is not None}


def test_in_memory_each_process_keeps_its_own_but_threads_stay_on_disk(tmp_path: Path) -> None:
    assert shares(*replicas(Settings(home=tmp_path))) == {
        "dedup": False, "rate_limits": False, "threads": True, "recent": False, "queue": False}


def test_with_a_sqlite_file_the_replicas_of_a_host_share_dedup_and_threads(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path / "home", dedup_path=tmp_path / "shared.sqlite3")
    assert shares(*replicas(settings)) == {
        "dedup": True, "rate_limits": False, "threads": True, "recent": False, "queue": False}
    assert (tmp_path / "shared.sqlite3").is_file() and not (tmp_path / "home" / "bot" / "threads.sqlite3").exists()


def test_with_redis_replicas_share_everything(tmp_path: Path, redis_url: str) -> None:
    settings = Settings(home=tmp_path, redis_url=redis_url)
    assert shares(*replicas(settings)) == {
        "dedup": True, "rate_limits": True, "threads": True, "recent": True, "queue": True}


def test_with_redis_away_each_part_falls_back_to_its_own_state(tmp_path: Path, fresh_redis: RedisServer) -> None:
    state = shared_state(Settings(home=tmp_path, redis_url=fresh_redis.url, redis_timeout=0.3), LIMITS, 2)
    seen, limiter, memory = state.seen(), state.limiter(), state.memory()
    fresh_redis.stop()
    assert seen.first("event:Ev9") and not seen.first("event:Ev9")
    assert limiter.wait("U1") == 0 and limiter.wait("U1") > 0
    memory.remember("C1:2.0", TURN)
    assert memory.turns("C1:2.0") == [TURN]


def test_two_replicas_turn_away_once_their_shared_queue_is_full(start_bot: Callable[..., Harness],
                                                               redis_url: str) -> None:
    gate = Gate()
    a = start_bot(generator=gate, limits=Limits(seen_events=SEEN_EVENTS, queue_size=1,
                                                user_questions=6, user_window_s=60.0), workers=1, redis_url=redis_url)
    b = start_bot(generator=gate, limits=Limits(seen_events=SEEN_EVENTS, queue_size=1,
                                                user_questions=6, user_window_s=60.0), workers=1, redis_url=redis_url)
    try:
        a.mention(STORY_CLOZE, channel="CA1")  # runs on a's one worker
        waiting = a.mention(STORY_CLOZE, channel="CA2", user="U2")  # waits: the deployment's one waiting place
        a.slack.wait_for(lambda c: c.params.get("thread_ts") == waiting and "queued behind" in str(
            c.params.get("text")), timeout=30)
        b.mention(STORY_CLOZE, channel="CB1", user="U3")  # runs on b's free worker: no waiting place needed
        assert gate.wait_started(2)  # CA1 and CB1 on their workers (on a busy box CB1 may start late)
        turned = new_ts()
        b.mention(STORY_CLOZE, channel="CB2", user="U4", ts=turned)  # would wait on b, but the deployment is full
        [away] = b.slack.wait_for(lambda c: c.params.get("thread_ts") == turned and c.method == "chat.postMessage",
                                  timeout=30)
        assert "as many questions as I can" in away.params["text"]
    finally:
        gate.release.set()
    answers = a.answers(count=3, timeout=30)
    assert sorted(c.params["channel"] for c in answers) == ["CA1", "CA2", "CB1"]
    with Redis.from_url(redis_url) as r:
        assert r.zcard(KEY) == 0  # the waiting question gave its place back when it started
