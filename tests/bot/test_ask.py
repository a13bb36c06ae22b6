"""Questions by mention and DM, through real HTTP and real signing: one threaded reply, no duplicates, never silence."""
from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from bot.limits import SEEN_EVENTS, Limits
from pipeline.generators.adapter import AdapterGenerator
from pipeline.records import Generation, Retrieved, Rows
from standins.fakes import RecordingKG, failing_kg
from standins.harness import STORY_CLOZE, Harness, blocks_of, button_value, new_ts, shown


def thread_posts(bot: Harness, ts: str) -> list[Any]:
    return [c for c in bot.slack.calls_to("chat.postMessage") if c.params.get("thread_ts") == ts]


def test_a_mention_gets_one_threaded_reply_with_the_sparql_and_the_answer(bot: Harness) -> None:
    ts = bot.mention(STORY_CLOZE)

    [answer] = bot.answers()
    [placeholder] = thread_posts(bot, ts)
    assert placeholder.params["channel"] == "C1" and "Working on it" in placeholder.params["text"]
    assert answer.method == "chat.update" and answer.params["channel"] == "C1"
    text = shown(answer)
    assert 'FILTER(str(?dataset_lbl) = \\"Story Cloze Test\\")\\n' in text and "SELECT DISTINCT ?model" in text
    assert "<https://orkg.org/resource/R117327|GPT-3 175B (Few-Shot)>" in text
    assert answer.params["text"] == ("Models evaluated on dataset 'Story Cloze Test', ordered by their 'Accuracy' "
                                     "score, the best one: GPT-3 175B (Few-Shot).")
    assert len(bot.slack.calls_to("chat.update")) == 1


def test_a_mention_inside_a_thread_is_answered_in_that_thread(bot: Harness) -> None:
    bot.mention(STORY_CLOZE, thread_ts="1700000000.000001")
    bot.answers()
    [placeholder] = bot.slack.calls_to("chat.postMessage")
    assert placeholder.params["thread_ts"] == "1700000000.000001"


def test_a_retried_event_gets_no_second_reply(bot: Harness) -> None:
    ts = bot.mention(STORY_CLOZE, event_id="Ev-retried")
    bot.answers()
    for retry in (1, 2):  # Slack retries with the same event_id; the dedup decides before the 200 goes back
        bot.mention(STORY_CLOZE, ts=ts, event_id="Ev-retried", retry_num=retry)

    assert len(thread_posts(bot, ts)) == 1 and len(bot.answers()) == 1


def test_a_mention_also_delivered_as_a_message_is_answered_once(bot: Harness) -> None:
    ts = new_ts()
    bot.dm(f"<@UBOT> {STORY_CLOZE}", channel="C9", ts=ts)  # message event for the same channel and ts
    bot.mention(STORY_CLOZE, channel="C9", ts=ts)
    channel_ts = bot.mention(STORY_CLOZE, channel="C1")
    message = {"type": "message", "channel": "C1", "channel_type": "channel", "user": "U1", "ts": channel_ts,
               "text": f"<@UBOT> {STORY_CLOZE}"}
    assert bot.event(message) == 200  # message.channels copy of that mention

    bot.answers(count=2)
    assert len(thread_posts(bot, ts)) == 1 and len(thread_posts(bot, channel_ts)) == 1


def test_a_dm_is_answered_in_its_thread(bot: Harness) -> None:
    ts = bot.dm(STORY_CLOZE)
    [answer] = bot.answers()
    [placeholder] = thread_posts(bot, ts)
    assert placeholder.params["channel"] == answer.params["channel"] == "D1"
    assert "GPT-3 175B (Few-Shot)" in shown(answer)


def test_bot_messages_edits_and_channel_chatter_are_never_answered(bot: Harness) -> None:
    ts = new_ts()
    ignored = [
        {"type": "message", "channel": "D1", "channel_type": "im", "bot_id": "BOTHER", "user": "U2", "ts": ts,
         "text": STORY_CLOZE},
        {"type": "message", "subtype": "message_changed", "channel": "D1", "channel_type": "im", "ts": new_ts(),
         "message": {"text": STORY_CLOZE}},
        {"type": "message", "channel": "D1", "channel_type": "im", "user": "UBOT", "bot_id": "BBOT", "ts": new_ts(),
         "text": STORY_CLOZE},
        {"type": "message", "channel": "C1", "channel_type": "channel", "user": "U1", "ts": new_ts(),
         "text": "lunch?"},
    ]
    for event in ignored:
        assert bot.event(event) == 200
    bot.dm(STORY_CLOZE)
    bot.answers()
    assert len(bot.slack.calls_to("chat.postMessage")) == 1


