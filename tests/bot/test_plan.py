"""One answer's stream against the Slack stand-in: the pipeline's steps as plan tasks in order with their states,
a stream kept past Slack's time limit by a slow model ends with the answer exactly once, a 30k-character reply
arrives whole across messages under the 12k cap, and the status line is cleared on every path."""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from slack_sdk import WebClient

from bot import plan as plan_module
from bot.native import Kit
from bot.plan import PLAN_TITLE, TASKS, Plan
from bot.render import RESULT_FILE, notice
from bot.streaming import READING, Surfaces, status_for
from pipeline.core import Bounds, Parts, Pipeline
from pipeline.generators.adapter import AdapterGenerator
from pipeline.records import Generation, Retrieved, Rows, Step
from pipeline.settings import Settings
from pipeline.store.chroma import ChromaStore
from standins.fakes import RecordingKG
from standins.harness import STORY_CLOZE, TOKEN, Harness, blocks_of, is_answer, streamed_text
from standins.slack.agent import MAX_MARKDOWN
from standins.slack.api import Call, SlackAPIServer

STREAMS = ("chat.startStream", "chat.appendStream", "chat.stopStream")


class Slow:
    """A model on a busy CPU: the adapter's query, after ``seconds``."""

    name = "slow"

    def __init__(self, seconds: float) -> None:
        self.seconds, self.inner = seconds, AdapterGenerator(0.45)

    def generate(self, question: str, examples: list[Retrieved]) -> Generation:
        time.sleep(self.seconds)  # the slowness under test, not a wait for a condition
        return self.inner.generate(question, examples)


class Broken:
    """A generator with a bug in it."""

    name = "broken"

    def generate(self, question: str, examples: list[Retrieved]) -> Generation:
        raise RuntimeError("a bug")


def chunks(call: Call) -> list[dict[str, Any]]:
    raw = call.params.get("chunks") or []
    return list(json.loads(raw) if isinstance(raw, (str, bytes)) else raw)


def tasks(slack: SlackAPIServer) -> list[tuple[str, str]]:
    """Every task update in the order Slack received them: (task id, status)."""
    return [(c["id"], c["status"]) for call in slack.calls if call.method in STREAMS and call.ok
            for c in chunks(call) if c["type"] == "task_update"]


def cleared(slack: SlackAPIServer, thread_ts: str) -> Call:
    [call] = slack.wait_for(lambda c: c.method == "assistant.threads.setStatus" and c.params["status"] == ""
                            and c.params["thread_ts"] == thread_ts)
    return call


def test_the_plan_shows_the_pipelines_steps_in_order_each_done_before_the_next(slack: SlackAPIServer,
                                                                               named_agent: Harness) -> None:
    named_agent.mention(STORY_CLOZE)
    [answer] = named_agent.answers()
    [start] = slack.calls_to("chat.startStream")
    assert start.params["task_display_mode"] == "plan"
    assert {"type": "plan_update", "title": PLAN_TITLE} in chunks(start)
    order = [Step.RETRIEVE, Step.GENERATE, Step.NAMES, Step.RUN]
    ids = [f"{s.value}-{n}" for n, s in enumerate(order, 1)]
    expected = [(ids[0], "in_progress")] + [x for a, b in zip(ids, ids[1:], strict=False)
                                            for x in ((a, "complete"), (b, "in_progress"))] + [(ids[-1], "complete")]
    assert tasks(slack) == expected
    titles = [c["title"] for call in slack.calls if call.method in STREAMS for c in chunks(call)
              if c["type"] == "task_update" and c["status"] == "in_progress"]
    assert titles == [TASKS[s] for s in order]
    stream = slack.streams[("C1", answer.params["ts"])]
    assert set(stream.tasks.values()) == {"complete"} and stream.title == PLAN_TITLE


def test_a_declined_question_ends_its_plan_with_an_error_and_clears_the_status(slack: SlackAPIServer,
                                                                             agent: Harness) -> None:
    ts = agent.mention("What is the capital of France, and who painted the Mona Lisa?")
    [answer] = agent.answers()
    assert "No answer" in json.dumps(answer.params.get("blocks")) and "context_actions" not in json.dumps(
        answer.params.get("blocks"))  # a decline has nothing to rate
    assert tasks(slack)[-1][1] == "error"
    assert cleared(slack, ts).at >= answer.at


def test_a_stream_kept_past_slacks_time_limit_by_a_slow_model_ends_with_the_answer_once(
        slack: SlackAPIServer, start_bot: Callable[..., Harness], monkeypatch: pytest.MonkeyPatch) -> None:
    slack.stream_limit_s = 1.0  # Slack: about five minutes
    monkeypatch.setattr(plan_module, "STREAM_LIFETIME_S", 0.6)  # the bot finishes a stream before that
    bot = start_bot(slack_surface="agent", generator=Slow(2.2))
    ts = bot.mention(STORY_CLOZE)
    [answer] = bot.answers(timeout=30)
    cleared(slack, ts)
    streams = slack.calls_to("chat.startStream")
    assert len(streams) >= 2 and all(c.params["thread_ts"] == ts for c in streams)
    assert not [c for c in slack.calls if not c.ok]  # no call ran into message_not_in_streaming_state
    assert sum(is_answer(c) for c in slack.calls) == 1 and answer.method == "chat.stopStream"
    assert "GPT-3 175B (Few-Shot)" in "".join(streamed_text(c) for c in slack.calls if c.method in STREAMS)
    assert any("continue below" in streamed_text(c) for c in slack.calls_to("chat.stopStream"))
    last = slack.streams[("C1", answer.params["ts"])]
    assert next(iter(last.tasks)) == "retrieve-1"  # a new stream shows the whole plan so far


