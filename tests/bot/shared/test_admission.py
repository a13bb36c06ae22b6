"""The queue's admission count in Redis: KGQA_QUEUE_SIZE bounds the questions waiting on all replicas together; a
waiting question's place is given back when it starts, or when its lease ends (a replica that died)."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable

from redis import Redis

from bot.guard import SEEN_EVENTS, Limits
from bot.shared.admission import KEY, SharedQueue
from pipeline.shared.link import RETRY_S, RedisLink
from standins.harness import STORY_CLOZE, Harness, new_ts
from tests.bot.test_ask import Gate


def test_the_deployments_queue_is_bounded_and_places_are_given_back(redis_url: str) -> None:
    a, b = (SharedQueue(RedisLink(redis_url, 0.5, RETRY_S), 2, 60) for _ in range(2))
    first, second = a.join(), b.join()
    assert first is not None and second is not None and (first[1], second[1]) == (0, 1)
    assert a.join() is None
    b.leave(first[0])  # started on whichever replica: any replica may give it back
    assert a.join() is not None
    with Redis.from_url(redis_url, decode_responses=True) as r:
        assert r.zcard(KEY) == 2 and 0 < r.pttl(KEY) <= 60_000


def test_a_place_whose_replica_died_is_freed_when_its_lease_ends(redis_url: str) -> None:
    queue = SharedQueue(RedisLink(redis_url, 0.5, RETRY_S), 1, 1)
    assert queue.join() is not None and queue.join() is None
    deadline = time.monotonic() + 10
    while queue.join() is None:  # the lease (1 s) ends; polled, not slept
        assert time.monotonic() < deadline
        threading.Event().wait(0.05)


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
