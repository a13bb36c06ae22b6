"""What the leaderboard costs: the companion query's KG round trip beside the pipeline's own query, per question.

Usage: python scripts/bench_glance.py [--copies 100] [--runs 5]
Every T01, T04 and T05 question of the fixture graph (standins/fixture_questions.py) runs through the pipeline
on the fixture plus N relabelled copies (`orkg_fixture.write_copies`), on pyoxigraph (in memory) and Virtuoso
(HTTP). Per question: KG round trips, the median of the `kg` stage (the pipeline's query) and of the `leaderboard`
stage (the companion), over --runs runs. Prints markdown for docs/results/speed.md: p50 over the questions.
Needs Virtuoso installed (.ci/virtuoso.sh).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from pipeline.core import Bounds, Parts, Pipeline
from pipeline.kg.endpoint import AGENT, RETRIES, EndpointKG
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.parts import KnowledgeGraph
from standins.fakes import RecordingProxy
from standins.fixture_questions import FixedGenerator, NoStore, cases
from standins.orkg_fixture import write_copies
from standins.virtuoso import VirtuosoServer


def measure(kg: KnowledgeGraph, runs: int) -> tuple[int, float, float, int]:
    """(max round trips per question, p50 kg ms, p50 leaderboard ms, questions with a leaderboard)."""
    trips, own, extra, boards = 0, [], [], 0
    for _, _, sparql in cases():
        stages: dict[str, list[float]] = {"kg": [], "leaderboard": []}
        for _ in range(runs):
            proxy = RecordingProxy(kg)
            answer = Pipeline(Parts(NoStore(), FixedGenerator(sparql), proxy),
                              Bounds(shots=3, row_cap=100_000, max_question_chars=2000, workers=4)).ask("q")
            trips = max(trips, len(proxy.queries))
            for stage in stages:
                if stage in answer.timings_ms:
                    stages[stage].append(answer.timings_ms[stage])
        own.append(statistics.median(stages["kg"]))
        if stages["leaderboard"]:
            extra.append(statistics.median(stages["leaderboard"]))
            boards += 1
    return trips, statistics.median(own), statistics.median(extra) if extra else 0.0, boards


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--copies", type=int, default=100)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kgqa-bench-glance-"))
    plain, total = write_copies(work, args.copies)
    print(f"{len(cases())} questions (T01, T04, T05 on every fixture dataset), {total:,} triples, {args.runs} runs\n")
    print("| KG | max round trips / question | p50 own query ms | p50 companion ms | ratio | with a leaderboard |")
    print("|---|---|---|---|---|---|")
    kgs: list[tuple[str, KnowledgeGraph]] = [("pyoxigraph (in memory)", OxigraphKG(plain, row_cap=1000))]
    with VirtuosoServer(plain) as virtuoso:
        kgs.append(("Virtuoso 7.2 (HTTP)", EndpointKG(virtuoso.endpoint, timeout=60, row_cap=100_000, agent=AGENT,
                                                       retries=RETRIES)))
        for name, kg in kgs:
            trips, own, extra, boards = measure(kg, args.runs)
            print(f"| {name} | {trips} | {own:.1f} | {extra:.1f} | {extra / own if own else 0:.2f} | "
                  f"{boards}/{len(cases())} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
