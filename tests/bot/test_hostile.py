"""Hostile input against the real bot, whose KG is a Virtuoso on loopback that *accepts* writes (SPARQL_UPDATE granted
to its SPARQL user, as a careless deployment might): every case gets a clear refusal or a normal answer, nothing
crashes, and afterwards the store holds exactly the quads it held before."""
from __future__ import annotations

import json
import logging
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.limits import SEEN_EVENTS, Limits
from pipeline.blueprint import Blueprint
from pipeline.core import Bounds, Parts, Pipeline
from pipeline.factory import build_generator, build_reply_check, build_writers
from pipeline.kg.endpoint import EndpointKG
from pipeline.sciqa import SciQA
from pipeline.settings import Settings
from pipeline.sparql.text import engine_procedures, forbidden_words
from standins.fakes import RecordingProxy
from standins.harness import SECRET, Harness, hash_store, is_answer, new_ts, shown, train_slice
from standins.slack.api import Call, SlackAPIServer
from standins.slack.signing import event_envelope, post_signed
from standins.tgi import TGIServer
from standins.virtuoso import VirtuosoServer
from tests.bot.hostile_cases import CASES, Case

CONTROL = "http://example.org/control"
CRASHES = ("Something went wrong", "Traceback")
REFUSALS = ("refused", "not run", "characters long", "Ask me a question in words")


def quads(virtuoso: VirtuosoServer, graph: str | None = None) -> int:
    where = f"GRAPH <{graph}> {{ ?s ?p ?o }}" if graph else "GRAPH ?g { ?s ?p ?o }"
    out = virtuoso.isql(f"SPARQL SELECT COUNT(*) WHERE {{ {where} }};")
    return int(next(line.strip() for line in out.splitlines() if line.strip().isdigit()))


@dataclass
class Hostile:
    bot: Harness
    tgi: TGIServer
    kg: RecordingProxy
    virtuoso: VirtuosoServer
    quads_before: int
    problems: list[logging.LogRecord]


class _Problems(logging.Handler):
    def __init__(self, into: list[logging.LogRecord]) -> None:
        super().__init__(logging.ERROR)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        self.into.append(record)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory, sciqa: SciQA, sciqa_dir: Path,
            orkg_fixture_nt: Path) -> Iterator[Hostile]:
    home = tmp_path_factory.mktemp("hostile")
    problems: list[logging.LogRecord] = []
    handler = _Problems(problems)
    logging.getLogger().addHandler(handler)
    with VirtuosoServer(orkg_fixture_nt) as virtuoso, TGIServer() as tgi, SlackAPIServer() as slack:
        virtuoso.isql('GRANT SPARQL_UPDATE TO "SPARQL";')
        # The control: this endpoint executes a write sent to it directly, so a write let through would show.
        query = urllib.parse.urlencode({"query": f"INSERT DATA {{ GRAPH <{CONTROL}> {{ <x:a> <x:b> <x:c> }} }}"})
        urllib.request.urlopen(f"{virtuoso.endpoint}?{query}", timeout=10).close()
        assert quads(virtuoso, CONTROL) == 1
        settings = Settings(home=home, sciqa_dir=sciqa_dir, workers=2,
                                     tgi_url=tgi.url, tgi_timeout=2.0, deadline=15.0)
        kg = RecordingProxy(EndpointKG(virtuoso.endpoint, timeout=5, row_cap=1000, agent="kgqa-bot", retries=2))
        model = build_generator(settings, "tgi")
        pipeline = Pipeline(Parts(hash_store(home / "chroma", train_slice(sciqa)), model, kg,
                                  writers=build_writers(Blueprint.of(settings, "tgi"), model),
                                  reply=build_reply_check(None)),
                            Bounds(shots=3, row_cap=1000, max_question_chars=settings.max_question_chars,
                                   deadline=settings.deadline, workers=4))
        limits = Limits(seen_events=SEEN_EVENTS, user_questions=10**6, queue_size=500, user_window_s=60.0)
        bot = Harness.start(slack, pipeline, settings, limits)
        try:
            yield Hostile(bot, tgi, kg, virtuoso, quads(virtuoso), problems)
        finally:
            bot.close()
            logging.getLogger().removeHandler(handler)


def _reply_in(channel: str) -> object:
    def match(call: Call) -> bool:
        return call.params.get("channel") == channel and call.status == 200 and (
            is_answer(call) or (call.method == "chat.postMessage"
            and not str(call.params.get("text", "")).startswith(":hourglass")))
    return match


def ask(h: Hostile, case: Case, n: int) -> str:
    """Send the case the way a person would; return what came back to them."""
    if case.via == "sparql":
        status, body = h.bot.command("/sparql", case.text, user=f"UH{n}", reply=f"hostile-{n}")
        assert status == 200
        if body.strip():  # refused before any work (usage, length): the ack itself says so
            return body
        return str(h.bot.replies(f"hostile-{n}")[0].params.get("text", ""))
    if case.llm:
        h.tgi.enqueue(case.llm, case.llm)  # the model obeys on the first try and when asked again
    channel = f"CH{n:03d}"
    h.bot.mention(case.text, channel=channel, user=f"UH{n}")
    [reply] = h.bot.slack.wait_for(_reply_in(channel), timeout=30)
    h.tgi.clear_queue()
    return shown(reply)


@pytest.mark.parametrize("n, case", list(enumerate(CASES)), ids=[c.id for c in CASES])
def test_hostile_input_gets_a_refusal_or_an_answer_and_writes_nothing(hostile: Hostile, n: int, case: Case) -> None:
    seen = len(hostile.kg.queries)
    said = ask(hostile, case, n)
    assert not any(c in said for c in CRASHES), said[:500]
    if case.expect == "refused":
        assert any(r in said for r in REFUSALS), said[:500]
    for query in hostile.kg.queries[seen:]:  # what reached the endpoint: reads only
        assert not forbidden_words(query) and not engine_procedures(query), query
    assert SECRET not in said and "SeCrEtBoTtOkEn" not in said
    assert "<!channel>" not in said and "<!here>" not in said  # never pings a whole channel on a user's behalf


def test_a_body_that_is_not_utf8_is_refused_unsigned(hostile: Hostile) -> None:
    """Slack sends UTF-8 only; bytes that are not cannot carry a valid signature, so nothing runs."""
    envelope = json.dumps(event_envelope({"type": "app_mention", "user": "U1", "text": "@@TEXT@@", "ts": new_ts(),
                                          "channel": "CX"})).encode()
    body = envelope.replace(b"@@TEXT@@", b"\xff\xfe\xc3( which model is best?")
    status, _ = post_signed(hostile.bot.server.url, SECRET, body, "application/json")
    assert status == 401
    assert all(c.params.get("channel") != "CX" for c in hostile.bot.slack.calls)


def test_no_write_reached_the_store_and_nothing_crashed(hostile: Hostile) -> None:
    """Run last in this module: every case above has been sent."""
    hostile.bot.pool.wait_idle(timeout=30)
    assert quads(hostile.virtuoso) == hostile.quads_before
    assert quads(hostile.virtuoso, CONTROL) == 1
    assert len(hostile.kg.queries) > 0
    assert [r.getMessage() for r in hostile.problems] == []
