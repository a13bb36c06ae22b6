"""Secrets never reach logs or replies; each question leaves one structured log line."""
from __future__ import annotations

import io
import json
import logging
from collections.abc import Callable, Iterator, Sequence

import pytest

from bot.logs import MASK, Scrubber, ScrubFilter
from pipeline.errors import GeneratorError, KnowledgeGraphError
from pipeline.records import Generation, Retrieved, Rows
from standins.fakes import RecordingKG
from standins.harness import SECRET, STORY_CLOZE, TOKEN, Harness, shown


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


def test_pasted_and_echoed_secrets_reach_no_slack_call(start_bot: Callable[..., Harness],
                                                       log_text: Callable[[], str]) -> None:
    """Secrets a user pastes, a KG echoes back or a result carries: masked in every body sent to Slack (messages,
    updates, response_url posts, uploaded files) and in every log line; the token only in the Authorization header."""
    rows = Rows(["x"], [{"x": {"type": "literal", "value": f"row {n} {TOKEN}"}} for n in range(40)], source="kg")
    bot = start_bot(kg=RecordingKG(rows))
    bot.mention(f"Which model is best? my token is {TOKEN} and the secret {SECRET}")
    bot.dm(f"{SECRET}")
    bot.command("/sparql", f'SELECT ?x WHERE {{ ?x ?p "{TOKEN}" }}', reply="sparql")
    bot.command("/kgqa", f"lookup {TOKEN}", reply="lookup")
    bot.replies("sparql")
    bot.replies("lookup")
    bot.answers(count=1)
    bot.slack.wait_for("upload")  # the 40 rows go out as a file too
    bot.close()
    echo = start_bot(kg=RecordingKG(error=KnowledgeGraphError(f"Virtuoso 37000 Error near '{TOKEN}' {SECRET}")))
    echo.mention(STORY_CLOZE)
    echo.answers()
    echo.close()
    calls = bot.slack.calls
    for call in calls:
        sent = call.body.decode("utf-8", "replace") + json.dumps(call.params, default=str)
        assert TOKEN not in sent and SECRET not in sent, (call.method, sent[:300])
        assert SECRET not in json.dumps(call.headers)
    assert {c.headers.get("authorization") for c in calls if c.method not in ("response_url", "upload")} == \
        {f"Bearer {TOKEN}"}
    assert MASK in "".join(c.body.decode("utf-8", "replace") for c in calls)  # the leaks were there, and masked
    logged = log_text()
    assert TOKEN not in logged and SECRET not in logged