def test_an_empty_mention_gets_a_hint_and_asks_nothing(start_bot: Callable[..., Harness]) -> None:
    kg = RecordingKG()
    bot = start_bot(kg=kg)
    ts = bot.mention("  *  ")
    [hint] = bot.slack.wait_for(lambda c: c.method == "chat.postMessage" and c.params.get("thread_ts") == ts)
    assert "Ask me a question in words" in hint.params["text"] and kg.queries == []


def test_an_overlong_question_is_refused_with_the_limit(start_bot: Callable[..., Harness]) -> None:
    bot = start_bot(max_question_chars=300)
    ts = bot.mention("why " * 30_000)
    [reply] = bot.slack.wait_for(lambda c: c.method == "chat.postMessage" and c.params.get("thread_ts") == ts)
    assert "I take at most 300" in reply.params["text"]


def test_a_user_asking_too_fast_is_asked_to_wait(start_bot: Callable[..., Harness]) -> None:
    bot = start_bot(limits=Limits(seen_events=SEEN_EVENTS, user_questions=2, user_window_s=600, queue_size=50))
    for _ in range(2):
        bot.mention(STORY_CLOZE)
    bot.answers(count=2)
    ts = bot.mention(STORY_CLOZE)
    [reply] = bot.slack.wait_for(lambda c: c.method == "chat.postMessage" and c.params.get("thread_ts") == ts)
    assert "You have asked 2 questions" in reply.params["text"]
    bot.mention(STORY_CLOZE, user="U2")  # someone else is not held back
    bot.answers(count=3)


class Gate:
    """A generator that waits until released, to hold workers busy."""

    name = "adapter"

    def __init__(self) -> None:
        self.release = threading.Event()
        self.inner = AdapterGenerator(0.45)
        self.started = 0  # the questions a worker has begun
        self._begun = threading.Condition()

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        with self._begun:
            self.started += 1
            self._begun.notify_all()
        assert self.release.wait(20)
        return self.inner.generate(question, examples)

    def wait_started(self, count: int, timeout: float = 30.0) -> bool:
        """Whether ``count`` questions have begun on a worker within ``timeout`` (a busy box is slow to start one)."""
        with self._begun:
            return self._begun.wait_for(lambda: self.started >= count, timeout)


def test_when_all_workers_are_busy_questions_queue_then_turn_away(start_bot: Callable[..., Harness]) -> None:
    gate = Gate()
    limits = Limits(seen_events=SEEN_EVENTS, queue_size=1, user_questions=6, user_window_s=60.0)
    bot = start_bot(generator=gate, limits=limits, workers=1)
    first, second, third = bot.mention(STORY_CLOZE), bot.mention(STORY_CLOZE, user="U2"), new_ts()
    [queued] = bot.slack.wait_for(lambda c: c.method == "chat.postMessage" and c.params.get("thread_ts") == second)
    bot.mention(STORY_CLOZE, user="U3", ts=third)
    [away] = bot.slack.wait_for(lambda c: c.method == "chat.postMessage" and c.params.get("thread_ts") == third)
    assert "queued behind 1 other" in queued.params["text"]
    assert "as many questions as I can" in away.params["text"]

    gate.release.set()
    answers = bot.answers(count=2)
    assert {a.params["channel"] for a in answers} == {"C1"} and len(thread_posts(bot, first)) == 1


def test_a_failing_language_model_is_explained(start_bot: Callable[..., Harness], tgi: Any) -> None:
    from pipeline.generators.tgi import TGIGenerator

    tgi.set_fault("500")
    bot = start_bot(generator=TGIGenerator(tgi.url, timeout=5, max_new_tokens=512, retries=1))
    bot.mention(STORY_CLOZE)
    [answer] = bot.answers()
    text = shown(answer)
    assert "No answer." in text and "could not write a query" in text and "language model" in text
    assert "Questions I know that come closest" in text  # and what it could answer instead


