"""Retrieval with 1x and N x the stored pairs: SciQA's train pairs, then synthetic team pairs drawn from a generated
graph (standins/orkg_scale.py: a train question and its SPARQL with the label it names replaced by an invented label
of the graph), in embedded Chroma or a Chroma server (chromadb's own `chroma run`, standins/chroma.py).

Usage: python scripts/bench_retrieval_scale.py --graph /tmp/scale/g10.nt --factors 10 100 [--server]
Prints, per size, the time to add the pairs (only new ones embedded on the second add), the raw vector search's p50
and template hit@1 over the final-phase 200 (their question vectors encoded once, apart from the search), and the
pipeline's own search (the form-aware re-ranking over the raw neighbours, the question encoded as a user's is): the
time to build its knowledge of the store's forms, its p50 and its hit@1.
"""
from __future__ import annotations

import argparse
import random
import re
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import chromadb
import pyoxigraph as ox

from pipeline.eval.retrieval import template_hit
from pipeline.factory import build_encoder, form_aware
from pipeline.question import tidy
from pipeline.records import Example, Retrieved
from pipeline.sciqa import SciQA
from pipeline.settings import Settings
from pipeline.sparql.shape import read
from pipeline.store.chroma import ChromaStore
from standins.chroma import ChromaServer
from standins.orkg_scale import SYNTH

LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
T = TypeVar("T")


def invented_labels(graph: Path) -> list[str]:
    return [q.object.value for q in ox.parse(path=str(graph), format=ox.RdfFormat.N_TRIPLES)
            if q.predicate.value == LABEL and q.subject.value.startswith(SYNTH)]


def synthetic(train: list[Example], labels: list[str], n: int, seed: int) -> list[Example]:
    """``n`` team pairs: a train pair whose one label literal stands in its question, that label replaced."""
    rnd = random.Random(seed)
    fillable = []
    for ex in train:
        literals = [f.literal for f in read(ex.sparql).filters if f.op == "="]
        if len(literals) == 1 and len(re.findall(rf"(?<!\w){re.escape(literals[0])}(?!\w)", ex.question)) == 1:
            fillable.append((ex, literals[0]))  # the name stands once in the question, as a word of its own
    out = []
    for i in range(n):
        ex, literal = fillable[i % len(fillable)]
        label = rnd.choice(labels)
        out.append(Example(f"team-synth-{i}", re.sub(rf"(?<!\w){re.escape(literal)}(?!\w)",
                                                     label.replace("\\", "\\\\"), ex.question),
                           ex.sparql.replace(f'"{literal}"', f'"{label}"'), ex.template_id, "team"))
    return out


def timed(search: Callable[[T], list[Retrieved]], asked: list[T], templates: list[str]) -> tuple[float, float]:
    """Search p50 (ms) over every question asked; template hit@1 over the templated ones (as `kgqa eval` counts it)."""
    times, hits = [], []
    for one, template in zip(asked, templates):
        start = time.perf_counter()
        found = search(one)
        times.append((time.perf_counter() - start) * 1000)
        if template:
            hits.append(template_hit(template, [r.example.template_id for r in found], 1))
    return statistics.median(times), sum(hits) / len(hits)


def pipeline_search(settings: Settings, store: ChromaStore, questions: list[str],
                    templates: list[str]) -> tuple[float, float, float]:
    """The form-aware store over ``store`` (a fresh home: its knowledge built, not read): build s, search p50 ms,
    template hit@1 over the templated questions."""
    aware = form_aware(settings.with_(home=Path(tempfile.mkdtemp(prefix="kgqa-aware-"))), store)
    start = time.perf_counter()
    aware.knowledge()
    built = time.perf_counter() - start
    aware.search(questions[0], 5)  # the encoder's first call
    return (built, *timed(lambda q: aware.search(q, 5), questions, templates))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--graph", type=Path, required=True)
    ap.add_argument("--factors", type=int, nargs="+", default=[10], help="sizes after 1x, ascending")
    ap.add_argument("--server", action="store_true")
    args = ap.parse_args()
    settings = Settings.from_env()
    sciqa = SciQA.from_settings(settings)
    encoder = build_encoder(settings)
    train = [Example(r.id, r.question, r.sparql, r.template_id) for r in sciqa.split("train")]
    final = [sciqa.by_id[qid] for qid, _ in sciqa.challenge("final")]
    vectors = encoder.encode([r.question for r in final])
    templates = [r.template_id if r.template_id.startswith("T") else "" for r in final]
    server = ChromaServer() if args.server else None
    client = chromadb.HttpClient(host="127.0.0.1", port=server.port) if server else \
        chromadb.PersistentClient(path=tempfile.mkdtemp(prefix="kgqa-retrieval-"))
    store = ChromaStore(client, encoder, "bench")
    try:
        start = time.perf_counter()
        store.add(train)
        print(f"1x: {store.count()} pairs, add {time.perf_counter() - start:.1f} s")
        asked = [tidy(r.question) for r in final]
        report(settings, "1x", store, vectors, templates, asked)
        labels = invented_labels(args.graph)
        for factor in args.factors:
            team = synthetic(train, labels, (factor - 1) * len(train), 38)  # the smaller sizes' pairs come first
            have = {e.id for e in store.examples()}
            new = [e for e in team if e.id not in have]
            start = time.perf_counter()
            store.add(new)
            took = time.perf_counter() - start
            print(f"{factor}x: {store.count()} pairs, {len(new)} new embedded, add {took:.1f} s", flush=True)
            stored = {x.id for x in store.examples()}
            print(f"{factor}x: a second run would embed {sum(e.id not in stored for e in team)}")
            report(settings, f"{factor}x", store, vectors, templates, asked)
    finally:
        if server:
            server.close()
    return 0


def report(settings: Settings, size: str, store: ChromaStore, vectors: list[list[float]], templates: list[str],
           asked: list[str]) -> None:
    p50, hit = timed(lambda v: store.search_vector(v, 1), vectors, templates)
    print(f"{size}: raw search p50 {p50:.2f} ms, template hit@1 {hit:.3f}", flush=True)
    built, p50, hit = pipeline_search(settings, store, asked, templates)
    print(f"{size}: pipeline search: knowledge built in {built:.1f} s, p50 {p50:.2f} ms, template hit@1 {hit:.3f}",
          flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