def test_a_stream_slack_ended_first_is_continued_in_a_new_one_and_the_answer_lands_once(
        slack: SlackAPIServer, start_bot: Callable[..., Harness]) -> None:
    slack.stream_limit_s = 0.5  # shorter than the bot's own limit: Slack ends the stream first
    bot = start_bot(slack_surface="agent", generator=Slow(1.0))
    bot.mention(STORY_CLOZE)
    [answer] = bot.answers(timeout=30)
    refused = [c for c in slack.calls if not c.ok]
    assert refused and all(json.loads(c.body or b"{}") is not None for c in refused)
    assert len(slack.calls_to("chat.startStream")) == 2 and sum(is_answer(c) for c in slack.calls) == 1
    assert answer.ok and "GPT-3 175B (Few-Shot)" in "".join(
        streamed_text(c) for c in slack.calls if c.method in STREAMS and c.ok)


def test_a_30000_character_reply_arrives_whole_in_messages_under_the_cap(slack: SlackAPIServer) -> None:
    client = WebClient(token=TOKEN, base_url=slack.url)
    plan = Plan(client, "D1", "1700000000.000100", "T1", "U1", Surfaces(lambda *a, **k: None))
    plan.step(Step.RETRIEVE)
    text = "".join(f"{n}. a model evaluated on the benchmark, with its score and paper\n" for n in range(500))
    assert len(text) > 30_000
    ts, kit = plan.finish(text, [(Kit.CLASSIC, notice("done").blocks)], ok=True)
    assert kit is Kit.CLASSIC and ts == plan.messages[-1] and len(plan.messages) >= 3
    assert all(c.ok for c in slack.calls)  # never msg_too_long
    held = [slack.streams[("D1", t)].text for t in plan.messages]
    assert all(len(t) <= MAX_MARKDOWN for t in held) and "".join(held) == text


def test_the_status_is_cleared_when_the_bot_stops_with_a_question_in_hand(slack: SlackAPIServer) -> None:
    client = WebClient(token=TOKEN, base_url=slack.url)
    surfaces = Surfaces(lambda *a, **k: None)
    line = status_for(client, "C1", "1700000000.000100", surfaces, "T1")
    assert line.show(READING)
    assert surfaces.clear_all() == 1 and surfaces.clear_all() == 0
    assert [c.params["status"] for c in slack.calls_to("assistant.threads.setStatus")] == [READING, ""]


def test_the_status_is_cleared_after_an_error_and_after_a_timeout(start_bot: Callable[..., Harness],
                                                                  slack: SlackAPIServer, store: ChromaStore,
                                                                  snapshot_kg: Any, bot_settings: Settings) -> None:
    broken = start_bot(slack_surface="agent", generator=Broken())
    ts = broken.mention(STORY_CLOZE)
    cleared(slack, ts)
    pipeline = Pipeline(Parts(store, Slow(3.0), snapshot_kg),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, deadline=0.5, workers=4))
    slow = Harness.start(slack, pipeline, bot_settings.with_(slack_surface="agent"))
    try:
        late = slow.mention(STORY_CLOZE)
        [answer] = slow.slack.wait_for(is_answer)  # the crash's notice is no answer: this is the timed-out one
        assert "No answer" in json.dumps(answer.params.get("blocks"))
        assert cleared(slack, late).at >= answer.at
    finally:
        slow.close()



def test_a_step_announced_after_the_answer_opens_no_stream(slack: SlackAPIServer) -> None:
    client = WebClient(token=TOKEN, base_url=slack.url)
    plan = Plan(client, "D1", "1700000000.000100", "T1", "U1", Surfaces(lambda *a, **k: None))
    plan.step(Step.RETRIEVE)
    plan.finish("Nothing found.", [(Kit.CLASSIC, notice("done").blocks)], ok=False)
    before = len(slack.calls)
    plan.step(Step.RUN)  # a stage thread past the question's deadline
    assert len(slack.calls) == before and len(slack.calls_to("chat.startStream")) == 1


def test_a_30000_character_answer_reaches_the_thread_whole(slack: SlackAPIServer,
                                                           start_bot: Callable[..., Harness]) -> None:
    names = [f"A model evaluated on the Story Cloze Test, variant number {n:04d}" for n in range(500)]
    rows = Rows(["model", "model_lbl"], [{"model": {"type": "uri", "value": f"http://orkg.org/orkg/resource/R{n}"},
                                          "model_lbl": {"type": "literal", "value": name}}
                                         for n, name in enumerate(names)], source="recording")
    assert sum(map(len, names)) > 30_000
    bot = start_bot(slack_surface="agent", kg=RecordingKG(rows))
    bot.mention("What models are being evaluated on the Story Cloze Test dataset?")
    [answer] = bot.answers()
    assert all(c.ok for c in slack.calls)  # no msg_too_long, no invalid_blocks: every limit kept before sending
    [table] = [b for b in blocks_of(answer) if b["type"] == "data_table"]
    assert 1 < len(table["rows"]) <= 101
    slack.wait_for("files.completeUploadExternal")
    [csv] = [f for f in slack.uploaded_files if f["filename"] == RESULT_FILE]
    assert all(name in csv["content"].decode() for name in names)  # every row, whole, in the thread