def test_a_failing_knowledge_graph_is_explained(start_bot: Callable[..., Harness]) -> None:
    bot = start_bot(kg=failing_kg("ORKG did not answer in 30 s"))
    bot.mention(STORY_CLOZE)
    [answer] = bot.answers()
    assert "ORKG did not answer in 30 s" in shown(answer) and "SELECT DISTINCT ?model" in shown(answer)


def test_an_empty_result_says_what_was_looked_for(start_bot: Callable[..., Harness]) -> None:
    bot = start_bot(kg=RecordingKG(rows=Rows(["model", "model_lbl"], [])))
    bot.mention(STORY_CLOZE)
    assert "It looked for 'Accuracy' / 'Story Cloze Test'" in shown(bot.answers()[0])


def test_a_question_without_a_close_example_gets_the_reason_and_what_can_be_asked(bot: Harness) -> None:
    bot.mention("bananas versus oranges: tastier?")
    text = shown(bot.answers()[0])
    assert "No stored question is close enough" in text and "Try, for example" in text
    assert "come closest" not in text and "kgqa_feedback" not in text  # no unrelated near matches, nothing to rate


class Crashing:
    name = "crashing"

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        raise RuntimeError("a bug")


def test_a_crash_still_gets_a_reply(start_bot: Callable[..., Harness]) -> None:
    bot = start_bot(generator=Crashing())
    ts = bot.mention(STORY_CLOZE, event_id="Ev-crash")
    [reply] = bot.slack.wait_for(lambda c: c.method == "chat.update" and "went wrong" in c.params.get("text", ""))
    assert "Ev-crash" in reply.params["text"] and len(thread_posts(bot, ts)) == 1


def test_500_rows_fit_slacks_limits_and_the_rest_is_a_file(start_bot: Callable[..., Harness]) -> None:
    rows = [{"paper": {"type": "uri", "value": f"http://orkg.org/orkg/resource/R{n}"},
             "paper_lbl": {"type": "literal", "value": f"A paper with a long title, number {n} " + "x" * 80},
             "score": {"type": "literal", "value": f"{n}.5"}} for n in range(500)]
    bot = start_bot(kg=RecordingKG(rows=Rows(["paper", "paper_lbl", "score"], rows)))
    ts = bot.mention(STORY_CLOZE)
    [answer] = bot.answers()
    blocks = blocks_of(answer)
    assert len(blocks) <= 50
    assert all(len(b["text"]["text"]) <= 3000 for b in blocks if b["type"] == "section")
    assert all(len(e["text"]) <= 2000 for b in blocks if b["type"] == "context" for e in b["elements"])
    assert "500 rows — showing the first" in shown(answer)
    [complete] = bot.slack.wait_for("files.completeUploadExternal")
    assert complete.params["channel_id"] == "C1" and complete.params["thread_ts"] == ts
    [csv] = bot.slack.uploads.values()
    lines = csv.decode().splitlines()
    assert lines[0] == "paper,paper_lbl,score" and len(lines) == 501
    assert lines[-1].startswith("http://orkg.org/orkg/resource/R499,")



def test_a_declined_question_offers_a_button_that_asks_the_closest_answerable_one(
        slack: Any, store: Any, snapshot_kg: Any, bot_settings: Any) -> None:
    from pipeline.core import Bounds, Parts, Pipeline
    from pipeline.intent.step import IntentStep

    pipeline = Pipeline(Parts(store, AdapterGenerator(0.45), snapshot_kg, intent=IntentStep()),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    bot = Harness.start(slack, pipeline, bot_settings)
    try:
        ts = bot.mention(STORY_CLOZE.replace("the highest", "the second highest"))
        [declined] = bot.answers()
        text = shown(declined)
        assert "second place" in text and "SELECT" not in text  # nothing ran, no query shown as the answer
        offer = button_value(declined, "kgqa_offer")
        assert offer == STORY_CLOZE
        assert bot.click("kgqa_offer", offer, message_ts=ts) == 200
        [_, answer] = bot.answers(count=2)
        assert "GPT-3 175B (Few-Shot)" in answer.params["text"]
        assert all(c.params.get("thread_ts") == ts for c in bot.slack.calls_to("chat.postMessage"))
    finally:
        bot.close()
