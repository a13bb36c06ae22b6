"""The graph rebuilt from SciQA (`--kg sciqa`): build time, size, load time, and query latency per template.

Usage: python scripts/bench_sciqa_graph.py [--repeat 3]      (SCIQA_DIR must point at SciQA)
Builds the graph --repeat times into fresh folders (median), opens it, then runs every gold query of all splits
once on the opened graph: p50/p95 per template, with the engine-friendly reordering (what `--kg sciqa` runs) and,
for T04, without it (the ratio is the point: timings here are taken on a shared, loaded machine). Prints markdown.
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from pipeline.errors import KgqaError
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.kg.sciqa_graph.facts import read_facts
from pipeline.kg.sciqa_graph.store import GRAPH, SciqaKG, ensure_graph
from pipeline.sparql.text import add_prefixes


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def timed(kg: OxigraphKG, query: str) -> float:
    started = time.perf_counter()
    try:
        kg.select(query)
    except KgqaError:
        pass
    return (time.perf_counter() - started) * 1000


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--t04-plain", type=int, default=10, help="T04 queries to time without the reordering")
    args = p.parse_args()
    root = Path(os.environ.get("SCIQA_DIR", "../shared/sciqa"))
    builds, loads = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat):
            started = time.perf_counter()
            folder = ensure_graph(root, Path(tmp) / f"home-{i}")
            builds.append(time.perf_counter() - started)
        started = time.perf_counter()
        kg = SciqaKG(folder, row_cap=1000)
        loads.append(time.perf_counter() - started)
        size = (folder / GRAPH).stat().st_size
        triples = len(kg.store)
        plain = OxigraphKG(folder / GRAPH, row_cap=1000)
        latency: dict[str, list[float]] = defaultdict(list)
        facts = read_facts(root)
        for f in facts:
            latency[f.template].append(timed(kg, add_prefixes(f.sparql)))
        t04 = [f for f in facts if f.template == "T04"][:args.t04_plain]
        unordered = [timed(plain, add_prefixes(f.sparql)) for f in t04]
    print(f"build (read SciQA, derive, write N-Triples): median {statistics.median(builds):.2f} s of {args.repeat}; "
          f"open (load into memory): {loads[0]:.2f} s; {triples:,} triples, {size / 1e6:.1f} MB of N-Triples\n")
    print("| template | queries | p50 ms | p95 ms |\n|---|---|---|---|")
    everything = [ms for values in latency.values() for ms in values]
    for template in sorted(latency):
        values = latency[template]
        print(f"| {template} | {len(values)} | {percentile(values, .5):.1f} | {percentile(values, .95):.1f} |")
    print(f"| all | {len(everything)} | {percentile(everything, .5):.1f} | {percentile(everything, .95):.1f} |")
    print(f"\nT04 without the reordering (first {len(unordered)}): p50 {percentile(unordered, .5):.0f} ms, "
          f"p95 {percentile(unordered, .95):.0f} ms — with it: p50 {percentile(latency['T04'], .5):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
