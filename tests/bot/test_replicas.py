"""Two bot processes behind one "load balancer" (every event delivered to both, a share again as Slack's retries),
sharing a dedup file: each event is answered exactly once, and a restarted replica remembers what was answered."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from standins.harness import STORY_CLOZE, is_answer
from standins.replicas import Replica, mention, proc_env, run_proc, settle
from standins.slack.api import SlackAPIServer

N = 40


@pytest.fixture
def shared(tmp_path: Path, sciqa_dir: Path) -> Iterator[tuple[dict[str, str], SlackAPIServer, Callable[..., Replica]]]:
    env = proc_env(tmp_path / "home", sciqa_dir, KGQA_DEDUP_PATH=str(tmp_path / "shared" / "dedup.sqlite3"),
                   KGQA_KG="snapshot", KGQA_WORKERS="2", KGQA_QUEUE_SIZE="500", KGQA_USER_QUESTIONS="100000")
    run_proc(env, "index")
    started: list[Replica] = []
    with SlackAPIServer() as slack:
        def start(name: str) -> Replica:
            replica = Replica(env, slack.url, tmp_path / f"{name}.log")
            started.append(replica)
            return replica

        yield env, slack, start
        for replica in started:
            if replica.proc.poll() is None:
                replica.kill()


def test_two_replicas_fed_the_same_events_answer_each_once(
        shared: tuple[dict[str, str], SlackAPIServer, Callable[..., Replica]]) -> None:
    _env, slack, start = shared
    a, b = start("a"), start("b")
    rng = random.Random(3)
    events = [(f"EvRep{i:04d}", mention(STORY_CLOZE, f"CR{i:04d}", user=f"U{i % 7}")) for i in range(N)]
    deliveries = [(r, eid, ev, None) for eid, ev in events for r in (a, b)]  # the balancer sends each to both
    deliveries += [(rng.choice((a, b)), eid, ev, 1) for eid, ev in rng.sample(events, N // 5)]  # Slack retries
    rng.shuffle(deliveries)
    with ThreadPoolExecutor(max_workers=12) as senders:
        statuses = list(senders.map(lambda d: d[0].event(d[2], d[1], d[3]), deliveries))
    assert set(statuses) == {200}
    slack.wait_for(is_answer, count=N, timeout=120)
    settle([a, b])
    per_channel = Counter(str(c.params["channel"]) for c in slack.calls if is_answer(c))
    assert len(per_channel) == N and set(per_channel.values()) == {1}
    placeholders = Counter(str(c.params["channel"]) for c in slack.calls_to("chat.postMessage") if not is_answer(c))
    assert set(placeholders.values()) == {1}
    answered_by = {r.log.name: r.log.read_text().count('"outcome": "answered"') for r in (a, b)}
    assert sum(answered_by.values()) == N  # both replicas did part of the work, and together all of it

    # A restart keeps what was answered: a late retry of every event, to the fresh process, gets nothing new.
    a.stop()
    again = start("a-again")
    with ThreadPoolExecutor(max_workers=12) as senders:
        assert set(senders.map(lambda e: again.event(e[1], e[0], 2), events)) == {200}
    settle([again, b])
    assert Counter(str(c.params["channel"]) for c in slack.calls if is_answer(c)) == per_channel
    assert again.log.read_text().count('"why": "retry"') == N
