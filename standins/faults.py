"""The fault matrix: each fault injected for real through a stand-in on loopback, and what the user then sees in Slack.

Shared by tests/bot/test_faults.py (which asserts each row) and scripts/fault_matrix.py (which prints the table for
docs/RELIABILITY.md). The bot runs the production wiring: the generator and the KG come from ``pipeline.factory``
(TGI backed by the adapter; the endpoint behind the answer cache, backed by the SciQA snapshot).
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

from bot.limits import SEEN_EVENTS, Limits
from pipeline.blueprint import Blueprint
from pipeline.core import Bounds, Parts, Pipeline
from pipeline.factory import build_generator, build_kg, build_reply_check, build_writers
from pipeline.settings import Settings
from pipeline.store.chroma import ChromaStore
from pipeline.store.connection import ChromaConnection
from standins.harness import STORY_CLOZE, Harness, blocks_of, is_answer
from standins.slack.api import Call, SlackAPIServer
from standins.sparql_endpoint import EndpointServer, refused_url
from standins.tcp import HoldingProxy
from standins.tgi import TGIServer

TIMEOUTS = {"tgi_timeout": 1.0, "kg_timeout": 1.0, "store_timeout": 1.0, "deadline": 8.0, "cache_ttl": 0.0,
            "slack_surface": "classic"}  # the scenarios read the placeholder-and-update path
NOT_IN_SNAPSHOT = 'SELECT ?model WHERE { ?model rdfs:label "Zebra crossing model" }'


@dataclass
class World:
    """The stand-ins one scenario runs against."""

    tgi: TGIServer
    endpoint: EndpointServer
    slack: SlackAPIServer
    kg_url: str
    chroma_url: str = ""  # a Chroma server in place of the on-disk store (one that fails: see Scenario.store)

    def names(self) -> dict[str, str]:
        """The stand-ins' URLs and what to call them in a table."""
        return {url: name for url, name in ((self.kg_url, "<endpoint>"), (self.tgi.url, "<tgi>"),
                                            (self.chroma_url, "<chroma>")) if url}


@dataclass(frozen=True)
class Scenario:
    fault: str
    arrange: Callable[[World], object]  # what it returns is ignored
    expect: tuple[str, ...]  # what the reply must say (substrings of its text and blocks)
    settings: dict[str, Any] = field(default_factory=dict)
    refused: bool = False  # the KG URL refuses connections
    store: str = ""  # "down": the example store is a Chroma server refusing connections; "hangs": one never answering
    answered: bool = True  # a reply with the answer's buttons arrives (False: Slack accepts no call at all)
    how: str = ""  # what the bot does about it, for the table


@dataclass(frozen=True)
class Outcome:
    scenario: Scenario
    seconds: float  # from the event's POST to the final reply's arrival at Slack
    sees: str  # what the user reads: the answer line and the caveats
    reply: Call | None
    names: dict[str, str] = field(default_factory=dict)  # the stand-ins' URLs -> <tgi>, <endpoint>, <chroma>


def _noop(world: World) -> None:
    pass


def _hang_and_unknown(world: World) -> None:
    world.endpoint.set_fault("hang")
    world.tgi.enqueue(NOT_IN_SNAPSHOT)


def _both_down(world: World) -> None:
    world.tgi.set_fault("500")
    world.endpoint.set_fault("reset")


