"""Measure `kgqa index` build time, per-stage latency of `ask` and its peak memory (adapter + snapshot, in-process).

Usage: python scripts/bench_ask.py [--questions final] [--n 100] [--home DIR] [--before CHECKOUT] [--rounds 1]
``--before``: an older checkout's own bench_ask.py runs too (its code, this Python, the same home and questions),
alternating with this one for ``--rounds`` rounds, so that both are measured under the same load.
Prints a markdown table for docs/results/speed.md. Stand-ins for TGI and the KG are not involved: the adapter and the
snapshot run in-process, so the figures are this project's own cost.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pipeline.factory import build_index, build_pipeline, build_store
from pipeline.sciqa import sciqa_for
from pipeline.settings import Settings


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--questions", default="final", choices=("dev", "final"))
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--home", type=Path, default=None)
    ap.add_argument("--before", type=Path, default=None, help="an older checkout to measure alternately")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args()
    home = args.home or Path(tempfile.mkdtemp(prefix="kgqa-bench-"))
    if args.before:
        return side_by_side(args, home)
    settings = Settings.from_env().with_(home=home, kg="snapshot", generator="adapter")
    t0 = time.perf_counter()
    store = build_store(settings)
    rebuilt, count = build_index(settings, store)
    index_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    pipe = build_pipeline(settings, store=store)
    pipe.ask("warm-up: which models were evaluated on SQuAD?")
    warm_s = time.perf_counter() - t1
    questions = [q for _, q in sciqa_for(settings).challenge(args.questions)][: args.n]
    stages: dict[str, list[float]] = {}
    totals = []
    for q in questions:
        start = time.perf_counter()
        answer = pipe.ask(q)
        totals.append((time.perf_counter() - start) * 1000)
        for stage, ms in answer.timings_ms.items():
            stages.setdefault(stage, []).append(ms)
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"index: {'built' if rebuilt else 'reused'} {count} pairs in {index_s:.1f} s "
          f"({count / index_s:.0f} pairs/s incl. model load)")
    print(f"first answer after start (model load + snapshot build + warm-up ask): {warm_s:.1f} s")
    print(f"\n| stage ({len(questions)} `{args.questions}` questions) | p50 ms | p95 ms | mean ms |")
    print("|---|---|---|---|")
    for stage, values in list(stages.items()) + [("total", totals)]:
        print(f"| {stage} | {pct(values, .5):.1f} | {pct(values, .95):.1f} | {statistics.mean(values):.1f} |")
    print(f"\npeak memory (max RSS) of the process: {peak_mib:.0f} MiB")
    return 0


def side_by_side(args: argparse.Namespace, home: Path) -> int:
    """Each round: the older checkout's benchmark, then this one's, as separate processes on one home."""
    for n in range(args.rounds):
        for name, tree in (("before", args.before), ("this checkout", Path(__file__).resolve().parents[1])):
            env = dict(os.environ, PYTHONPATH=str(tree))
            out = subprocess.run([sys.executable, str(tree / "scripts" / "bench_ask.py"), "--n", str(args.n),
                                  "--questions", args.questions, "--home", str(home)],
                                 cwd=tree, env=env, capture_output=True, text=True, check=True).stdout
            print(f"### round {n + 1}: {name} ({tree}), load average {os.getloadavg()[0]:.1f}\n{out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
