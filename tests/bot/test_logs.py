"""Secrets never reach logs or replies; each question leaves one structured log line."""
from __future__ import annotations

import io
import json
import logging
from collections.abc import Callable, Iterator, Sequence

import pytest

from bot.logs import MASK, Scrubber, ScrubFilter
from pipeline.errors import GeneratorError
from pipeline.records import Generation, Retrieved
from tests.bot.harness import SECRET, STORY_CLOZE, TOKEN, Harness, shown


@pytest.fixture
def log_text() -> Iterator[Callable[[], str]]:
    """Everything logged at DEBUG (Bolt's and slack_sdk's own logs too), through the scrubbing filter."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s %(message)s"))
    handler.addFilter(ScrubFilter(Scrubber([TOKEN, SECRET])))
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    yield stream.getvalue
    root.removeHandler(handler)
    root.setLevel(level)


class Leaky:
    """A generator whose error message carries the token, as a badly written client library might."""

    name = "leaky"

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        raise GeneratorError(f"upstream refused the key {TOKEN} (signing {SECRET})")


class Crashing:
    name = "crashing"

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        raise RuntimeError(f"bug with {TOKEN} inside")


def test_no_token_or_secret_in_logs_or_replies(start_bot: Callable[..., Harness], log_text: Callable[[], str]) -> None:
    for generator in (None, Leaky(), Crashing()):
        bot = start_bot(generator=generator)
        bot.mention(STORY_CLOZE)
        bot.slack.wait_for(lambda c: c.method == "chat.update" and "Working" not in c.params.get("text", ""))
        bot.close()
    replies = "\n".join(shown(c) for c in bot.slack.calls_to("chat.update"))
    logged = log_text()
    assert TOKEN not in logged and SECRET not in logged
    assert TOKEN not in replies and SECRET not in replies
    assert MASK in logged and MASK in replies  # the leaks were there, and were masked


def test_one_structured_line_per_question(bot: Harness, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="kgqa.bot")
    bot.mention(STORY_CLOZE, event_id="Ev-log")
    bot.answers()
    bot.pool.wait_idle(10)
    [line] = [r.getMessage() for r in caplog.records if r.getMessage().startswith("question ")]
    fields = json.loads(line.split(" ", 1)[1])
    assert fields["event_id"] == "Ev-log" and fields["outcome"] == "answered" and fields["rows"] == 1
    assert fields["generator"] == "adapter" and fields["kg"] == "snapshot" and fields["channel"] == "C1"
    assert set(fields["timings_ms"]) >= {"retrieve", "generate", "kg"} and fields["total_ms"] > 0


def test_scrubber_masks_nested_payloads() -> None:
    scrubber = Scrubber(["xoxb-abc", "xoxb-abc-longer", "", "ab"])
    assert scrubber.text("a xoxb-abc-longer b xoxb-abc") == f"a {MASK} b {MASK}"
    assert scrubber.data([{"text": {"text": "xoxb-abc"}}, 3]) == [{"text": {"text": MASK}}, 3]
    assert scrubber.text("ab stays: too short to be a secret") == "ab stays: too short to be a secret"
