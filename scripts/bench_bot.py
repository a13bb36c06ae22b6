"""Time from a Slack event to the bot's first visible response (the status line on the agent surface, the placeholder
on the classic one) and to the final answer (the stream's end, or the placeholder's update).

The real bot runs over HTTP on loopback; events are signed as Slack signs them. Stand-ins: the Slack Web API
(standins/slack/api.py), TGI serving the recorded Vicuna-13B outputs (standins/tgi.py, through the real
text_generation client), and the SciQA snapshot as the KG. The pipeline is the bot's own (``build_pipeline``: form-aware
retrieval, names and intent steps); the example store is Chroma over SciQA train, embedded with the real
all-MiniLM-L6-v2 (``--encoder hash`` for a hashed bag of words instead, no model).
To time an older checkout with this script: ``PYTHONPATH=OLD python scripts/bench_bot.py ...`` (its pipeline code).

Usage: SCIQA_DIR=../shared/sciqa python scripts/bench_bot.py [--n 100] [--concurrency 1 8] [--workers 4] [--before]
       [--surface agent classic] [--model FILE.gguf --slots 1 2]
``--model``: the real local LLM (``--generator local``, llama.cpp on this machine) instead of the TGI stand-in, once per
``--slots`` value (the server's parallel slots, continuous batching), one server at a time; the model writes every
query (``llm_fallback="none"``), so the figures are the LLM's cost, not the adapter's.
``--before``: every round also with each question calling the model itself (no encoder worker batching concurrent
questions: the bot before issue 13), alternating with the batched rounds in the same run (the machine is noisy).
Prints markdown for docs/results/speed.md. Latencies are measured from just before the event is POSTed to the arrival of
the Web API call at the stand-in, in one process and one monotonic clock. Real Slack adds its own network time.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
from bot.limits import SEEN_EVENTS, Limits
from pipeline.factory import build_index, build_pipeline, build_store
from pipeline.generators.embedded import stop_servers
from pipeline.sciqa import sciqa_for
from pipeline.settings import Settings
from pipeline.store.chroma import ChromaStore
from pipeline.store.connection import open_client
from standins.fakes import HashEncoder
from standins.harness import SECRET, Harness, is_answer, new_ts, shown
from standins.slack.api import SlackAPIServer
from standins.slack.signing import post_event
from standins.tgi import TGIServer

# The stand-ins' servers keep http.server's listen backlog of 5: a burst then overflows it and the kernel's SYN
# retry adds a flat second to some calls, which real Slack would not. (BotServer sets its own backlog.)
ThreadingHTTPServer.request_queue_size = 128


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def one_round(bot: Harness, questions: list[str], concurrency: int, tag: str, wait: float = 60) -> dict[str, Any]:
    """Send every question as a mention in its own channel; wait for all answers; per-event latencies."""
    bot.slack.reset()
    sent: dict[str, float] = {}
    acked: dict[str, float] = {}

    def send(i: int) -> None:
        channel = f"C{tag}{i:05d}"
        ts = new_ts()
        event = {"type": "app_mention", "user": f"U{i}", "text": f"<@UBOT> {questions[i]}", "ts": ts,
                 "channel": channel, "event_ts": ts, "team": "T1"}
        sent[channel] = time.monotonic()
        status, _ = post_event(bot.server.url, SECRET, event)
        acked[channel] = time.monotonic()
        assert status == 200, status

    began = time.monotonic()
    if concurrency == 1:  # one at a time: each event waits for the previous answer (no queueing in the bot)
        for i in range(len(questions)):
            send(i)
            bot.slack.wait_for(lambda c, ch=f"C{tag}{i:05d}": is_answer(c) and c.params["channel"] == ch,
                               timeout=wait)
    else:  # a burst: ``concurrency`` senders post as fast as the bot acks
        with ThreadPoolExecutor(max_workers=concurrency) as senders:
            list(senders.map(send, range(len(questions))))
    finals = bot.slack.wait_for(is_answer, count=len(questions), timeout=wait + wait * len(questions) / 12)
    elapsed = time.monotonic() - began
    first: dict[str, float] = {}
    for call in bot.slack.calls:  # the first thing the asker sees: a status line or a placeholder
        if call.method in ("chat.postMessage", "assistant.threads.setStatus", "chat.startStream"):
            first.setdefault(call.params.get("channel") or call.params["channel_id"], call.at)
    final = {c.params["channel"]: c.at for c in finals}
    ms = lambda a: {ch: (a[ch] - sent[ch]) * 1000 for ch in sent}  # noqa: E731
    return {"ack": list(ms(acked).values()), "first": list(ms(first).values()), "final": list(ms(final).values()),
            "answered": sum("No answer." not in shown(c) for c in finals), "n": len(questions),
            "throughput": len(questions) / elapsed}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100, help="events per round")
    ap.add_argument("--concurrency", type=int, nargs="+", default=[1, 8],
                    help="senders per round: 1 = one event at a time, N = a burst from N senders")
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--encoder", choices=("minilm", "hash"), default="minilm")
    ap.add_argument("--before", action="store_true", help="also run each round with an unbatched encoder")
    ap.add_argument("--surface", nargs="+", choices=("agent", "classic"), default=["agent"],
                    help="agent: status line and streamed answer; classic: placeholder, then its update")
    ap.add_argument("--model", type=Path, help="a GGUF file: the real local LLM instead of the TGI stand-in")
    ap.add_argument("--slots", type=int, nargs="+", default=[1], help="with --model: the server's parallel slots")
    args = ap.parse_args()
    home = Path(tempfile.mkdtemp(prefix="kgqa-bench-bot-"))
    try:
        sciqa_dir = Path(os.environ.get("SCIQA_DIR") or ROOT.parent / "shared" / "sciqa")
        settings = Settings(home=home, sciqa_dir=sciqa_dir, workers=args.workers)
        store = build_store(settings) if args.encoder == "minilm" else \
            ChromaStore(open_client(settings.chroma_path), HashEncoder(), settings.collection)
        t0 = time.perf_counter()
        _, count = build_index(settings, store)
        print(f"store: {count} SciQA train pairs ({args.encoder}) indexed in {time.perf_counter() - t0:.1f} s",
              file=sys.stderr)
        questions = [q for _, q in sciqa_for(settings).challenge("final")]
        questions = (questions * (args.n // len(questions) + 1))[: args.n]
        with TGIServer() as tgi, SlackAPIServer() as slack:
            stores = {"batched": store}
            if args.before:  # the same collection, each question calling the model itself
                stores = {"unbatched (before)": ChromaStore(
                    store.client, getattr(store.encoder, "inner", store.encoder), settings.collection)} | stores
            # the bot's own pipeline (form-aware retrieval, names and intent steps): the TGI stand-in, or the real LLM
            models: list[tuple[str, Settings]] = [("tgi stand-in", settings.with_(
                generator="tgi", tgi_url=tgi.url, tgi_timeout=30.0, kg="snapshot"))]
            if args.model:
                models = [(f"local LLM, {n} slot(s)", settings.with_(
                    generator="local", local_model=str(args.model), local_slots=n, local_context=4096 * n,
                    local_timeout=600.0, deadline=900.0, kg="snapshot", llm_fallback="none")) for n in args.slots]
            wait = 900.0 if args.model else 60.0
            rounds = []
            for model_label, product in models:
                for c in args.concurrency:
                    for (label, used), surface in [(s, f) for s in stores.items() for f in args.surface]:
                        pipeline = build_pipeline(product, store=used)
                        pipeline.ask(questions[0])  # warm-up: model load, first parse
                        bot = Harness.start(slack, pipeline, settings.with_(slack_surface=surface),
                                            Limits(seen_events=SEEN_EVENTS, queue_size=100_000, user_questions=10**9,
                                                   user_window_s=60.0))
                        try:
                            rounds.append((c, f"{model_label}, {label}, {surface}",
                                           one_round(bot, questions, c, f"{c}x{len(rounds)}", wait)))
                        finally:
                            bot.close()
                stop_servers()  # one LLM server at a time
    finally:
        shutil.rmtree(home, ignore_errors=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    generator = f"the real local LLM ({args.model.name})" if args.model else "TGI stand-in (recorded Vicuna-13B)"
    print(f"\nBot latency, {args.n} signed `app_mention` events per round (SciQA final-phase questions), "
          f"{args.workers} workers, {generator}, snapshot KG, {args.encoder} store.\n")
    print("| senders | generator, encoder, surface | events | ack p50 / p95 ms | first visible (status or placeholder) "
          "p50 / p95 ms | final answer p50 / p95 ms | answered with rows | events/s |")
    print("|---|---|---|---|---|---|---|---|")
    for c, label, r in rounds:
        cols = [f"{pct(r[k], .5):.0f} / {pct(r[k], .95):.0f}" for k in ("ack", "first", "final")]
        print(f"| {c} | {label} | {r['n']} | {' | '.join(cols)} | {r['answered']}/{r['n']} | {r['throughput']:.1f} |")
    print("\nmean final answer: " + ", ".join(f"{c} sender(s), {label}: {statistics.mean(r['final']):.0f} ms"
                                             for c, label, r in rounds) + f"; peak RSS {peak:.0f} MiB; "
          f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
