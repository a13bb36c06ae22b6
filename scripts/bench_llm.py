"""The local LLM's cost per question, and what each exact speedup changes, measured on the project's real prompts.

Every configuration is the product's llama.cpp server (``pipeline.generators.llamacpp``) in its own child, loaded
before the first question; the questions are then sent to them alternately (question 1 to A, B, C..., question 2 to
A, B, C...), one request at a time, so a busy machine slows every configuration alike. The prompt is the one the
product sends: ``few_shot`` over the examples the project's own retrieval finds (a KGQA_HOME index), as one user
message through the model's chat template, greedy. Per question and configuration: latency, prompt tokens (and how
many came from the server's prompt cache), prompt tok/s, generated tokens, gen tok/s, drafted / accepted tokens, the
text. The text of every configuration must equal the first one's, question by question: a speedup that changes one
token is not exact, and the script says so (exit status 1).

Usage (wrap it in ``flock /tmp/kgqa-llm.lock``: one LLM run at a time on a shared box):
  KGQA_HOME=... SCIQA_DIR=../shared/sciqa PYTHONPATH=$PWD python scripts/bench_llm.py --model M.gguf \
      --first 40 --configs plain ngram [--threads 2] [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import Any

from pipeline.core import lookup
from pipeline.factory import build_retriever
from pipeline.generators.llamacpp import LlamaServer, ServerConfig
from pipeline.generators.prompt import STOP_SEQUENCES, few_shot
from pipeline.sciqa import sciqa_for
from pipeline.settings import Settings
from pipeline.sparql.text import extract_query

# name -> how the server is started (pipeline.generators.llamacpp.ServerConfig fields); "plain": no drafting.
CONFIGS: dict[str, dict[str, Any]] = {
    "plain": {"draft": "none"},
    "product": {},  # the product's defaults (KGQA_LOCAL_DRAFT*)
    "ngram-n4-m16": {"draft_ngram": 4, "draft_max": 16},
    "ngram-n2-m32": {"draft_ngram": 2, "draft_max": 32},
    "ngram-n3-m64": {"draft_ngram": 3, "draft_max": 64},
    "ngram-n12-m48": {"draft_ngram": 12, "draft_max": 48},  # llama.cpp's own defaults
}


def start(name: str, model: str, threads: int, log: Path) -> LlamaServer:
    server = LlamaServer(replace(ServerConfig.of(Settings(local_threads=threads), model), **CONFIGS[name]), log)
    server.url()
    return server


def ask(url: str, prompt: str, max_tokens: int, stop: list[str]) -> dict[str, Any]:
    body = {"model": "m", "messages": [{"role": "user", "content": prompt}], "temperature": 0.0,
            "max_tokens": max_tokens, "stop": stop, "stream": False}
    request = urllib.request.Request(url + "/v1/chat/completions", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    began = time.perf_counter()
    with urllib.request.urlopen(request, timeout=900) as response:
        data = json.load(response)
    t = data.get("timings") or {}
    text = str(data["choices"][0]["message"]["content"] or "")
    return {"s": time.perf_counter() - began, "prompt_n": t.get("prompt_n", 0), "cache_n": t.get("cache_n", 0),
            "prompt_ms": t.get("prompt_ms", 0.0), "gen_n": t.get("predicted_n", 0),
            "gen_ms": t.get("predicted_ms", 0.0), "draft_n": t.get("draft_n", 0),
            "draft_ok": t.get("draft_n_accepted", 0), "finish": data["choices"][0].get("finish_reason"),
            "text": text, "query": extract_query(text) or ""}


def prompts(first: int, shots: int) -> list[tuple[str, str]]:
    """(question id, prompt) of the first final-phase questions, with the product's retrieval."""
    settings = Settings.from_env()
    store = build_retriever(settings)
    return [(qid, few_shot(q, lookup(store, q, shots, settings.max_question_chars)))
            for qid, q in sciqa_for(settings).challenge("final")[:first]]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def summary(name: str, rows: list[dict[str, Any]]) -> str:
    lat = [r["s"] for r in rows]
    pn, pms = sum(r["prompt_n"] for r in rows), sum(r["prompt_ms"] for r in rows)
    gn, gms = sum(r["gen_n"] for r in rows), sum(r["gen_ms"] for r in rows)
    dn, dok = sum(r["draft_n"] for r in rows), sum(r["draft_ok"] for r in rows)
    cached = sum(r["cache_n"] for r in rows) / max(1, sum(r["cache_n"] + r["prompt_n"] for r in rows))
    return (f"| {name} | {len(rows)} | {pct(lat, .5):.1f} / {pct(lat, .95):.1f} | {statistics.mean(lat):.1f} | "
            f"{pn / len(rows):.0f} ({cached:.0%} cached) | {pn / max(pms, 1e-9) * 1000:.1f} | "
            f"{gn / len(rows):.0f} | {gn / max(gms, 1e-9) * 1000:.1f} | "
            + (f"{dok}/{dn} ({dok / dn:.0%})" if dn else "–") + " |")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", help="a .gguf file (default: the 1.5B benchmark model in KGQA_MODEL_CACHE)")
    ap.add_argument("--configs", nargs="+", default=["plain", "ngram"], choices=sorted(CONFIGS))
    ap.add_argument("--first", type=int, default=40, help="the first N final-phase questions")
    ap.add_argument("--skip", type=int, default=0, help="start at this question")
    ap.add_argument("--shots", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--max-tokens", type=int, default=512)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    if not args.model:
        from pipeline.generators.weights import model_path

        args.model = str(model_path("qwen2.5-coder-1.5b", Settings.from_env().models_dir))
    asked = prompts(args.first, args.shots)[args.skip:]
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench_llm.{os.getpid()}.log"
    servers = {name: start(name, args.model, args.threads, log) for name in args.configs}
    load = [os.getloadavg()]
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in args.configs}
    differ: list[str] = []
    try:
        for i, (qid, prompt) in enumerate(asked):
            for name, server in servers.items():
                rows[name].append({"id": qid, **ask(server.url(), prompt, args.max_tokens, STOP_SEQUENCES)})
            base = rows[args.configs[0]][-1]
            for name in args.configs[1:]:
                if rows[name][-1]["text"] != base["text"]:
                    differ.append(f"{qid} {name}")
            print(f"{i + 1}/{len(asked)} {qid} " + " ".join(
                f"{n}={rows[n][-1]['s']:.1f}s/{rows[n][-1]['gen_n']}t" for n in args.configs)
                + (" DIFFERENT" if differ and differ[-1].startswith(qid) else ""), file=sys.stderr, flush=True)
            load.append(os.getloadavg())
            if args.json:  # after every question: a run cut short keeps what it measured
                args.json.write_text(json.dumps({"configs": {n: CONFIGS[n] for n in args.configs}, "load": load,
                                                 "rows": rows, "different": differ}, indent=1))
    except KeyboardInterrupt:
        print("interrupted: the questions answered so far", file=sys.stderr)
    finally:
        for server in servers.values():
            server.stop()
    asked = asked[:min(len(r) for r in rows.values())]
    rows = {n: r[:len(asked)] for n, r in rows.items()}
    print(f"\n{len(asked)} final-phase questions, {args.shots} shots, {Path(args.model).name}, {args.threads} threads, "
          f"configurations alternated per question; load average (1 min) {min(x[0] for x in load):.1f}–"
          f"{max(x[0] for x in load):.1f}\n")
    print("| configuration | questions | latency p50 / p95 s | mean s | prompt tokens (cached) | prompt tok/s | "
          "generated tokens | gen tok/s | drafts accepted |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in args.configs:
        print(summary(name, rows[name]))
    same = len(asked) * (len(args.configs) - 1) - len(differ)
    print(f"\nidentical text to {args.configs[0]}: {same}/{len(asked) * (len(args.configs) - 1)}"
          + (f"; different: {', '.join(differ)}" if differ else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