def _slack_down(world: World) -> None:
    world.slack.fail_next("chat.postMessage", 500, count=10)
    world.slack.fail_next("chat.update", 500, count=10)


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("none (baseline)", _noop, ("GPT-3 175B (Few-Shot)",),
             how="TGI writes the query, the endpoint answers"),
    Scenario("TGI 500", lambda w: w.tgi.set_fault("500"),
             ("GPT-3 175B (Few-Shot)", "GenerationError", "written by the offline adapter"),
             how="asked again once (the check loop), then the offline adapter writes the query"),
    Scenario("TGI 503 once", lambda w: w.tgi.set_fault("503", times=1), ("GPT-3 175B (Few-Shot)",),
             how="the TGI client retries an overloaded server once after 0.5 s"),
    Scenario("TGI hangs past its timeout", lambda w: w.tgi.set_fault("hang"),
             ("GPT-3 175B (Few-Shot)", "did not answer in time", "written by the offline adapter"),
             how="timeout 1 s, asked again once, then the adapter"),
    Scenario("TGI truncated stream", lambda w: w.tgi.set_fault("truncated_sse"),
             ("GPT-3 175B (Few-Shot)", "Connection broken", "written by the offline adapter"),
             how="the cut body is an error; asked again, then the adapter"),
    Scenario("TGI answers prose, no SPARQL", lambda w: w.tgi.set_fault("garbage"),
             ("GPT-3 175B (Few-Shot)", "wrote no usable query", "written by the offline adapter"),
             how="no query in the reply; asked again, then the adapter"),
    Scenario("KG refuses connections", _noop, ("GPT-3 175B (Few-Shot)", "connection refused", "early 2023"),
             refused=True,
             how="no retry (refused is immediate); the SciQA snapshot answers"),
    Scenario("KG hangs", lambda w: w.endpoint.set_fault("hang"),
             ("GPT-3 175B (Few-Shot)", "did not answer in 1 s", "early 2023"),
             how="timeout 1 s, not retried; the snapshot answers"),
    Scenario("KG returns HTML", lambda w: w.endpoint.set_fault("html"),
             ("GPT-3 175B (Few-Shot)", "not SPARQL JSON results", "early 2023"),
             how="a 200 that is no SPARQL result counts as no answer; the snapshot answers"),
    Scenario("KG returns invalid JSON", lambda w: w.endpoint.set_fault("bad_json"),
             ("GPT-3 175B (Few-Shot)", "not SPARQL JSON results", "early 2023"),
             how="as HTML"),
    Scenario("KG 503 once", lambda w: w.endpoint.set_fault("503", times=1), ("GPT-3 175B (Few-Shot)",),
             how="a gateway's 503 is retried (up to 2 times, 0.25 s then 0.5 s)"),
    Scenario("KG hangs, nothing in the rebuilt graph",
             _hang_and_unknown,
             ("Nothing found", "did not answer in 1 s", "rebuilt from SciQA", "Zebra crossing model"),
             settings={"llm_fallback": "none"},  # with the adapter, its own query would answer the question instead
             how="the offline graph rebuilt from SciQA has no such name either: says both, shows the query"),
    Scenario("KG down, answer cached earlier", lambda w: _cache_then_refuse(w),
             ("GPT-3 175B (Few-Shot)", "showing the cached result from"), settings={"cache_ttl": 1e-9},
             how="connection dropped (retried twice), then the answer cache, with its date"),
    Scenario("KG slower than the question's deadline", lambda w: w.endpoint.set_fault("hang"),
             ("Here is the query I wrote", "time budget of 2 s", "SELECT"), settings={"deadline": 2.0,
                                                                                     "kg_timeout": 5.0},
             how="the 2 s question deadline cuts the KG step: the query without an answer"),
    Scenario("TGI and KG both down", _both_down,
             ("GPT-3 175B (Few-Shot)", "written by the offline adapter", "early 2023"),
             how="adapter and snapshot together"),
    Scenario("Chroma server down", _noop,
             ("No answer", "could not be reached", "check that the Chroma server is running"), store="down",
             how="the bot started anyway (the store connects at first use); no examples, so no query: says why"),
    Scenario("Chroma server hangs", _noop, ("No answer", "did not answer within 1 s", "try again shortly"),
             store="hangs",
             how="every Chroma call (opening included) times out after 1 s (`KGQA_STORE_TIMEOUT`); says why"),
    Scenario("Slack 429 on the placeholder", lambda w: w.slack.fail_next("chat.postMessage", 429, retry_after=1),
             ("GPT-3 175B (Few-Shot)",),
             how="the Web API client waits out Retry-After (1 s), then posts"),
    Scenario("Slack 500 on the placeholder", lambda w: w.slack.fail_next("chat.postMessage", 500),
             ("GPT-3 175B (Few-Shot)",),
             how="no placeholder; the answer is posted when ready"),
    Scenario("Slack 500 on every update", lambda w: w.slack.fail_next("chat.update", 500, count=3),
             ("GPT-3 175B (Few-Shot)",),
             how="chat.update (idempotent) retried twice, then the answer is posted instead"),
    Scenario("Slack 500 on every call", _slack_down,
             (), answered=False,
             how="nothing can reach the user; logged as undelivered"),
)


def _cache_then_refuse(world: World) -> None:
    """Ask once while the endpoint is up (the answer is cached), then take the endpoint down."""
    world.endpoint.set_fault("reset")  # set after the warm-up question below has been answered


@contextmanager
def world(refused: bool = False, store: str = "") -> Iterator[World]:
    with ExitStack() as stack:
        tgi = stack.enter_context(TGIServer(hang_seconds=20))
        endpoint = stack.enter_context(EndpointServer(_SnapshotProxy(), hang_seconds=20))
        slack = stack.enter_context(SlackAPIServer())
        kg_url = stack.enter_context(refused_url()) if refused else endpoint.url
        chroma_url = ""
        if store == "down":
            chroma_url = stack.enter_context(refused_url()).removesuffix("/sparql")
        elif store == "hangs":
            chroma_url = stack.enter_context(HoldingProxy(None)).url
        yield World(tgi, endpoint, slack, kg_url, chroma_url)


class _SnapshotProxy:
    """Filled in by ``run``: the endpoint stand-in answers as ORKG did (the SciQA snapshot)."""

    name = "snapshot"
    virtuoso = True
    kg: Any = None

    def select(self, query: str) -> Any:
        return type(self).kg.select(query)

    def ping(self, timeout: float = 2.0) -> bool:
        return True


def pipeline_for(world: World, store: ChromaStore, settings: Settings) -> Pipeline:
    """The production parts from the factory, pointed at the stand-ins."""
    settings = settings.with_(tgi_url=world.tgi.url, endpoint=world.kg_url, kg="auto")
    model = build_generator(settings, "tgi")
    return Pipeline(Parts(store, model, build_kg(settings), writers=build_writers(Blueprint.of(settings, "tgi"), model),
                          reply=build_reply_check(None)), Bounds.of(settings, settings.deadline))


def run(scenario: Scenario, store: ChromaStore, settings: Settings, snapshot: Any) -> Outcome:
    """One scenario on a fresh bot: arrange the fault, mention the bot, time the reply, read what it says."""
    _SnapshotProxy.kg = snapshot
    settings = settings.with_(**{**TIMEOUTS, **scenario.settings})
    with world(scenario.refused, scenario.store) as w:
        if w.chroma_url:
            store = ChromaStore(ChromaConnection(None, w.chroma_url, settings.store_timeout), store.encoder,
                                store.name)
        limits = Limits(seen_events=SEEN_EVENTS, queue_size=settings.queue_size, user_questions=100,
                        user_window_s=settings.user_window_s)
        bot = Harness.start(w.slack, pipeline_for(w, store, settings), settings, limits)
        try:
            if scenario.fault.startswith("KG down, answer cached"):
                bot.mention(STORY_CLOZE)
                bot.answers()
                w.slack.reset()
            scenario.arrange(w)
            started = time.monotonic()
            ts = bot.mention(STORY_CLOZE)
            if not scenario.answered:
                bot.pool.wait_idle(timeout=30)
                return Outcome(scenario, time.monotonic() - started, "(nothing: Slack accepted no call; the log "
                               "says: could not deliver the answer to event … (SlackApiError: internal_error))", None,
                               w.names())
            [reply] = w.slack.wait_for(lambda c: is_answer(c) and _in_thread(c, ts), timeout=30)
            return Outcome(scenario, reply.at - started, sees(reply), reply, w.names())
        finally:
            bot.close()


def _in_thread(call: Call, ts: str) -> bool:
    return call.params.get("thread_ts") == ts or call.method == "chat.update"


def sees(call: Call) -> str:
    """The reply as a person reads it, in one line: the answer (or why none) and the caveats, without the examples,
    the SPARQL and the timings."""
    parts: list[str] = []
    for block in blocks_of(call):
        if block.get("type") == "section":
            text = str(block.get("text", {}).get("text", ""))
            if text.startswith("*SPARQL*"):
                parts.append("[the SPARQL]")
            elif not text.startswith(("*Answer*", "`", "*Questions I know", ":warning: *No answer.*")):
                parts.append(text.splitlines()[0])
        elif block.get("type") == "context":
            parts += [e["text"] for e in block.get("elements", []) if e.get("text", "").startswith("KG:")
                      or "language model" in e.get("text", "")]
    head = str(call.params.get("text", ""))
    return " · ".join([head] + [p for p in parts if p and p not in head])
